"""Start-up migrations of the agent's collections (idempotent; every replica may run them).

Holds keyed by calendar (issue 11 §7): slot holds used to be unique per (tenant, professional,
unit); now they are unique per (calendar, unit), so two professionals — of one tenant or of
two — sharing a calendar cannot overlap. Existing holds get their appointment's calendar id,
then the old index is dropped; ``init_beanie`` creates the new one.
"""

from __future__ import annotations

import contextlib
from typing import Any

from pymongo.asynchronous.database import AsyncDatabase
from pymongo.errors import OperationFailure

from agent_service.infrastructure.mongo.booking_documents import LEGACY_HOLD_INDEX


async def holds_by_calendar(database: AsyncDatabase[Any]) -> int:
    """Backfill ``calendar_id`` on holds lacking it and drop the per-professional index;
    returns how many holds were backfilled."""
    holds = database["slot_holds"]
    appointments = database["appointments"]
    backfilled = 0
    async for hold in holds.find({"calendar_id": {"$exists": False}}):
        owner = await appointments.find_one({"_id": hold["appointment_id"]}, {"calendar_id": 1})
        if owner is None:  # a hold without its appointment holds nothing
            await holds.delete_one({"_id": hold["_id"]})
            continue
        await holds.update_one(
            {"_id": hold["_id"]}, {"$set": {"calendar_id": owner["calendar_id"]}}
        )
        backfilled += 1
    with contextlib.suppress(OperationFailure):  # already dropped, or never created
        await holds.drop_index(LEGACY_HOLD_INDEX)
    return backfilled
