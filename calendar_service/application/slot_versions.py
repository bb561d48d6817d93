"""What a free-slot answer was computed from, so a finished reply can be reused exactly while
that input is unchanged (see ``CachingCalendarAdapter.is_current``)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from agenda_kit.calendar.port import FreeBusy
from calendar_service.domain.slot_intervals import minute_to_datetime
from calendar_service.domain.slots import SlotResult

BusyKey = tuple[str, datetime, datetime]
"""The calendar and range of the free/busy read a free-slot answer was computed from."""


@dataclass(frozen=True, slots=True, eq=False)
class SlotsVersion:
    """A free-slot answer's inputs besides the query: the cached free/busy answer it read
    (``busy``, by identity, under ``busy_key``) and the clock.

    Business rule: the minimum notice only drops slots starting before ``now + notice``, on
    a grid that does not move with ``now``; so the same answer holds for every later ``now``
    up to ``good_until`` (its first slot minus the notice; None: no slot, any later ``now``).
    """

    busy_key: BusyKey
    busy: FreeBusy
    computed_at: datetime
    good_until: datetime | None

    def holds_at(self, now: datetime) -> bool:
        """Whether the answer computed at ``computed_at`` is the answer at ``now`` too."""
        if now < self.computed_at:
            return False
        return self.good_until is None or now <= self.good_until


def version_of(
    busy_key: BusyKey,
    busy: FreeBusy,
    result: SlotResult,
    now: datetime,
    notice_minutes: int,
) -> SlotsVersion:
    """The version of ``result``, computed at ``now`` from ``busy``."""
    first = minute_to_datetime(result.minutes[0]) if result.minutes else None
    good_until = None if first is None else first - timedelta(minutes=notice_minutes)
    return SlotsVersion(busy_key, busy, now, good_until)
