"""Every instant a caller sends is kept to the millisecond, the precision the service's holds
and busy checks use, on both backends (review of session 45, acting as another product: on the
Google backend "12:00:00.0005-12:30:00.0005" and then "12:30-13:00" were both accepted and
stored overlapping by half a millisecond: microseconds went to Google, the check truncated).
Generated over sub-millisecond offsets on both sides of the touching boundary."""

from __future__ import annotations

import itertools
from datetime import timedelta

import pytest

from agenda.calendar.v1 import calendar_service_pb2 as pb
from tests.calendar_service.integration.test_event_model import (
    T0,
    Running,
    running,  # noqa: F401  (the fixture, on both backends)
    stamp,
)
from tests.fakes.google_fixtures import CALENDAR_ID

pytest_plugins = ["tests.kit.mongo_fixtures"]
OFFSETS = (1, 500, 999)  # microseconds


def _create(key: str, start: object, end: object) -> pb.CreateEventRequest:
    return pb.CreateEventRequest(
        calendar_id=CALENDAR_ID,
        summary="Touching",
        idempotency_key=key,
        time=pb.TimeRange(start=stamp(start), end=stamp(end)),  # type: ignore[arg-type]
    )


@pytest.mark.parametrize("offset", OFFSETS)
async def test_touching_events_with_sub_millisecond_parts_never_overlap(
    running: Running,  # noqa: F811
    offset: int,
) -> None:
    nudge = timedelta(microseconds=offset)
    first_start, boundary = T0 + nudge, T0 + timedelta(minutes=30)
    first = await running.call("CreateEvent", _create("a", first_start, boundary + nudge))
    second = await running.call(
        "CreateEvent", _create("b", boundary, boundary + timedelta(minutes=30))
    )
    for created in (first, second):
        event = created.event
        for instant in (event.time.start, event.time.end):
            assert instant.nanos % 1_000_000 == 0, (offset, instant)
    assert first.event.time.end.ToDatetime() <= second.event.time.start.ToDatetime()
    busy = await running.call(
        "QueryFreeBusy",
        pb.QueryFreeBusyRequest(
            calendar_ids=[CALENDAR_ID],
            range=pb.TimeRange(start=stamp(T0), end=stamp(T0 + timedelta(hours=2))),
        ),
    )
    (calendar,) = busy.calendars
    intervals = sorted((b.start.ToDatetime(), b.end.ToDatetime()) for b in calendar.busy)
    for (_, end), (start, _) in itertools.pairwise(intervals):
        assert end <= start, intervals
