"""``MongoHoldStore``: the holds of create-if-free in the calendar service's MongoDB (the same
database for both backends; embedded SecantusDB when ``MONGODB_URI`` is unset).

One document per (calendar, 5-minute unit) held, under the unique index
``one_hold_per_calendar_unit``: inserting the units of a write is the atomic step that lets
exactly one of concurrent writers (on any replica) take them. Documents carry the event id
and owner, ``writing``/``lease_until`` while the write runs, and the event's range.
Instants are stored as BSON keeps them (UTC, milliseconds; units are whole minutes).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from pymongo import ASCENDING, IndexModel
from pymongo.asynchronous.collection import AsyncCollection
from pymongo.errors import BulkWriteError

from calendar_service.application.holds import Hold, HoldRequest, Taken, hold_units
from calendar_service.infrastructure.local.errors import translated_errors

HOLD_INDEX = "one_hold_per_calendar_unit"
DUPLICATE_KEY = 11000
COLLECTION = "slot_holds"
INDEXES = [
    IndexModel([("calendar_id", ASCENDING), ("unit", ASCENDING)], name=HOLD_INDEX, unique=True),
    IndexModel([("calendar_id", ASCENDING), ("event_id", ASCENDING)], name="by_event"),
    IndexModel([("writing", ASCENDING), ("lease_until", ASCENDING)], name="writing_lease"),
]
Document = dict[str, Any]
_VANISHED_RETRIES = 3


class MongoHoldStore:
    """``HoldStore`` over one collection (``open`` creates its indexes)."""

    def __init__(self, holds: AsyncCollection[Document]) -> None:
        self._holds = holds

    @classmethod
    async def open(cls, holds: AsyncCollection[Document]) -> MongoHoldStore:
        with translated_errors("holds_indexes"):
            await holds.create_indexes(INDEXES)
        return cls(holds)

    async def take(self, request: HoldRequest) -> Taken:
        """Ordered inserts (ascending units): stop at the first unit another event holds;
        step over the event's own; a unit freed between the refusal and the read is tried
        again (a bounded number of times: then it counts as held)."""
        pending = [_document(request, unit) for unit in request.units]
        taken: list[datetime] = []
        with translated_errors("holds_take"):
            for _ in range(len(pending) + _VANISHED_RETRIES):
                if not pending:
                    break
                inserted, refused = await self._insert(pending)
                taken.extend(d["unit"] for d in pending[:inserted])
                if refused is None:
                    return Taken(tuple(taken), ())
                holder = await self._holds.find_one(
                    {"calendar_id": request.calendar_id, "unit": refused}
                )
                if holder is not None and holder["event_id"] != request.event_id:
                    return Taken(tuple(taken), (_hold(holder),))
                skip = 1 if holder is not None else 0  # our own unit, or one just freed
                pending = pending[inserted + skip :]
        return Taken(tuple(taken), ())

    async def _insert(self, documents: list[Document]) -> tuple[int, datetime | None]:
        """How many of ``documents`` were inserted, in order, and the unit it stopped at."""
        try:
            await self._holds.insert_many(documents, ordered=True)
        except BulkWriteError as error:
            errors = error.details.get("writeErrors", [])
            if not errors or errors[0].get("code") != DUPLICATE_KEY:
                raise
            index = int(errors[0]["index"])
            return index, documents[index]["unit"]
        return len(documents), None

    async def settle(
        self,
        calendar_id: str,
        event_id: str,
        start: datetime,
        end: datetime,
        *,
        prune: bool = True,
    ) -> None:
        keep = list(hold_units(start, end))
        mine = {"calendar_id": calendar_id, "event_id": event_id}
        with translated_errors("holds_settle"):
            if prune:
                await self._holds.delete_many(mine | {"unit": {"$nin": keep}})
            await self._holds.update_many(
                mine,
                {"$set": {"writing": False, "lease_until": None, "start": start, "end": end}},
            )

    async def release(
        self, calendar_id: str, event_id: str, units: Sequence[datetime] | None = None
    ) -> None:
        query: Document = {"calendar_id": calendar_id, "event_id": event_id}
        if units is not None:
            query["unit"] = {"$in": list(units)}
        with translated_errors("holds_release"):
            await self._holds.delete_many(query)

    async def expired(self, now: datetime, limit: int) -> list[Hold]:
        with translated_errors("holds_expired"):
            found = await self._holds.find({"writing": True, "lease_until": {"$lt": now}}).to_list(
                limit * 8
            )
        first: dict[tuple[str, str], Hold] = {}
        for document in found:
            hold = _hold(document)
            first.setdefault((hold.calendar_id, hold.event_id), hold)
        return list(first.values())[:limit]

    async def of_calendar(self, calendar_id: str) -> list[Hold]:
        with translated_errors("holds_of_calendar"):
            found = await self._holds.find({"calendar_id": calendar_id}).to_list(None)
        return [_hold(document) for document in found]


def _document(request: HoldRequest, unit: datetime) -> Document:
    return {
        "calendar_id": request.calendar_id,
        "unit": unit,
        "event_id": request.event_id,
        "owner": request.owner,
        "writing": True,
        "lease_until": request.lease_until,
        "start": request.start,
        "end": request.end,
    }


def _hold(document: Document) -> Hold:
    return Hold(
        calendar_id=document["calendar_id"],
        unit=document["unit"],
        event_id=document["event_id"],
        owner=document.get("owner", ""),
        writing=bool(document.get("writing")),
        lease_until=document.get("lease_until"),
        start=document["start"],
        end=document["end"],
    )
