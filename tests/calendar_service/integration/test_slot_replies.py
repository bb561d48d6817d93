"""GetFreeSlots reuses a finished reply only while it is exactly the answer (real gRPC server,
fake backend): a write, a fresh read, or the clock passing the minimum notice of its first
slot makes the next identical request compute again."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from agenda.calendar.v1 import calendar_service_pb2 as pb
from agenda.calendar.v1 import calendar_service_pb2_grpc as pb_grpc
from agenda_kit.calendar.port import EventDraft
from calendar_service.bootstrap import CalendarApp
from calendar_service.infrastructure.grpc.mappers import time_range
from tests.calendar_service.integration.test_servicer import MONDAY, event_request, slots_request
from tests.conftest import AUTH
from tests.fakes.in_memory_calendar import InMemoryCalendar

EVERY_HOUR = [MONDAY + timedelta(hours=h) for h in (12, 13, 14)]  # 09-12 in Sao Paulo


class Clock:
    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture
def clock(calendar_app: CalendarApp) -> Clock:
    clock = Clock(MONDAY - timedelta(days=7))  # never the real clock
    calendar_app.calendar.clock = clock
    return clock


def starts(reply: pb.GetFreeSlotsResponse) -> list[datetime]:
    return [s.ToDatetime(tzinfo=UTC) for s in reply.slot_starts]


async def slots(stub: pb_grpc.CalendarServiceAsyncStub, **overrides: object) -> list[datetime]:
    return starts(await stub.GetFreeSlots(slots_request(**overrides), metadata=AUTH))


async def test_an_identical_request_reuses_the_reply(
    calendar_stub: pb_grpc.CalendarServiceAsyncStub, clock: Clock, computed: list[datetime]
) -> None:
    assert await slots(calendar_stub) == EVERY_HOUR
    assert await slots(calendar_stub) == EVERY_HOUR
    assert len(computed) == 1
    assert await slots(calendar_stub, duration_minutes=30) != EVERY_HOUR  # another request
    assert len(computed) == 2


async def test_every_write_is_seen_by_the_next_identical_request(
    calendar_stub: pb_grpc.CalendarServiceAsyncStub, clock: Clock, computed: list[datetime]
) -> None:
    assert await slots(calendar_stub) == EVERY_HOUR
    created = await calendar_stub.CreateEvent(event_request(hour=13), metadata=AUTH)
    event_id = created.event.event_id
    assert await slots(calendar_stub) == [EVERY_HOUR[0], EVERY_HOUR[2]]

    start = MONDAY + timedelta(hours=14)
    await calendar_stub.MoveEvent(
        pb.MoveEventRequest(
            calendar_id="ana", event_id=event_id, time=time_range(start, start + timedelta(hours=1))
        ),
        metadata=AUTH,
    )
    assert await slots(calendar_stub) == EVERY_HOUR[:2]

    await calendar_stub.CancelEvent(
        pb.CancelEventRequest(calendar_id="ana", event_id=event_id), metadata=AUTH
    )
    assert await slots(calendar_stub) == EVERY_HOUR
    assert len(computed) == 4


async def test_a_fresh_read_is_never_served_a_kept_reply_and_replaces_it(
    calendar_stub: pb_grpc.CalendarServiceAsyncStub,
    clock: Clock,
    computed: list[datetime],
    in_memory_calendar: InMemoryCalendar,
) -> None:
    assert await slots(calendar_stub) == EVERY_HOUR
    reads = in_memory_calendar.free_busy_calls
    assert await slots(calendar_stub, read_mode=pb.READ_MODE_FRESH) == EVERY_HOUR
    assert in_memory_calendar.free_busy_calls == reads + 1  # read past the cache
    assert await slots(calendar_stub) == EVERY_HOUR
    assert in_memory_calendar.free_busy_calls == reads + 1  # the fresh read refreshed it
    assert len(computed) == 1  # the same busy time each time: the same slot answer

    await in_memory_calendar.insert_event(  # behind the service's back
        EventDraft(
            calendar_id="ana",
            summary="elsewhere",
            description="",
            start=EVERY_HOUR[1],
            end=EVERY_HOUR[2],
            idempotency_key="elsewhere",
        )
    )
    assert await slots(calendar_stub) == EVERY_HOUR  # the cached busy time, within its TTL
    fresh = await slots(calendar_stub, read_mode=pb.READ_MODE_FRESH)
    assert fresh == [EVERY_HOUR[0], EVERY_HOUR[2]]
    assert await slots(calendar_stub) == fresh
    assert len(computed) == 2


async def test_the_clock_passing_the_notice_of_the_first_slot_computes_again(
    calendar_stub: pb_grpc.CalendarServiceAsyncStub, clock: Clock, computed: list[datetime]
) -> None:
    notice = {"minimum_notice_minutes": 30}
    clock.now = MONDAY + timedelta(hours=11)
    assert await slots(calendar_stub, **notice) == EVERY_HOUR
    clock.now = MONDAY + timedelta(hours=11, minutes=30)  # the first slot is still bookable
    assert await slots(calendar_stub, **notice) == EVERY_HOUR
    assert len(computed) == 1
    clock.now += timedelta(minutes=1)
    assert await slots(calendar_stub, **notice) == EVERY_HOUR[1:]
    clock.now = MONDAY + timedelta(hours=11)  # a clock that went back: never a kept reply
    assert await slots(calendar_stub, **notice) == EVERY_HOUR
    assert len(computed) == 3
