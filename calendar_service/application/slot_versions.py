"""What a free-slot answer was computed from, so a finished reply can be reused exactly while
that input is unchanged (see ``CachingCalendarAdapter.is_current``)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from agenda_kit.calendar.port import FreeBusy
from calendar_service.domain.slot_intervals import minute_to_datetime
from calendar_service.domain.slots import SlotQuery, SlotResult

BusyKey = tuple[str, datetime, datetime]
"""The calendar and range of the free/busy read a free-slot answer was computed from."""
SHARED_ANSWERS = 256
"""Slot answers ``SharedAnswers`` keeps (the oldest stored go first)."""


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


SlotAnswer = tuple[SlotResult, SlotsVersion]


class SharedAnswers:
    """The last free-slot answer per (busy key, query), handed to a later computation of the
    same question only when the answer ``holds_at`` its clock and it read the same busy
    time: then it is exactly the answer that computation would make (a slot answer is a
    function of the query, the busy time and the clock). The very same free/busy object
    (questions that shared one backend read, or the same cached days) gets the kept answer;
    an equal one (a later read of unchanged busy time) gets its result under a version of
    its own object, so ``is_current`` keeps comparing by identity."""

    def __init__(self, max_entries: int = SHARED_ANSWERS) -> None:
        self.max_entries = max_entries
        self._answers: dict[tuple[BusyKey, SlotQuery], SlotAnswer] = {}

    def get(
        self, busy_key: BusyKey, query: SlotQuery, busy: FreeBusy, now: datetime
    ) -> SlotAnswer | None:
        key = (busy_key, query)
        kept = self._answers.get(key)
        if kept is None or not kept[1].holds_at(now):
            return None
        result, version = kept
        if version.busy is busy:
            return kept
        if version.busy != busy:
            return None
        answer = result, SlotsVersion(busy_key, busy, version.computed_at, version.good_until)
        self._answers[key] = answer
        return answer

    def put(self, busy_key: BusyKey, query: SlotQuery, answer: SlotAnswer) -> SlotAnswer:
        key = (busy_key, query)
        self._answers.pop(key, None)
        if len(self._answers) >= self.max_entries:
            del self._answers[next(iter(self._answers))]
        self._answers[key] = answer
        return answer
