"""Holds: which event takes which part of a calendar's time, in the calendar service's own
database — the store that makes create-if-free atomic (``guard.SlotGuard``).

Time is held per (calendar, UTC day): one ledger per day lists the ranges writes and events
take that day, and every change of a ledger is conditional on the version read, so of two
writers whose ranges overlap on a day the second sees the first (across replicas too).
Ranges are exact (no rounding to a grid), and an event costs one ledger per day it touches,
whatever its length.

Rules every ``HoldStore`` keeps:
- ``take`` adds the request's range to the ledgers of its days in ascending order, under a
  claim token, and stops at the first day where a range of another event overlaps it,
  reporting those holds. Like locks taken in one global order, this never lets concurrent
  writers of overlapping times block each other both: the one that gets the earliest day
  they share keeps going (the other stopped before it);
- ``settle`` records that the event lies at ``[start, end)``: its ranges become one held
  (not "writing") range on the days of that range, and leave every other day;
- ``release`` drops the ranges one claim added (a write refused for certain), or all of an
  event's (cancelled, gone);
- a range in flight is removed only by its own claim: given ``now``, ``settle`` and a
  ``release`` of every range keep the "writing" ranges of the event's other claims whose lease
  has not passed (a move of the event still under way keeps its new time against a
  description update, a replayed create, or another writer settling a stale hold);
- a "writing" range whose lease passed belongs to a write that died: ``expired`` lists them
  for the sweeper, which asks the provider what became of the event.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Protocol

_TICK = timedelta(microseconds=1)


def ledger_days(start: datetime, end: datetime) -> tuple[date, ...]:
    """The UTC days ``[start, end)`` touches, ascending (two overlapping ranges share one)."""
    first, last = start.astimezone(UTC).date(), (end - _TICK).astimezone(UTC).date()
    return tuple(first + timedelta(days=n) for n in range((last - first).days + 1))


@dataclass(frozen=True, slots=True, kw_only=True)
class Hold:
    """A range of a calendar's time held for one event (by the write ``claim`` while it is
    "writing", with a lease; by the event itself once settled)."""

    calendar_id: str
    event_id: str
    owner: str
    start: datetime
    end: datetime
    writing: bool
    lease_until: datetime | None
    claim: str = ""
    create: bool = False
    """Held by a create (whose late insert of an id already written is a no-op)."""

    def overlaps(self, start: datetime, end: datetime) -> bool:
        return self.start < end and start < self.end

    def in_flight(self, now: datetime) -> bool:
        """A write still running (its lease has not passed)."""
        return self.writing and self.lease_until is not None and self.lease_until > now


@dataclass(frozen=True, slots=True, kw_only=True)
class HoldRequest:
    """What a write asks to hold: ``[start, end)`` for ``event_id``, under ``claim``."""

    calendar_id: str
    event_id: str
    owner: str
    start: datetime
    end: datetime
    lease_until: datetime
    claim: str
    create: bool = False

    def hold(self) -> Hold:
        return Hold(
            calendar_id=self.calendar_id,
            event_id=self.event_id,
            owner=self.owner,
            start=self.start,
            end=self.end,
            writing=True,
            lease_until=self.lease_until,
            claim=self.claim,
            create=self.create,
        )


@dataclass(frozen=True, slots=True)
class Taken:
    """The outcome of ``take``: the holds of other events it stopped at (none: the whole
    range is now held for the event)."""

    others: tuple[Hold, ...] = ()


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
        claim: str = "",
        now: datetime | None = None,
        creating: bool = False,
    ) -> None:
        """The event lies at ``[start, end)`` (written by ``claim``, if a write's; by a
        create, ``creating``); with ``now``, other claims' ranges in flight are kept."""
        ...

    async def release(
        self,
        calendar_id: str,
        event_id: str,
        claim: str | None = None,
        *,
        now: datetime | None = None,
    ) -> None:
        """Drop the ranges ``claim`` added (None: every range of the event, but, with
        ``now``, those of a write still in flight)."""
        ...

    async def expired(self, now: datetime, limit: int) -> list[Hold]:
        """One "writing" range per event whose lease passed before ``now``."""
        ...

    async def of_calendar(self, calendar_id: str) -> list[Hold]:
        """Every range held on a calendar, once each (operators and tests)."""
        ...


def kept_in_flight(
    hold: Hold,
    claim: str | None,
    now: datetime | None,
    settled: tuple[datetime, datetime] | None = None,
) -> bool:
    """Whether a settle or release by ``claim`` at ``now`` keeps ``hold`` of the same event:
    another claim's write still in flight; when a create settles (``settled``: its range),
    not another create's over that very range (a create retried after an unknown outcome:
    the first attempt's event is this one, and its late insert a no-op). A move's range is
    kept whatever it is: a late move lands."""
    if now is None or hold.claim == claim or not hold.in_flight(now):
        return False
    same = settled is not None and (_ms(hold.start), _ms(hold.end)) == tuple(map(_ms, settled))
    return not (same and hold.create)


def _ms(instant: datetime) -> datetime:
    """An instant as a store keeps it: UTC, to the millisecond (naive ones are UTC)."""
    aware = instant if instant.tzinfo is not None else instant.replace(tzinfo=UTC)
    utc = aware.astimezone(UTC)
    return utc.replace(microsecond=utc.microsecond // 1000 * 1000)
