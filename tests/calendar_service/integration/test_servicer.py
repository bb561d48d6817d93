"""The calendar servicer on a real gRPC server (port 0): every RPC and every error code."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any, cast

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from agenda.calendar.v1 import calendar_service_pb2 as pb
from agenda.calendar.v1 import calendar_service_pb2_grpc as pb_grpc
from agenda_kit.calendar.errors import CalendarQuotaError, CalendarUnavailableError
from calendar_service.infrastructure.grpc.mappers import time_range
from tests.conftest import AUTH
from tests.fakes.in_memory_calendar import InMemoryCalendar

MONDAY = datetime(2031, 3, 3, tzinfo=UTC)  # a Monday, far in the future (notice never bites)


def slots_request(**overrides: object) -> pb.GetFreeSlotsRequest:
    request = pb.GetFreeSlotsRequest(
        calendar_id="ana",
        range=time_range(MONDAY, MONDAY + timedelta(days=1)),
        duration_minutes=60,
        time_zone="America/Sao_Paulo",
        weekly_hours=[pb.WeeklyHours(day_of_week=1, start_time="09:00", end_time="12:00")],
    )
    return cast(pb.GetFreeSlotsRequest, _override(request, overrides))


def _override(request: Any, overrides: dict[str, object]) -> Any:
    for key, value in overrides.items():
        if hasattr(value, "CopyFrom"):
            getattr(request, key).CopyFrom(value)
        else:
            setattr(request, key, value)
    return request


def event_request(key: str = "k1", hour: int = 13, **overrides: object) -> pb.CreateEventRequest:
    start = MONDAY + timedelta(hours=hour)
    request = pb.CreateEventRequest(
        calendar_id="ana",
        summary="Corte",
        description="cliente 1",
        time=time_range(start, start + timedelta(hours=1)),
        time_zone="America/Sao_Paulo",
        idempotency_key=key,
    )
    return cast(pb.CreateEventRequest, _override(request, overrides))


async def expect_code(call: object, code: grpc.StatusCode) -> grpc.aio.AioRpcError:
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await call  # type: ignore[misc]
    assert caught.value.code() == code, caught.value.details()
    return caught.value


async def test_free_slots_follow_working_hours_in_the_zone(
    calendar_stub: pb_grpc.CalendarServiceAsyncStub,
) -> None:
    reply = await calendar_stub.GetFreeSlots(slots_request(), metadata=AUTH)
    starts = [s.ToDatetime(tzinfo=UTC) for s in reply.slot_starts]
    # 09:00-12:00 in São Paulo (UTC-3) is 12:00-15:00 UTC, hourly.
    assert starts == [MONDAY + timedelta(hours=h) for h in (12, 13, 14)]
    assert reply.duration_minutes == 60
    assert not reply.truncated


async def test_created_event_removes_its_slot_at_once(
    calendar_stub: pb_grpc.CalendarServiceAsyncStub, in_memory_calendar: InMemoryCalendar
) -> None:
    await calendar_stub.GetFreeSlots(slots_request(), metadata=AUTH)
    await calendar_stub.GetFreeSlots(slots_request(), metadata=AUTH)
    assert in_memory_calendar.free_busy_calls == 1  # second answer came from the cache
    created = await calendar_stub.CreateEvent(event_request(), metadata=AUTH)
    assert created.created
    reply = await calendar_stub.GetFreeSlots(slots_request(), metadata=AUTH)
    starts = [s.ToDatetime(tzinfo=UTC) for s in reply.slot_starts]
    assert starts == [MONDAY + timedelta(hours=h) for h in (12, 14)]


async def test_create_event_is_idempotent(calendar_stub: pb_grpc.CalendarServiceAsyncStub) -> None:
    first = await calendar_stub.CreateEvent(event_request("same"), metadata=AUTH)
    again = await calendar_stub.CreateEvent(event_request("same"), metadata=AUTH)
    assert first.created and not again.created
    assert first.event.event_id == again.event.event_id
    assert again.event.idempotency_key == "same"
    await expect_code(
        calendar_stub.CreateEvent(event_request("same", hour=15), metadata=AUTH),
        grpc.StatusCode.ALREADY_EXISTS,
    )


async def test_get_cancel_and_list(calendar_stub: pb_grpc.CalendarServiceAsyncStub) -> None:
    ids = []
    for hour in range(5):
        reply = await calendar_stub.CreateEvent(event_request(f"k{hour}", hour=hour), metadata=AUTH)
        ids.append(reply.event.event_id)
    got = await calendar_stub.GetEvent(
        pb.GetEventRequest(calendar_id="ana", event_id=ids[0]), metadata=AUTH
    )
    assert got.event.summary == "Corte"
    cancel = pb.CancelEventRequest(calendar_id="ana", event_id=ids[0])
    assert (await calendar_stub.CancelEvent(cancel, metadata=AUTH)).cancelled
    assert not (await calendar_stub.CancelEvent(cancel, metadata=AUTH)).cancelled
    listing = pb.ListEventsRequest(
        calendar_id="ana", range=time_range(MONDAY, MONDAY + timedelta(days=1)), page_size=3
    )
    first = await calendar_stub.ListEvents(listing, metadata=AUTH)
    listing.page_token = first.next_page_token
    second = await calendar_stub.ListEvents(listing, metadata=AUTH)
    assert [e.event_id for e in (*first.events, *second.events)] == ids[1:]
    assert second.next_page_token == ""


async def test_free_busy_of_many_calendars_in_order(
    calendar_stub: pb_grpc.CalendarServiceAsyncStub,
) -> None:
    await calendar_stub.CreateEvent(event_request(), metadata=AUTH)
    reply = await calendar_stub.QueryFreeBusy(
        pb.QueryFreeBusyRequest(
            calendar_ids=["bia", "ana", "missing-1"],
            range=time_range(MONDAY, MONDAY + timedelta(days=1)),
        ),
        metadata=AUTH,
    )
    assert [c.calendar_id for c in reply.calendars] == ["bia", "ana", "missing-1"]
    assert len(reply.calendars[1].busy) == 1
    assert reply.calendars[2].error_code == pb.FREE_BUSY_ERROR_NOT_FOUND
    assert reply.calendars[2].error == "notFound"  # the deprecated text, for older clients
    assert reply.calendars[1].error_code == pb.FREE_BUSY_ERROR_UNSPECIFIED


@pytest.mark.parametrize(
    ("request_", "field"),
    [
        (pb.GetFreeSlotsRequest(calendar_id="ana", duration_minutes=30), "range"),
        (slots_request(duration_minutes=0), "duration_minutes"),
        (slots_request(step_minutes=7), "step_minutes"),
        (slots_request(time_zone="Mars/Olympus"), "time_zone"),
        (slots_request(calendar_id=""), "calendar_id"),
        (slots_request(buffer_before_minutes=-5), "buffer_before_minutes"),
        (slots_request(max_results=100000), "max_results"),
        (
            slots_request(range=time_range(MONDAY, MONDAY + timedelta(days=400))),
            "range",
        ),
        (
            slots_request(range=time_range(MONDAY + timedelta(days=1), MONDAY)),
            "range",
        ),
    ],
)
async def test_bad_free_slot_queries_are_invalid_argument(
    calendar_stub: pb_grpc.CalendarServiceAsyncStub, request_: pb.GetFreeSlotsRequest, field: str
) -> None:
    error = await expect_code(
        calendar_stub.GetFreeSlots(request_, metadata=AUTH), grpc.StatusCode.INVALID_ARGUMENT
    )
    assert field in (error.details() or "")


@pytest.mark.parametrize(
    ("start", "end"),
    [
        ("9:00", "12:00"),
        ("09:00", "25:00"),
        ("12:00", "09:00"),
        ("24:00", "24:00"),
        ("09:60", "10:00"),
    ],
)
async def test_bad_working_hours_are_invalid_argument(
    calendar_stub: pb_grpc.CalendarServiceAsyncStub, start: str, end: str
) -> None:
    request = slots_request()
    del request.weekly_hours[:]
    request.weekly_hours.append(pb.WeeklyHours(day_of_week=1, start_time=start, end_time=end))
    error = await expect_code(
        calendar_stub.GetFreeSlots(request, metadata=AUTH), grpc.StatusCode.INVALID_ARGUMENT
    )
    assert "weekly_hours[0]" in (error.details() or "")


@pytest.mark.parametrize(
    ("overrides", "field"),
    [
        ({"summary": ""}, "summary"),
        ({"summary": "x" * 2000}, "summary"),
        ({"idempotency_key": ""}, "idempotency_key"),
        ({"calendar_id": ""}, "calendar_id"),
        ({"time_zone": "Not/AZone"}, "time_zone"),
        ({"time": pb.TimeRange()}, "time"),
        ({"time": time_range(MONDAY, MONDAY + timedelta(days=40))}, "time"),
    ],
)
async def test_bad_events_are_invalid_argument(
    calendar_stub: pb_grpc.CalendarServiceAsyncStub, overrides: dict[str, object], field: str
) -> None:
    error = await expect_code(
        calendar_stub.CreateEvent(event_request(**overrides), metadata=AUTH),  # type: ignore[arg-type]
        grpc.StatusCode.INVALID_ARGUMENT,
    )
    assert field in (error.details() or "")


async def test_other_bad_requests(calendar_stub: pb_grpc.CalendarServiceAsyncStub) -> None:
    day = time_range(MONDAY, MONDAY + timedelta(days=1))
    await expect_code(
        calendar_stub.QueryFreeBusy(pb.QueryFreeBusyRequest(range=day), metadata=AUTH),
        grpc.StatusCode.INVALID_ARGUMENT,
    )
    await expect_code(
        calendar_stub.QueryFreeBusy(
            pb.QueryFreeBusyRequest(calendar_ids=[f"c{i}" for i in range(201)], range=day),
            metadata=AUTH,
        ),
        grpc.StatusCode.INVALID_ARGUMENT,
    )
    await expect_code(
        calendar_stub.ListEvents(
            pb.ListEventsRequest(calendar_id="ana", range=day, page_size=5000), metadata=AUTH
        ),
        grpc.StatusCode.INVALID_ARGUMENT,
    )
    await expect_code(
        calendar_stub.ListEvents(
            pb.ListEventsRequest(calendar_id="ana", range=day, page_token="zz"), metadata=AUTH
        ),
        grpc.StatusCode.INVALID_ARGUMENT,
    )
    stamp = pb.TimeRange()
    stamp.start.seconds = 2**62
    stamp.end.seconds = 2**62 + 1
    await expect_code(
        calendar_stub.ListEvents(
            pb.ListEventsRequest(calendar_id="ana", range=stamp), metadata=AUTH
        ),
        grpc.StatusCode.INVALID_ARGUMENT,
    )


async def test_unknown_things_are_not_found(
    calendar_stub: pb_grpc.CalendarServiceAsyncStub,
) -> None:
    await expect_code(
        calendar_stub.GetEvent(
            pb.GetEventRequest(calendar_id="ana", event_id="nope"), metadata=AUTH
        ),
        grpc.StatusCode.NOT_FOUND,
    )
    await expect_code(
        calendar_stub.CancelEvent(
            pb.CancelEventRequest(calendar_id="ana", event_id="nope"), metadata=AUTH
        ),
        grpc.StatusCode.NOT_FOUND,
    )
    await expect_code(
        calendar_stub.GetFreeSlots(slots_request(calendar_id="missing-cal"), metadata=AUTH),
        grpc.StatusCode.NOT_FOUND,
    )


async def test_provider_outage_is_unavailable_with_a_readable_message(
    calendar_stub: pb_grpc.CalendarServiceAsyncStub, in_memory_calendar: InMemoryCalendar
) -> None:
    in_memory_calendar.fail_with = CalendarUnavailableError()
    error = await expect_code(
        calendar_stub.GetFreeSlots(slots_request(), metadata=AUTH), grpc.StatusCode.UNAVAILABLE
    )
    assert error.details() == "The calendar provider is temporarily unavailable; retry later."
    in_memory_calendar.fail_with = CalendarQuotaError("Google Calendar quota exhausted")
    await expect_code(
        calendar_stub.CreateEvent(event_request(), metadata=AUTH),
        grpc.StatusCode.RESOURCE_EXHAUSTED,
    )


async def test_unexpected_errors_are_internal_without_a_traceback(
    calendar_stub: pb_grpc.CalendarServiceAsyncStub, in_memory_calendar: InMemoryCalendar
) -> None:
    in_memory_calendar.fail_with = RuntimeError("secret detail")  # type: ignore[assignment]
    error = await expect_code(
        calendar_stub.ListEvents(
            pb.ListEventsRequest(
                calendar_id="ana", range=time_range(MONDAY, MONDAY + timedelta(days=1))
            ),
            metadata=AUTH,
        ),
        grpc.StatusCode.INTERNAL,
    )
    details = error.details() or ""
    assert "secret" not in details and "Traceback" not in details
    assert "request id" in details


@pytest.mark.parametrize(
    "metadata", [(), (("authorization", "Bearer wrong"),), (("authorization", "Basic x"),)]
)
async def test_every_rpc_needs_a_valid_token(
    calendar_stub: pb_grpc.CalendarServiceAsyncStub, metadata: tuple[tuple[str, str], ...]
) -> None:
    calls = [
        calendar_stub.GetFreeSlots(slots_request(), metadata=metadata),
        calendar_stub.QueryFreeBusy(pb.QueryFreeBusyRequest(), metadata=metadata),
        calendar_stub.CreateEvent(event_request(), metadata=metadata),
        calendar_stub.GetEvent(pb.GetEventRequest(), metadata=metadata),
        calendar_stub.CancelEvent(pb.CancelEventRequest(), metadata=metadata),
        calendar_stub.ListEvents(pb.ListEventsRequest(), metadata=metadata),
        calendar_stub.MoveEvent(pb.MoveEventRequest(), metadata=metadata),
    ]
    for call in calls:
        await expect_code(call, grpc.StatusCode.UNAUTHENTICATED)


async def test_health_answers_without_a_token(calendar_channel: grpc.aio.Channel) -> None:
    health = health_pb2_grpc.HealthStub(calendar_channel)
    for service in ("", "agenda.calendar.v1.CalendarService"):
        reply = await health.Check(health_pb2.HealthCheckRequest(service=service))
        assert reply.status == health_pb2.HealthCheckResponse.SERVING
    await expect_code(
        health.Check(health_pb2.HealthCheckRequest(service="nope")), grpc.StatusCode.NOT_FOUND
    )
