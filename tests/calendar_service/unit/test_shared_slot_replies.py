"""GetFreeSlots with the free/busy cache off (every question reads the backend): identical
questions in flight at once share one read, one slot computation and one reply; a question
asked after a write reads, computes and answers anew."""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta
from typing import Any, cast

from agenda.calendar.v1 import calendar_service_pb2 as pb
from agenda_kit.calendar.port import EventDraft
from calendar_service.application.caching import CachingCalendarAdapter
from calendar_service.application.guard import SlotGuard
from calendar_service.bootstrap import build_use_cases
from calendar_service.infrastructure.grpc.servicer import CalendarServicer
from tests.calendar_service.integration.test_servicer import MONDAY, slots_request
from tests.calendar_service.unit.test_caching import SlowCalendar
from tests.fakes.in_memory_holds import InMemoryHolds


async def book_hour(cache: CachingCalendarAdapter, start: datetime) -> None:
    """An hour of Ana's booked through the service (``cache``), from ``start``."""
    end = start + timedelta(hours=1)
    draft = EventDraft(
        calendar_id="ana", summary="s", description="", start=start, end=end, idempotency_key="k"
    )
    await cache.insert_event(draft)


async def test_identical_cold_questions_in_flight_share_one_reply(computed: list[datetime]) -> None:
    backend = SlowCalendar()
    cache = CachingCalendarAdapter(backend, ttl_seconds=0)
    cache.clock = lambda: MONDAY - timedelta(days=7)
    servicer = CalendarServicer(build_use_cases(cache, SlotGuard(cache, InMemoryHolds())))
    context = cast(Any, None)

    asks = [
        asyncio.ensure_future(servicer.GetFreeSlots(slots_request(), context)) for _ in range(6)
    ]
    await backend.answered.wait()
    backend.release.set()
    replies = await asyncio.gather(*asks)

    assert backend.free_busy_calls == 1
    assert len(computed) == 1
    assert all(reply is replies[0] for reply in replies)
    assert len(replies[0].slot_starts) == 3

    await book_hour(cache, MONDAY + timedelta(hours=13))
    after: pb.GetFreeSlotsResponse = await servicer.GetFreeSlots(slots_request(), context)
    assert backend.free_busy_calls == 2
    assert len(computed) == 2
    assert len(after.slot_starts) == 2


async def test_a_cold_answer_equal_to_the_kept_one_reuses_its_reply() -> None:
    backend = SlowCalendar()
    backend.release.set()
    cache = CachingCalendarAdapter(backend, ttl_seconds=0)
    cache.clock = lambda: MONDAY - timedelta(days=7)
    servicer = CalendarServicer(build_use_cases(cache, SlotGuard(cache, InMemoryHolds())))
    context = cast(Any, None)

    first = await servicer.GetFreeSlots(slots_request(), context)
    second = await servicer.GetFreeSlots(slots_request(), context)  # read and computed again
    assert backend.free_busy_calls == 2
    assert second is first

    await book_hour(cache, MONDAY + timedelta(hours=12))
    third = await servicer.GetFreeSlots(slots_request(), context)
    assert third is not first
    assert [s.seconds for s in third.slot_starts] == [s.seconds for s in first.slot_starts][1:]
    fresh = await servicer.GetFreeSlots(slots_request(read_mode=pb.READ_MODE_FRESH), context)
    assert fresh is not third and fresh == third
