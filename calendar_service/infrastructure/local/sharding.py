"""The calendar service's shard keys (local backend; see ``agenda_kit.sharding``)."""

from __future__ import annotations

from agenda_kit.sharding import ShardKey

SHARD_KEYS: dict[str, ShardKey | None] = {
    "calendars": ShardKey(("_id",), why="the _id is the calendar id"),
    "events": ShardKey(("calendar_id",), why="every read and write names one calendar"),
    "slot_holds": ShardKey(("calendar_id",), why="a hold is unique per calendar and unit"),
}
