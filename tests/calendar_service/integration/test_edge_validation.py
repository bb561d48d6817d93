"""Validation at the calendar edge (issue 24 §5, calendar side): every string and list of the
contract is bounded, ids are printable with no edge spaces (the one rule of
``agenda_kit.calendar.validation``), and a refusal is INVALID_ARGUMENT with ``ErrorInfo``
INVALID_REQUEST and a ``BadRequest`` naming the field — never INTERNAL, never a write.
Properties over generated ids check the rule, not a list of bad characters."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import grpc
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agenda.calendar.v1 import calendar_service_pb2 as pb
from agenda.calendar.v1 import calendar_service_pb2_grpc as pb_grpc
from agenda_kit.calendar.validation import calendar_id_problem
from agenda_kit.errors import details_of
from calendar_service.infrastructure.grpc.mappers import time_range
from tests.calendar_service.integration.test_servicer import MONDAY, event_request, slots_request
from tests.conftest import AUTH
from tests.fakes.in_memory_calendar import InMemoryCalendar
from tests.reliability.scale import size

EXAMPLES = settings(
    max_examples=size(40, 400),
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
WEEKLY = pb.WeeklyHours(day_of_week=1, start_time="09:00", end_time="10:00")
WINDOW = time_range(MONDAY, MONDAY + timedelta(hours=1))
ATTENDEE = pb.Attendee(email="guest@example.com")


async def answer(call: Any, request: Any) -> tuple[grpc.StatusCode, str, str]:
    """The code, the field the first violation names and the reason of a call's answer."""
    try:
        await call(request, metadata=AUTH, timeout=10)
    except grpc.aio.AioRpcError as error:
        details = details_of(error)
        field = details.violations[0][0] if details.violations else ""
        return error.code(), field, details.reason
    return grpc.StatusCode.OK, "", ""


def create(**fields: Any) -> pb.CreateEventRequest:
    """A valid CreateEvent (``event_request``'s) with ``fields`` replaced."""
    base = event_request()
    defaults: dict[str, Any] = {
        "calendar_id": base.calendar_id,
        "summary": base.summary,
        "time": base.time,
        "idempotency_key": base.idempotency_key,
    }
    return pb.CreateEventRequest(**(defaults | fields))


def slots(*, weekly: int = 0, windows: int = 0) -> pb.GetFreeSlotsRequest:
    request = slots_request()
    request.weekly_hours.extend([WEEKLY] * weekly)
    request.windows.extend([WINDOW] * windows)
    return request


CASES: list[tuple[str, str, Callable[[], Any], str]] = [
    (
        "100 KB idempotency key",
        "CreateEvent",
        lambda: create(idempotency_key="k" * 100_000),
        "idempotency_key",
    ),
    (
        "257-char idempotency key",
        "CreateEvent",
        lambda: create(idempotency_key="k" * 257),
        "idempotency_key",
    ),
    ("NUL in calendar_id", "CreateEvent", lambda: create(calendar_id="ana\x00"), "calendar_id"),
    (
        "line break in calendar_id",
        "CreateEvent",
        lambda: create(calendar_id="ana\n"),
        "calendar_id",
    ),
    (
        "edge space in calendar_id",
        "GetEvent",
        lambda: pb.GetEventRequest(calendar_id=" ana", event_id="e1"),
        "calendar_id",
    ),
    (
        "control char in event_id",
        "GetEvent",
        lambda: pb.GetEventRequest(calendar_id="ana", event_id="e\x07"),
        "event_id",
    ),
    (
        "5,000 weekly_hours rows",
        "GetFreeSlots",
        lambda: slots(weekly=5000),
        "weekly_hours",
    ),
    (
        "57 weekly_hours rows",
        "GetFreeSlots",
        lambda: slots(weekly=57),
        "weekly_hours",
    ),
    ("501 windows", "GetFreeSlots", lambda: slots(windows=501), "windows"),
    ("51 attendees", "CreateEvent", lambda: create(attendees=[ATTENDEE] * 51), "attendees"),
    (
        "not an e-mail",
        "CreateEvent",
        lambda: create(attendees=[pb.Attendee(email="nobody")]),
        "attendees[0].email",
    ),
    ("1,025-char location", "CreateEvent", lambda: create(location="x" * 1025), "location"),
    ("control char in summary", "CreateEvent", lambda: create(summary="a\x1bb"), "summary"),
    (
        "unknown conflict policy",
        "CreateEvent",
        lambda: create(conflict_policy=7),
        "conflict_policy",
    ),
    (
        "both time and all_day",
        "CreateEvent",
        lambda: create(all_day=pb.DateSpan(start_date="2031-03-03", end_date="2031-03-04")),
        "time",
    ),
    (
        "6 property filters",
        "ListEvents",
        lambda: pb.ListEventsRequest(
            calendar_id="ana",
            range=WINDOW,
            private_property_filter={f"k{i}": "v" for i in range(6)},
        ),
        "private_property_filter",
    ),
    # session 43: keys that matched on one backend only ("a.b" a MongoDB path, "a=b" a
    # Google filter's separator) are refused on both
    (
        "a dot in a private key",
        "CreateEvent",
        lambda: create(private_properties={"crm.id": "7"}),
        "private_properties",
    ),
    (
        "an equals sign in a filter key",
        "ListEvents",
        lambda: pb.ListEventsRequest(
            calendar_id="ana", range=WINDOW, private_property_filter={"k=v": "x"}
        ),
        "private_property_filter",
    ),
    (
        "5 KB page token",
        "ListEvents",
        lambda: pb.ListEventsRequest(calendar_id="ana", range=WINDOW, page_token="t" * 5000),
        "page_token",
    ),
    (
        "201 calendars",
        "QueryFreeBusy",
        lambda: pb.QueryFreeBusyRequest(calendar_ids=["ana"] * 201, range=WINDOW),
        "calendar_ids",
    ),
    (
        "NUL in a free/busy calendar",
        "QueryFreeBusy",
        lambda: pb.QueryFreeBusyRequest(calendar_ids=["ana", "b\x00"], range=WINDOW),
        "calendar_ids",  # the edge's bounds name a list by its path
    ),
]


async def test_every_bound_is_enforced_and_names_its_field(
    calendar_stub: pb_grpc.CalendarServiceAsyncStub, in_memory_calendar: InMemoryCalendar
) -> None:
    invalid = grpc.StatusCode.INVALID_ARGUMENT
    for name, method, build, field in CASES:
        got = await answer(getattr(calendar_stub, method), build())
        assert got == (invalid, field, "INVALID_REQUEST"), name
    assert in_memory_calendar.events == {}  # nothing was written


@EXAMPLES
@given(st.text(min_size=0, max_size=40))
async def test_any_calendar_id_is_accepted_exactly_when_the_shared_rule_accepts_it(
    calendar_stub: pb_grpc.CalendarServiceAsyncStub, calendar_id: str
) -> None:
    request = pb.GetFreeSlotsRequest(
        calendar_id=calendar_id,
        range=time_range(MONDAY, MONDAY + timedelta(hours=2)),
        duration_minutes=30,
    )
    code, field, reason = await answer(calendar_stub.GetFreeSlots, request)
    if calendar_id_problem(calendar_id) is None:
        assert code is grpc.StatusCode.OK, (calendar_id, code)
    else:
        assert (code, field, reason) == (
            grpc.StatusCode.INVALID_ARGUMENT,
            "calendar_id",
            "INVALID_REQUEST",
        ), calendar_id
