"""The free/busy cache: TTL, invalidation by this service's writes, and the in-flight fence."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Sequence
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest

from agenda_kit.calendar.errors import CalendarUnavailableError
from agenda_kit.calendar.port import ConflictPolicy, EventDraft, FreeBusy, FreeBusyError, Interval
from calendar_service.application.caching import CachingCalendarAdapter
from tests.fakes.in_memory_calendar import InMemoryCalendar

START = datetime(2031, 1, 6, tzinfo=UTC)
END = START + timedelta(days=1)


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def draft(key: str) -> EventDraft:
    return EventDraft(
        calendar_id="ana",
        summary="s",
        description="",
        start=START + timedelta(hours=1),
        end=START + timedelta(hours=2),
        idempotency_key=key,
    )


async def test_answers_are_cached_until_the_ttl() -> None:
    inner, clock = InMemoryCalendar(), Clock()
    cache = CachingCalendarAdapter(inner, ttl_seconds=10, clock=clock)
    await cache.query_free_busy(["ana", "bia"], START, END)
    await cache.query_free_busy(["bia", "ana"], START, END)
    assert inner.free_busy_calls == 1
    assert (cache.hits, cache.misses) == (2, 2)
    clock.now = 11
    await cache.query_free_busy(["ana"], START, END)
    assert inner.free_busy_calls == 2


async def test_a_booking_is_applied_to_the_cache_of_that_calendar_only() -> None:
    inner = InMemoryCalendar()
    cache = CachingCalendarAdapter(inner, ttl_seconds=60)
    await cache.query_free_busy(["ana", "bia"], START, END)
    await cache.insert_event(draft("k"))
    (ana,) = await cache.query_free_busy(["ana"], START, END)
    assert ana.busy == (await inner.query_free_busy(["ana"], START, END))[0].busy
    assert len(ana.busy) == 1
    await cache.query_free_busy(["bia"], START, END)
    assert inner.free_busy_calls == 1 + 1  # + the direct check above


async def test_a_cancel_or_move_drops_that_calendar_only() -> None:
    inner = InMemoryCalendar()
    cache = CachingCalendarAdapter(inner, ttl_seconds=60)
    event, _ = await cache.insert_event(draft("k"))
    await cache.query_free_busy(["ana", "bia"], START, END)
    await cache.cancel_event("ana", event.event_id)
    (ana,) = await cache.query_free_busy(["ana"], START, END)
    await cache.query_free_busy(["bia"], START, END)
    assert ana.busy == ()
    assert inner.free_busy_calls == 2


async def test_a_failed_booking_leaves_the_calendar_out_of_the_cache() -> None:
    inner = InMemoryCalendar()
    cache = CachingCalendarAdapter(inner, ttl_seconds=60)
    await cache.query_free_busy(["ana"], START, END)
    inner.fail_with = CalendarUnavailableError("down")
    with pytest.raises(CalendarUnavailableError):
        await cache.insert_event(draft("k"))
    inner.fail_with = None
    await cache.query_free_busy(["ana"], START, END)
    assert inner.free_busy_calls == 2


async def test_one_miss_fetches_the_week_and_answers_every_range_in_it_exactly() -> None:
    inner = InMemoryCalendar()
    rng = random.Random(13)
    for n in range(40):
        at = START + timedelta(minutes=15 * rng.randrange(7 * 96))
        length = timedelta(minutes=15 * rng.randint(1, 12))
        overlapping = replace(draft(f"k{n}"), conflict_policy=ConflictPolicy.ALLOW_OVERLAP)
        await inner.insert_event(replace(overlapping, start=at, end=at + length))
    cache = CachingCalendarAdapter(inner, ttl_seconds=60, prefetch_days=7)
    await cache.query_free_busy(["ana"], START, END)
    for _ in range(200):
        lo = START + timedelta(minutes=rng.randrange(7 * 1440 - 1))
        hi = min(lo + timedelta(minutes=rng.randint(1, 3 * 1440)), START + timedelta(days=7))
        (cached,) = await cache.query_free_busy(["ana"], lo, hi)
        (direct,) = await inner.query_free_busy(["ana"], lo, hi)
        assert cached.busy == _joined(direct.busy), (lo, hi)
    assert inner.free_busy_calls == 1 + 200  # one for the cache, the rest are the direct checks


def _joined(busy: Sequence[Interval]) -> tuple[Interval, ...]:
    """Overlapping or touching intervals joined (free/busy answers are unions)."""
    merged: list[Interval] = []
    for interval in busy:
        if merged and interval.start <= merged[-1].end:
            interval = Interval(merged[-1].start, max(merged.pop().end, interval.end))
        merged.append(interval)
    return tuple(merged)


async def test_errors_are_not_cached() -> None:
    inner = InMemoryCalendar()
    cache = CachingCalendarAdapter(inner, ttl_seconds=60)
    (first,) = await cache.query_free_busy(["missing-x"], START, END)
    await cache.query_free_busy(["missing-x"], START, END)
    assert first.error is FreeBusyError.NOT_FOUND
    assert inner.free_busy_calls == 2


class SlowCalendar(InMemoryCalendar):
    """Answers free/busy only after ``release`` is set, to race a write against a read."""

    def __init__(self) -> None:
        super().__init__()
        self.release = asyncio.Event()
        self.answered = asyncio.Event()

    async def query_free_busy(
        self,
        calendar_ids: Sequence[str],
        start: datetime,
        end: datetime,
        *,
        fresh: bool = False,
    ) -> list[FreeBusy]:
        answer = await super().query_free_busy(calendar_ids, start, end, fresh=fresh)
        self.answered.set()
        await self.release.wait()
        return answer


async def test_a_read_racing_a_write_is_not_cached() -> None:
    inner = SlowCalendar()
    cache = CachingCalendarAdapter(inner, ttl_seconds=60)
    read = asyncio.create_task(cache.query_free_busy(["ana"], START, END))
    await inner.answered.wait()  # the backend answered; the answer is still on its way
    await cache.insert_event(draft("k"))
    inner.release.set()
    (stale,) = await read
    assert stale.busy == ()
    (fresh,) = await cache.query_free_busy(["ana"], START, END)
    assert len(fresh.busy) == 1


async def test_a_slot_answer_read_while_a_write_was_in_flight_is_never_current() -> None:
    inner = SlowCalendar()
    cache = CachingCalendarAdapter(inner, ttl_seconds=60)
    cache.clock = lambda: START - timedelta(days=1)
    reading = asyncio.create_task(cache.find_slots_versioned("ana", START, END, 60))
    await inner.answered.wait()
    await cache.insert_event(draft("k"))  # lands before the read answers
    inner.release.set()
    result, version = await reading
    assert START + timedelta(hours=1) in result.starts  # read before the write
    assert not cache.is_current(version)
    result, version = await cache.find_slots_versioned("ana", START, END, 60)
    assert START + timedelta(hours=1) not in result.starts
    assert cache.is_current(version)


async def test_a_slot_answer_stops_being_current_with_its_busy_time() -> None:
    inner, clock = InMemoryCalendar(), Clock()
    cache = CachingCalendarAdapter(inner, ttl_seconds=10, clock=clock)
    cache.clock = lambda: START - timedelta(days=1)
    _, version = await cache.find_slots_versioned("ana", START, END, 60)
    assert cache.is_current(version)
    clock.now = 11  # the free/busy answer it read expired
    assert not cache.is_current(version)
    _, version = await cache.find_slots_versioned("ana", START, END, 60)
    await cache.insert_event(draft("k"))  # any write to the calendar
    assert not cache.is_current(version)


async def test_questions_that_shared_one_cold_read_share_its_slot_answer() -> None:
    """With the cache off, identical questions in flight at once still share one backend read
    (singleflight) and then one slot computation: the same answer object and version."""
    inner = SlowCalendar()
    await inner.insert_event(draft("k"))
    cache = CachingCalendarAdapter(inner, ttl_seconds=0)
    cache.clock = lambda: START - timedelta(days=1)
    asks = [
        asyncio.ensure_future(cache.find_slots_versioned("ana", START, END, 60)) for _ in range(8)
    ]
    await inner.answered.wait()
    inner.release.set()

    answers = await asyncio.gather(*asks)

    assert inner.free_busy_calls == 1
    assert all(answer[0] is answers[0][0] and answer[1] is answers[0][1] for answer in answers)
    assert START + timedelta(hours=1) not in answers[0][0].starts
    assert len(answers[0][0].starts) == 23


async def test_a_slot_answer_is_reused_for_unchanged_busy_time_until_its_notice() -> None:
    inner = InMemoryCalendar()
    cache = CachingCalendarAdapter(inner, ttl_seconds=0)
    now = [START - timedelta(days=1)]
    cache.clock = lambda: now[0]
    first, version = await cache.find_slots_versioned("ana", START, END, 60)
    again, same = await cache.find_slots_versioned("ana", START, END, 60)  # a new (cold) read
    assert again is first  # of unchanged busy time: the same answer
    assert same is not version and same.busy == version.busy and same.busy is not version.busy
    await inner.insert_event(draft("k"))  # behind the cache's back: busy time changed
    changed, _ = await cache.find_slots_versioned("ana", START, END, 60)
    assert changed != first
    assert START + timedelta(hours=1) not in changed.starts

    _, version = await cache.find_slots_versioned("ana", START, END, 60)

    async def held(*args: object, **kwargs: object) -> list[FreeBusy]:
        return [version.busy]  # the very same free/busy answer again

    cache._backend.query_free_busy = held  # type: ignore[method-assign]
    now[0] = START + timedelta(minutes=30)  # past the first slot's notice: 00:00 is gone
    later, _ = await cache.find_slots_versioned("ana", START, END, 60)
    assert later is not changed
    assert later.starts[0] == START + timedelta(hours=2)
