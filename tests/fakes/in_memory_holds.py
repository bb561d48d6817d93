"""A hand-written fake ``HoldStore``: held ranges in a list per calendar, the same rules as
``MongoHoldStore`` (a range of another event overlapping stops ``take``; settle / release /
expired); every method is atomic (no await inside)."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

from calendar_service.application.holds import Hold, HoldRequest, Taken, kept_in_flight


class InMemoryHolds:
    def __init__(self) -> None:
        self.ranges: dict[str, list[Hold]] = {}

    @property
    def holds(self) -> list[Hold]:
        """Every range held, on every calendar."""
        return [hold for ranges in self.ranges.values() for hold in ranges]

    async def take(self, request: HoldRequest) -> Taken:
        ranges = self.ranges.setdefault(request.calendar_id, [])
        others = tuple(
            hold
            for hold in ranges
            if hold.event_id != request.event_id and hold.overlaps(request.start, request.end)
        )
        if others:
            return Taken(others)
        if not any(hold.claim == request.claim for hold in ranges):
            ranges.append(request.hold())
        return Taken()

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
        ranges = self.ranges.get(calendar_id, [])
        settled = (start, end) if creating else None
        mine = [hold for hold in ranges if hold.event_id == event_id]
        if not mine:
            return
        held = replace(
            mine[0], start=start, end=end, writing=False, lease_until=None, claim="", create=False
        )
        flying = [hold for hold in mine if kept_in_flight(hold, claim, now, settled)]
        self.ranges[calendar_id] = [h for h in ranges if h.event_id != event_id] + flying + [held]

    async def release(
        self,
        calendar_id: str,
        event_id: str,
        claim: str | None = None,
        *,
        now: datetime | None = None,
    ) -> None:
        self.ranges[calendar_id] = [
            hold
            for hold in self.ranges.get(calendar_id, [])
            if hold.event_id != event_id
            or (claim is not None and hold.claim != claim)
            or (claim is None and kept_in_flight(hold, claim, now))
        ]

    async def expired(self, now: datetime, limit: int) -> list[Hold]:
        first: dict[tuple[str, str], Hold] = {}
        for hold in self.holds:
            if hold.writing and hold.lease_until is not None and hold.lease_until < now:
                first.setdefault((hold.calendar_id, hold.event_id), hold)
        return list(first.values())[:limit]

    async def of_calendar(self, calendar_id: str) -> list[Hold]:
        return list(self.ranges.get(calendar_id, []))
