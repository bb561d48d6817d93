"""Item 10c: identical concurrent free/busy reads share one Google call (singleflight), as the
service wires it: ``CachingCalendarAdapter`` over ``GoogleCalendarAdapter`` over the emulator."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

import pytest

from agenda_kit.calendar.port import EventDraft, Interval
from calendar_service.application.caching import CachingCalendarAdapter
from calendar_service.infrastructure.google import GoogleCalendarAdapter
from tests.fakes.google_calendar import Emulator
from tests.fakes.google_faults import Fault
from tests.fakes.google_fixtures import CALENDAR_ID

FREE_BUSY = "freeBusy"
MONDAY = datetime(2031, 3, 3, tzinfo=UTC)
DAY = (MONDAY, MONDAY + timedelta(days=1))


async def test_twenty_identical_concurrent_reads_make_one_google_call(
    adapter: GoogleCalendarAdapter, emulator: Emulator
) -> None:
    cache = CachingCalendarAdapter(adapter, ttl_seconds=15)
    gate = emulator.faults.hold(FREE_BUSY)
    reads = [asyncio.ensure_future(cache.query_free_busy([CALENDAR_ID], *DAY)) for _ in range(20)]
    await emulator.faults.arrived(FREE_BUSY).wait()  # every read has started by now
    gate.set()

    answers = await asyncio.gather(*reads)

    assert emulator.faults.count(FREE_BUSY) == 1
    assert cache.coalesced == 19
    assert all(answer == answers[0] for answer in answers)


async def test_identical_free_slot_questions_share_the_call_too(
    adapter: GoogleCalendarAdapter, emulator: Emulator
) -> None:
    cache = CachingCalendarAdapter(adapter, ttl_seconds=15)
    cache.clock = lambda: MONDAY - timedelta(days=7)  # "now" for the notice: not the real clock
    gate = emulator.faults.hold(FREE_BUSY)
    asks = [asyncio.ensure_future(cache.get_free_slots(CALENDAR_ID, *DAY, 60)) for _ in range(20)]
    await emulator.faults.arrived(FREE_BUSY).wait()
    gate.set()

    slots = await asyncio.gather(*asks)

    assert emulator.faults.count(FREE_BUSY) == 1
    assert all(len(found) == 24 for found in slots)


async def test_a_read_after_a_write_does_not_join_the_older_flight(
    adapter: GoogleCalendarAdapter, emulator: Emulator
) -> None:
    cache = CachingCalendarAdapter(adapter, ttl_seconds=15)
    gate = emulator.faults.hold(FREE_BUSY)
    before = asyncio.ensure_future(cache.query_free_busy([CALENDAR_ID], *DAY))
    await emulator.faults.arrived(FREE_BUSY).wait()
    start = MONDAY + timedelta(hours=10)
    await cache.insert_event(
        EventDraft(
            calendar_id=CALENDAR_ID,
            summary="x",
            description="",
            start=start,
            end=start + timedelta(hours=1),
            idempotency_key="written-meanwhile",
        )
    )
    after = asyncio.ensure_future(cache.query_free_busy([CALENDAR_ID], *DAY))
    gate.set()

    await before
    (seen,) = await after
    assert seen.busy == (Interval(start, start + timedelta(hours=1)),)
    assert cache.coalesced == 0
    assert emulator.faults.count(FREE_BUSY) == 2


async def test_fresh_reads_never_join_a_flight(
    adapter: GoogleCalendarAdapter, emulator: Emulator
) -> None:
    cache = CachingCalendarAdapter(adapter, ttl_seconds=15)
    gate = emulator.faults.hold(FREE_BUSY)
    cached = asyncio.ensure_future(cache.query_free_busy([CALENDAR_ID], *DAY))
    await emulator.faults.arrived(FREE_BUSY).wait()
    fresh = asyncio.ensure_future(cache.query_free_busy([CALENDAR_ID], *DAY, fresh=True))
    await asyncio.sleep(0)
    gate.set()

    await asyncio.gather(cached, fresh)
    assert emulator.faults.count(FREE_BUSY) == 2
    assert cache.coalesced == 0


async def test_a_failed_flight_fails_every_joiner_and_is_not_remembered(
    adapter: GoogleCalendarAdapter, emulator: Emulator
) -> None:
    cache = CachingCalendarAdapter(adapter, ttl_seconds=15)
    emulator.faults.fail_always(FREE_BUSY, Fault.error(404, "notFound"))
    gate = emulator.faults.hold(FREE_BUSY)
    reads = [asyncio.ensure_future(cache.query_free_busy([CALENDAR_ID], *DAY)) for _ in range(5)]
    await emulator.faults.arrived(FREE_BUSY).wait()
    gate.set()

    outcomes = await asyncio.gather(*reads, return_exceptions=True)
    assert all(isinstance(outcome, Exception) for outcome in outcomes)
    emulator.faults.clear()
    (answer,) = await cache.query_free_busy([CALENDAR_ID], *DAY)
    assert answer.error is None
    assert emulator.faults.count(FREE_BUSY) == 2


async def test_a_cancelled_first_caller_does_not_cancel_the_others(
    adapter: GoogleCalendarAdapter, emulator: Emulator
) -> None:
    cache = CachingCalendarAdapter(adapter, ttl_seconds=15)
    gate = emulator.faults.hold(FREE_BUSY)
    first = asyncio.ensure_future(cache.query_free_busy([CALENDAR_ID], *DAY))
    second = asyncio.ensure_future(cache.query_free_busy([CALENDAR_ID], *DAY))
    await emulator.faults.arrived(FREE_BUSY).wait()
    first.cancel()
    with pytest.raises(asyncio.CancelledError):
        await first
    gate.set()

    (answer,) = await second
    assert answer.busy == ()
    assert emulator.faults.count(FREE_BUSY) == 1
