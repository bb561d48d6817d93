"""Start-up backfill of ``busy_days`` on events stored before the local calendar kept them."""

from __future__ import annotations

from typing import Any

import structlog
from pymongo import UpdateOne
from pymongo.asynchronous.collection import AsyncCollection

from calendar_service.infrastructure.local.day_keys import event_day_keys

log = structlog.get_logger("agenda.calendar.local")
CONFIRMED = "confirmed"
_FIELDS = {"calendar_id": 1, "start": 1, "end": 1, "status": 1}


async def backfill_busy_days(
    events: AsyncCollection[dict[str, Any]], *, batch_size: int = 500
) -> int:
    """Give every event without ``busy_days`` its keys (none when cancelled), ``batch_size``
    events per read and per write; returns how many it updated.

    Idempotent: only events without the field are read, and each update is conditional on the
    event being as it was read (still without keys, same start, end and status), so a write
    that raced it keeps its own keys; such an event is read again by the next batch. Stops
    when a batch updates nothing (an event changed under every attempt is left to the next
    start, and logged)."""
    if batch_size < 1:
        raise ValueError("batch_size must be at least 1")
    updated = 0
    while True:
        batch = await events.find({"busy_days": {"$exists": False}}, _FIELDS).to_list(batch_size)
        if not batch:
            return updated
        result = await events.bulk_write([_keyed(event) for event in batch], ordered=False)
        updated += result.modified_count
        if not result.modified_count:
            log.warning("busy_days_backfill_stalled", left=len(batch))
            return updated


def _keyed(event: dict[str, Any]) -> UpdateOne:
    status = event.get("status", CONFIRMED)
    keys = event_day_keys(event["calendar_id"], event["start"], event["end"])
    unchanged = {
        "_id": event["_id"],
        "busy_days": {"$exists": False},
        "start": event["start"],
        "end": event["end"],
        "status": status if "status" in event else {"$exists": False},
    }
    return UpdateOne(unchanged, {"$set": {"busy_days": keys if status == CONFIRMED else []}})
