"""Busy time kept per (calendar, UTC day): the free/busy cache's store.

One backend answer over a wide window (a week) fills many day blocks, so later questions
about other days or other ranges of that calendar are answered without the backend. A
question's answer is the union of its days' blocks clipped to its range, exactly what the
backend would have answered (free/busy is a union of busy intervals, so it splits by day and
joins again). Each block expires ``ttl`` seconds after it was fetched; a block kept longer
(a calendar whose changes are pushed) is only used past ``ttl`` while ``confirmed`` says a
push notification of that calendar arrived recently (the staleness bound).

Write fencing (as ``agenda_kit.resilience.FencedCache``): every write to a calendar moves
its generation; a load that took its ``fence`` before that is not stored. A write through
the service takes the calendar's blocks out while it runs and, when it inserted a busy
event, puts them back with the event's time added (``restore``), so the next question is
still answered from the cache; any other outcome leaves them out.

Meant for one asyncio event loop: no method awaits.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta

from agenda_kit.calendar.port import FreeBusy, Interval
from agenda_kit.resilience import Fence

DAY = timedelta(days=1)
_TICK = timedelta(microseconds=1)
DayKey = tuple[str, date]
AnswerKey = tuple[str, datetime, datetime]


@dataclass(frozen=True, slots=True, eq=False)
class Block:
    """One calendar's busy time on one UTC day (clipped to it, sorted, disjoint)."""

    busy: tuple[Interval, ...]
    expires: float
    confirm_after: float | None = None
    """Past this instant (the plain TTL), the block needs a recent notification to be used."""


@dataclass(frozen=True, slots=True)
class Taken:
    """A calendar's blocks held out of the cache while a write runs."""

    calendar_id: str
    generation: int
    blocks: dict[date, Block]


def midnight(day: date) -> datetime:
    """The UTC instant a day starts."""
    return datetime(day.year, day.month, day.day, tzinfo=UTC)


def days_of(start: datetime, end: datetime) -> list[date]:
    """The UTC days ``[start, end)`` touches (``end > start``)."""
    first, last = start.astimezone(UTC).date(), (end - _TICK).astimezone(UTC).date()
    return [first + timedelta(days=n) for n in range((last - first).days + 1)]


def clipped(busy: Iterable[Interval], start: datetime, end: datetime) -> tuple[Interval, ...]:
    """The parts of ``busy`` (sorted by start) inside ``[start, end)``, overlapping or
    touching parts joined."""
    parts: list[Interval] = []
    for interval in busy:
        if interval.end <= start or interval.start >= end:
            continue
        low, high = max(interval.start, start), min(interval.end, end)
        if parts and low <= parts[-1].end:
            last = parts.pop()
            low, high = last.start, max(last.end, high)
        parts.append(Interval(low, high))
    return tuple(parts)


def with_interval(busy: tuple[Interval, ...], added: Interval) -> tuple[Interval, ...]:
    """``busy ∪ added``, sorted and disjoint."""
    merged: list[Interval] = []
    for interval in sorted((*busy, added), key=lambda i: i.start):
        if merged and interval.start <= merged[-1].end:
            last = merged.pop()
            interval = Interval(last.start, max(last.end, interval.end))
        merged.append(interval)
    return tuple(merged)


class BusyBlocks:
    """At most ``max_blocks`` day blocks (the oldest stored go first) and the answers last
    assembled from them (reused while built from the very same blocks)."""

    def __init__(
        self,
        ttl: float,
        *,
        max_blocks: int = 100_000,
        clock: Callable[[], float] = time.monotonic,
        confirmed: Callable[[str], bool] = lambda _calendar_id: False,
    ) -> None:
        if ttl < 0 or max_blocks < 1:
            raise ValueError("ttl must be >= 0 and max_blocks >= 1")
        self.ttl = ttl
        self.max_blocks = max_blocks
        self.clock = clock
        self.confirmed = confirmed
        """Whether a notification of the calendar arrived within the plain TTL (a live push
        channel): only then is a block used past its plain TTL."""
        self._blocks: dict[DayKey, Block] = {}
        self._days: dict[str, set[date]] = {}
        self._generations: dict[str, int] = {}
        self._answers: dict[AnswerKey, tuple[tuple[Block, ...], FreeBusy]] = {}

    def __len__(self) -> int:
        return len(self._blocks)

    def fence(self, calendar_ids: Iterable[str]) -> Fence:
        """The generations of ``calendar_ids`` now; pass it to ``store``."""
        return tuple((cid, self._generations.get(cid, 0)) for cid in calendar_ids)

    def answer(self, calendar_id: str, start: datetime, end: datetime) -> FreeBusy | None:
        """The busy time of ``[start, end)`` from unexpired blocks, else None. The same
        blocks give the same ``FreeBusy`` object (callers compare answers by identity)."""
        blocks = self._unexpired(calendar_id, days_of(start, end))
        if blocks is None:
            return None
        key = (calendar_id, start, end)
        memo = self._answers.get(key)
        if memo is not None and all(a is b for a, b in zip(memo[0], blocks, strict=True)):
            return memo[1]
        busy = clipped((i for block in blocks for i in block.busy), start, end)
        answer = FreeBusy(calendar_id=calendar_id, busy=busy)
        self._answers.pop(key, None)
        if len(self._answers) >= self.max_blocks:
            del self._answers[next(iter(self._answers))]
        self._answers[key] = (blocks, answer)
        return answer

    def store(
        self,
        answer: FreeBusy,
        start: datetime,
        end: datetime,
        fence: Fence,
        *,
        ttl: float | None = None,
    ) -> bool:
        """Keep an error-free answer over the whole UTC days ``[start, end)`` for ``ttl``
        seconds (None: the cache's) unless a write to its calendar moved the generation
        since ``fence`` was taken."""
        cid = answer.calendar_id
        if answer.error is not None or self.ttl == 0:
            return False
        if any(self._generations.get(tag, 0) != seen for tag, seen in fence if tag == cid):
            return False
        now = self.clock()
        expires = now + (self.ttl if ttl is None else ttl)
        confirm_after = now + self.ttl if expires > now + self.ttl else None
        for day in days_of(start, end):
            lo = midnight(day)
            busy = clipped(answer.busy, lo, lo + DAY)
            self._put((cid, day), Block(busy, expires, confirm_after))
        return True

    def take(self, calendar_id: str) -> Taken:
        """Move the calendar's generation and hold its blocks out (a write begins)."""
        generation = self._bump(calendar_id)
        days = self._days.pop(calendar_id, set())
        blocks = {day: self._blocks.pop((calendar_id, day)) for day in days}
        return Taken(calendar_id, generation, blocks)

    def invalidate(self, calendar_id: str) -> None:
        """Forget the calendar's blocks and fence its loads in flight."""
        self.take(calendar_id)

    def restore(self, taken: Taken, added: Interval) -> None:
        """A write that made ``added`` busy has ended: fence the loads that ran meanwhile and
        put the held blocks back with ``added`` in them, unless another write or
        invalidation of the calendar happened since ``take`` (then they stay out)."""
        cid = taken.calendar_id
        unchanged = self._generations.get(cid, 0) == taken.generation
        self.take(cid)  # what was stored during the write may predate it
        if not unchanged:
            return
        now = self.clock()
        for day, block in taken.blocks.items():
            if block.expires <= now:
                continue
            lo = midnight(day)
            busy = block.busy
            if added.start < lo + DAY and added.end > lo:
                busy = with_interval(busy, Interval(max(added.start, lo), min(added.end, lo + DAY)))
            self._put((cid, day), Block(busy, block.expires, block.confirm_after))

    def _unexpired(self, calendar_id: str, days: Sequence[date]) -> tuple[Block, ...] | None:
        now = self.clock()
        found = []
        for day in days:
            block = self._blocks.get((calendar_id, day))
            if block is None or block.expires <= now:
                return None
            unconfirmed = block.confirm_after is not None and block.confirm_after <= now
            if unconfirmed and not self.confirmed(calendar_id):
                return None
            found.append(block)
        return tuple(found)

    def _put(self, key: DayKey, block: Block) -> None:
        self._blocks.pop(key, None)
        while len(self._blocks) >= self.max_blocks:
            oldest = next(iter(self._blocks))
            del self._blocks[oldest]
            self._days.get(oldest[0], set()).discard(oldest[1])
        self._blocks[key] = block
        self._days.setdefault(key[0], set()).add(key[1])

    def _bump(self, calendar_id: str) -> int:
        generation = self._generations.get(calendar_id, 0) + 1
        self._generations[calendar_id] = generation
        return generation
