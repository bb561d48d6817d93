"""``MongoHoldStore``: the holds of create-if-free in the calendar service's MongoDB (the same
database for both backends; embedded SecantusDB when ``MONGODB_URI`` is unset).

One ledger document per (calendar, UTC day) — unique index ``one_ledger_per_calendar_day`` —
listing the ranges held that day (``entries``: event, owner, start, end, writing, lease,
claim) and a ``version``. Adding a range is a write conditioned on the version read, so two
writers of overlapping ranges never both succeed on a shared day; dropping ranges is one
atomic ``$pull``. Instants are stored as BSON keeps them (UTC, milliseconds).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from pymongo import ASCENDING, IndexModel
from pymongo.asynchronous.collection import AsyncCollection
from pymongo.errors import DuplicateKeyError

from agenda_kit.calendar.errors import CalendarUnavailableError
from calendar_service.application.holds import (
    Hold,
    HoldRequest,
    Taken,
    kept_in_flight,
    ledger_days,
)
from calendar_service.infrastructure.local.errors import translated_errors

LEDGER_INDEX = "one_ledger_per_calendar_day"
COLLECTION = "hold_ledgers"
INDEXES = [
    IndexModel([("calendar_id", ASCENDING), ("day", ASCENDING)], name=LEDGER_INDEX, unique=True),
    IndexModel([("calendar_id", ASCENDING), ("entries.event_id", ASCENDING)], name="by_event"),
    IndexModel([("entries.lease_until", ASCENDING)], name="by_lease"),
]
ROUNDS = 50
"""Conditional writes of one ledger tried while other writers keep changing it."""
Document = dict[str, Any]


class MongoHoldStore:
    """``HoldStore`` over one collection of ledgers (``open`` creates its indexes)."""

    def __init__(self, ledgers: AsyncCollection[Document]) -> None:
        self._ledgers = ledgers

    @classmethod
    async def open(cls, ledgers: AsyncCollection[Document]) -> MongoHoldStore:
        with translated_errors("holds_indexes"):
            await ledgers.create_indexes(INDEXES)
        return cls(ledgers)

    async def take(self, request: HoldRequest) -> Taken:
        with translated_errors("holds_take"):
            for day in ledger_days(request.start, request.end):
                others = await self._take_day(request, day.isoformat())
                if others:
                    return Taken(others)
        return Taken()

    async def _take_day(self, request: HoldRequest, day: str) -> tuple[Hold, ...]:
        """Add the request's range to one day's ledger; the overlapping holds of other
        events instead, if any."""
        entry = _entry(request.hold())
        for _ in range(ROUNDS):
            ledger = await self._ledgers.find_one({"calendar_id": request.calendar_id, "day": day})
            entries = [] if ledger is None else ledger["entries"]
            others = tuple(
                hold
                for hold in (_hold(request.calendar_id, e) for e in entries)
                if hold.event_id != request.event_id and hold.overlaps(request.start, request.end)
            )
            if others:
                return others
            if any(e["claim"] == request.claim for e in entries):
                return ()
            if await self._add(request.calendar_id, day, ledger, entry):
                return ()
        raise CalendarUnavailableError("The calendar's holds kept changing; retry the write.")

    async def _add(
        self, calendar_id: str, day: str, ledger: Document | None, entry: Document
    ) -> bool:
        if ledger is None:
            try:
                await self._ledgers.insert_one(
                    {"calendar_id": calendar_id, "day": day, "version": 1, "entries": [entry]}
                )
            except DuplicateKeyError:
                return False  # another writer created the ledger first: read it
            return True
        result = await self._ledgers.update_one(
            {"_id": ledger["_id"], "version": ledger["version"]},
            {"$push": {"entries": entry}, "$inc": {"version": 1}},
        )
        return bool(result.modified_count)

    async def settle(
        self,
        calendar_id: str,
        event_id: str,
        start: datetime,
        end: datetime,
        *,
        claim: str = "",
        now: datetime | None = None,
        creating: bool = False,
    ) -> None:
        keep = {day.isoformat() for day in ledger_days(start, end)}
        landed = (start, end) if creating else None

        def settled(day: str, mine: list[Document]) -> list[Document]:
            flying = [e for e in mine if kept_in_flight(_hold(calendar_id, e), claim, now, landed)]
            if day not in keep:
                return flying
            held = mine[0] | {"start": start, "end": end, "writing": False}
            return [*flying, held | {"lease_until": None, "claim": "", "create": False}]

        await self._edit(calendar_id, event_id, settled, "holds_settle")

    async def release(
        self,
        calendar_id: str,
        event_id: str,
        claim: str | None = None,
        *,
        now: datetime | None = None,
    ) -> None:
        if claim is None and now is not None:

            def flying(day: str, mine: list[Document]) -> list[Document]:
                return [e for e in mine if kept_in_flight(_hold(calendar_id, e), None, now)]

            await self._edit(calendar_id, event_id, flying, "holds_release")
            return
        which: Document = {"event_id": event_id} | ({} if claim is None else {"claim": claim})
        with translated_errors("holds_release"):
            await self._ledgers.update_many(
                {"calendar_id": calendar_id, "entries.event_id": event_id},
                {"$pull": {"entries": which}, "$inc": {"version": 1}},
            )

    async def _edit(
        self,
        calendar_id: str,
        event_id: str,
        edit: Callable[[str, list[Document]], list[Document]],
        operation: str,
    ) -> None:
        """Replace the event's entries of each ledger holding one by ``edit(day, entries)``,
        each ledger by a write conditioned on its version (retried while others change it)."""
        with translated_errors(operation):
            ledgers = await self._ledgers.find(
                {"calendar_id": calendar_id, "entries.event_id": event_id}
            ).to_list(None)
            for ledger in ledgers:
                await self._edit_day(ledger, event_id, edit)

    async def _edit_day(
        self,
        ledger: Document,
        event_id: str,
        edit: Callable[[str, list[Document]], list[Document]],
    ) -> None:
        for _ in range(ROUNDS):
            mine = [e for e in ledger["entries"] if e["event_id"] == event_id]
            if not mine:
                return
            entries = [e for e in ledger["entries"] if e["event_id"] != event_id]
            entries.extend(edit(ledger["day"], mine))
            result = await self._ledgers.update_one(
                {"_id": ledger["_id"], "version": ledger["version"]},
                {"$set": {"entries": entries}, "$inc": {"version": 1}},
            )
            if result.modified_count:
                return
            ledger = await self._ledgers.find_one({"_id": ledger["_id"]}) or {"entries": []}
        raise CalendarUnavailableError("The calendar's holds kept changing; retry the write.")

    async def expired(self, now: datetime, limit: int) -> list[Hold]:
        with translated_errors("holds_expired"):
            ledgers = await self._ledgers.find(
                {"entries": {"$elemMatch": {"writing": True, "lease_until": {"$lt": now}}}}
            ).to_list(limit * 4)
        found: dict[tuple[str, str], Hold] = {}
        for ledger in ledgers:
            for entry in ledger["entries"]:
                hold = _hold(ledger["calendar_id"], entry)
                if hold.writing and hold.lease_until is not None and hold.lease_until < now:
                    found.setdefault((hold.calendar_id, hold.event_id), hold)
        return list(found.values())[:limit]

    async def of_calendar(self, calendar_id: str) -> list[Hold]:
        with translated_errors("holds_of_calendar"):
            ledgers = await self._ledgers.find({"calendar_id": calendar_id}).to_list(None)
        unique = {
            (hold.event_id, hold.claim, hold.start, hold.end, hold.writing): hold
            for ledger in ledgers
            for hold in (_hold(calendar_id, entry) for entry in ledger["entries"])
        }
        return list(unique.values())


def _entry(hold: Hold) -> Document:
    return {
        "event_id": hold.event_id,
        "owner": hold.owner,
        "start": hold.start,
        "end": hold.end,
        "writing": hold.writing,
        "lease_until": hold.lease_until,
        "claim": hold.claim,
        "create": hold.create,
    }


def _hold(calendar_id: str, entry: Document) -> Hold:
    return Hold(
        calendar_id=calendar_id,
        event_id=entry["event_id"],
        owner=entry.get("owner", ""),
        start=entry["start"],
        end=entry["end"],
        writing=bool(entry.get("writing")),
        lease_until=entry.get("lease_until"),
        claim=entry.get("claim", ""),
        create=bool(entry.get("create")),
    )
