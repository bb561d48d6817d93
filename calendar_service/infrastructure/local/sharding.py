"""The calendar service's shard keys (see ``agenda_kit.sharding``): the built-in calendar's
collections, and the hold ledgers of create-if-free (both backends)."""

from __future__ import annotations

from agenda_kit.sharding import ShardKey

SHARD_KEYS: dict[str, ShardKey | None] = {
    "calendars": ShardKey(("_id",), why="the _id is the calendar id"),
    "events": ShardKey(("calendar_id",), why="every read and write names one calendar"),
    "hold_ledgers": ShardKey(("calendar_id",), why="one ledger per calendar and UTC day"),
    "service_keys": None,  # one small document per secret (the page-token key)
}
