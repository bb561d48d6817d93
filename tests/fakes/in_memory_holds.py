"""A hand-written fake ``HoldStore``: holds in a dict keyed by (calendar, unit), the same
rules as ``MongoHoldStore`` (one event per unit; take / settle / release / expired)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime

from calendar_service.application.holds import Hold, HoldRequest, Taken, hold_units


class InMemoryHolds:
    def __init__(self) -> None:
        self.holds: dict[tuple[str, datetime], Hold] = {}

    async def take(self, request: HoldRequest) -> Taken:
        new: list[datetime] = []
        for unit in request.units:  # ascending; stop at the first unit of another event
            held = self.holds.get((request.calendar_id, unit))
            if held is not None and held.event_id != request.event_id:
                return Taken(tuple(new), (held,))
            if held is None:
                self.holds[(request.calendar_id, unit)] = Hold(
                    calendar_id=request.calendar_id,
                    unit=unit,
                    event_id=request.event_id,
                    owner=request.owner,
                    writing=True,
                    lease_until=request.lease_until,
                    start=request.start,
                    end=request.end,
                )
                new.append(unit)
        return Taken(tuple(new), ())

    async def settle(
        self,
        calendar_id: str,
        event_id: str,
        start: datetime,
        end: datetime,
        *,
        prune: bool = True,
    ) -> None:
        keep = set(hold_units(start, end))
        for key, hold in list(self.holds.items()):
            if (hold.calendar_id, hold.event_id) != (calendar_id, event_id):
                continue
            if hold.unit not in keep:
                del self.holds[key]
            else:
                self.holds[key] = replace(
                    hold, writing=False, lease_until=None, start=start, end=end
                )

    async def release(
        self, calendar_id: str, event_id: str, units: Sequence[datetime] | None = None
    ) -> None:
        chosen = None if units is None else set(units)
        for key, hold in list(self.holds.items()):
            if (hold.calendar_id, hold.event_id) == (calendar_id, event_id) and (
                chosen is None or hold.unit in chosen
            ):
                del self.holds[key]

    async def expired(self, now: datetime, limit: int) -> list[Hold]:
        first: dict[tuple[str, str], Hold] = {}
        for hold in self.holds.values():
            if hold.writing and hold.lease_until is not None and hold.lease_until < now:
                first.setdefault((hold.calendar_id, hold.event_id), hold)
        return list(first.values())[:limit]

    async def of_calendar(self, calendar_id: str) -> list[Hold]:
        return [hold for hold in self.holds.values() if hold.calendar_id == calendar_id]
