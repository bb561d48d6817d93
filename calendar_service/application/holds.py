"""Holds: which event takes which 5-minute unit of a calendar's time, in the calendar
service's own database — the store that makes create-if-free atomic (``guard.SlotGuard``).

Rules every ``HoldStore`` keeps:
- a unit of a calendar is held by at most one event (a unique index, across replicas);
- ``take`` holds the units in ascending order ("writing", with a lease), skipping those the
  same event already holds, and stops at the first unit another event holds, reporting that
  hold. Like locks taken in one global order, this makes concurrent writers of overlapping
  times never block each other both: the one that gets the lowest unit they share keeps
  going (the other stopped below it and holds nothing the first one needs);
- ``settle`` records that the event now lies at ``[start, end)``: its holds stop "writing",
  and those outside that range are dropped; ``release`` drops them (all, or some units);
- a "writing" hold whose lease passed belongs to a write that died: ``expired`` lists them
  for the sweeper, which asks the provider what became of the event.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Protocol

HOLD_UNIT = timedelta(minutes=5)
"""Holds cover whole units: two events sharing a unit conflict even if they only touch it
(events on 5-minute boundaries never share one unless they overlap)."""
_EPOCH = datetime(2000, 1, 1, tzinfo=UTC)


def hold_units(start: datetime, end: datetime) -> tuple[datetime, ...]:
    """The units ``[start, end)`` touches; two overlapping ranges share at least one."""
    first = _EPOCH + ((start - _EPOCH) // HOLD_UNIT) * HOLD_UNIT
    count = -(-(end - first) // HOLD_UNIT)
    return tuple(first + n * HOLD_UNIT for n in range(max(count, 0)))


@dataclass(frozen=True, slots=True, kw_only=True)
class Hold:
    """One unit held by one event (``start``/``end``: the event's range when it was taken)."""

    calendar_id: str
    unit: datetime
    event_id: str
    owner: str
    writing: bool
    lease_until: datetime | None
    start: datetime
    end: datetime

    def in_flight(self, now: datetime) -> bool:
        """A write still running (its lease has not passed)."""
        return self.writing and self.lease_until is not None and self.lease_until > now


@dataclass(frozen=True, slots=True, kw_only=True)
class HoldRequest:
    """What a write asks to hold: the units of ``[start, end)`` for ``event_id``."""

    calendar_id: str
    event_id: str
    owner: str
    start: datetime
    end: datetime
    lease_until: datetime

    @property
    def units(self) -> tuple[datetime, ...]:
        return hold_units(self.start, self.end)


@dataclass(frozen=True, slots=True)
class Taken:
    """The outcome of ``take``: units newly held for the event, and the hold of another
    event it stopped at (none: every unit is now the event's)."""

    new_units: tuple[datetime, ...]
    others: tuple[Hold, ...]


class HoldStore(Protocol):
    """Where holds live (see the module's rules)."""

    async def take(self, request: HoldRequest) -> Taken: ...

    async def settle(
        self,
        calendar_id: str,
        event_id: str,
        start: datetime,
        end: datetime,
        *,
        prune: bool = True,
    ) -> None:
        """``prune=False``: the event holds exactly the units of ``[start, end)`` already
        (a create): only their "writing" state ends."""
        ...

    async def release(
        self, calendar_id: str, event_id: str, units: Sequence[datetime] | None = None
    ) -> None: ...

    async def expired(self, now: datetime, limit: int) -> list[Hold]:
        """One "writing" hold per event whose lease passed before ``now``."""
        ...

    async def of_calendar(self, calendar_id: str) -> list[Hold]:
        """Every hold of a calendar (operators and tests)."""
        ...
