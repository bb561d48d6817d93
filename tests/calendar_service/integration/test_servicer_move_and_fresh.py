"""MoveEvent and READ_MODE_FRESH on the calendar servicer (real gRPC server, fake backend)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import cast

import grpc
import pytest

from agenda.calendar.v1 import calendar_service_pb2 as pb
from agenda.calendar.v1 import calendar_service_pb2_grpc as pb_grpc
from agenda_kit.calendar.port import EventDraft
from calendar_service.bootstrap import CalendarApp
from calendar_service.infrastructure.grpc.mappers import time_range
from tests.calendar_service.integration.test_servicer import (
    MONDAY,
    event_request,
    expect_code,
    slots_request,
)
from tests.conftest import AUTH
from tests.fakes.in_memory_calendar import InMemoryCalendar


@pytest.fixture(autouse=True)
def _fixed_now(calendar_app: CalendarApp) -> None:
    """The minimum notice counts from a week before the example day, not the real clock."""
    calendar_app.calendar.clock = lambda: MONDAY - timedelta(days=7)


def starts(reply: pb.GetFreeSlotsResponse) -> list[datetime]:
    return [s.ToDatetime(tzinfo=UTC) for s in reply.slot_starts]


def move_request(event_id: str, hour: int, **fields: object) -> pb.MoveEventRequest:
    start = MONDAY + timedelta(hours=hour)
    request = pb.MoveEventRequest(
        calendar_id="ana", event_id=event_id, time=time_range(start, start + timedelta(hours=1))
    )
    for name, value in fields.items():
        setattr(request, name, value)
    return request


async def test_move_event_frees_the_old_slot_and_fills_the_new_one_at_once(
    calendar_stub: pb_grpc.CalendarServiceAsyncStub, in_memory_calendar: InMemoryCalendar
) -> None:
    created = await calendar_stub.CreateEvent(event_request(hour=13), metadata=AUTH)
    before = await calendar_stub.GetFreeSlots(slots_request(), metadata=AUTH)
    assert starts(before) == [MONDAY + timedelta(hours=h) for h in (12, 14)]

    reply = await calendar_stub.MoveEvent(move_request(created.event.event_id, 14), metadata=AUTH)

    assert reply.event.event_id == created.event.event_id
    assert reply.event.time_zone == "America/Sao_Paulo"
    assert reply.event.time.start.ToDatetime(tzinfo=UTC) == MONDAY + timedelta(hours=14)
    after = await calendar_stub.GetFreeSlots(slots_request(), metadata=AUTH)
    assert starts(after) == [MONDAY + timedelta(hours=h) for h in (12, 13)]  # cache dropped
    again = await calendar_stub.MoveEvent(move_request(created.event.event_id, 14), metadata=AUTH)
    assert again.event.time == reply.event.time
    assert again.event.event_id == reply.event.event_id


async def test_move_event_errors(calendar_stub: pb_grpc.CalendarServiceAsyncStub) -> None:
    created = await calendar_stub.CreateEvent(event_request(hour=13), metadata=AUTH)
    event_id = created.event.event_id
    invalid = [
        pb.MoveEventRequest(calendar_id="ana", event_id=event_id),  # no time
        move_request("", 14),
        move_request(event_id, 14, calendar_id=""),
        move_request(event_id, 14, time_zone="Mars/Olympus"),
        pb.MoveEventRequest(calendar_id="ana", event_id=event_id, time=time_range(MONDAY, MONDAY)),
        pb.MoveEventRequest(
            calendar_id="ana",
            event_id=event_id,
            time=time_range(MONDAY, MONDAY + timedelta(days=40)),
        ),
    ]
    for request in invalid:
        await expect_code(
            calendar_stub.MoveEvent(request, metadata=AUTH), grpc.StatusCode.INVALID_ARGUMENT
        )
    await expect_code(
        calendar_stub.MoveEvent(move_request("nope", 14), metadata=AUTH),
        grpc.StatusCode.NOT_FOUND,
    )
    await calendar_stub.CancelEvent(
        pb.CancelEventRequest(calendar_id="ana", event_id=event_id), metadata=AUTH
    )
    await expect_code(
        calendar_stub.MoveEvent(move_request(event_id, 14), metadata=AUTH),
        grpc.StatusCode.NOT_FOUND,
    )


async def test_a_fresh_read_sees_an_event_written_behind_the_cache(
    calendar_stub: pb_grpc.CalendarServiceAsyncStub, in_memory_calendar: InMemoryCalendar
) -> None:
    """Item 6: the service's free/busy cache hides writes made elsewhere; FRESH does not."""
    everything = [MONDAY + timedelta(hours=h) for h in (12, 13, 14)]
    assert starts(await calendar_stub.GetFreeSlots(slots_request(), metadata=AUTH)) == everything
    start = MONDAY + timedelta(hours=13)
    await in_memory_calendar.insert_event(  # straight into the backend: no invalidation
        EventDraft(
            calendar_id="ana",
            summary="elsewhere",
            description="",
            start=start,
            end=start + timedelta(hours=1),
            idempotency_key="behind-the-back",
        )
    )

    cached = await calendar_stub.GetFreeSlots(slots_request(), metadata=AUTH)
    fresh = await calendar_stub.GetFreeSlots(
        slots_request(read_mode=pb.READ_MODE_FRESH), metadata=AUTH
    )
    busy = await calendar_stub.QueryFreeBusy(
        pb.QueryFreeBusyRequest(
            calendar_ids=["ana"],
            range=time_range(MONDAY, MONDAY + timedelta(days=1)),
            read_mode=pb.READ_MODE_FRESH,
        ),
        metadata=AUTH,
    )

    assert starts(cached) == everything  # the cache still answers from before the write
    assert starts(fresh) == [MONDAY + timedelta(hours=h) for h in (12, 14)]
    assert [b.start.ToDatetime(tzinfo=UTC) for b in busy.calendars[0].busy] == [start]
    assert in_memory_calendar.fresh_free_busy_calls == 2
    # The fresh answer refreshed the cache for everyone else.
    refreshed = await calendar_stub.GetFreeSlots(slots_request(), metadata=AUTH)
    assert starts(refreshed) == starts(fresh)


async def test_an_unknown_read_mode_is_invalid(
    calendar_stub: pb_grpc.CalendarServiceAsyncStub,
) -> None:
    await expect_code(
        calendar_stub.GetFreeSlots(slots_request(read_mode=7), metadata=AUTH),
        grpc.StatusCode.INVALID_ARGUMENT,
    )
    await expect_code(
        calendar_stub.QueryFreeBusy(
            pb.QueryFreeBusyRequest(
                calendar_ids=["ana"],
                range=time_range(MONDAY, MONDAY + timedelta(days=1)),
                read_mode=cast(pb.ReadMode.ValueType, 9),
            ),
            metadata=AUTH,
        ),
        grpc.StatusCode.INVALID_ARGUMENT,
    )
