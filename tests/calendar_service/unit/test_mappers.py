"""Calendar mappers: protobuf ↔ port objects, field by field."""

from __future__ import annotations

from datetime import UTC, datetime, time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agenda.calendar.v1 import calendar_service_pb2 as pb
from agenda_kit import proto_time
from agenda_kit.errors import RequestValidationError
from calendar_service.infrastructure.grpc import mappers

START = datetime(2031, 3, 3, tzinfo=UTC)


def request(**hours: str) -> pb.GetFreeSlotsRequest:
    message = pb.GetFreeSlotsRequest(
        calendar_id="c", duration_minutes=30, range=mappers.time_range(START, START.replace(day=4))
    )
    message.weekly_hours.append(pb.WeeklyHours(day_of_week=1, **hours))
    return message


def test_weekly_hours_and_defaults() -> None:
    query = mappers.to_free_slots_query(request(start_time="09:00", end_time="24:00"))
    (hours,) = query.rules.weekly_hours
    assert (hours.start, hours.end) == (time(9), None)
    assert query.rules.time_zone == "UTC"
    assert query.rules.step_minutes is None
    assert query.rules.max_results == 500


@settings(max_examples=200, deadline=None, derandomize=True)
@given(st.text(max_size=8))
def test_any_malformed_local_time_is_invalid_argument_naming_the_field(text: str) -> None:
    shaped = len(text) == 5 and text[2] == ":" and text.replace(":", "").isascii()
    valid = shaped and text.replace(":", "").isdigit() and int(text[:2]) < 24 and int(text[3:]) < 60
    if valid and text < "23:59":
        mappers.to_free_slots_query(request(start_time=text, end_time="23:59"))
        return
    with pytest.raises(RequestValidationError) as caught:
        mappers.to_free_slots_query(request(start_time=text, end_time="23:59"))
    assert caught.value.field.startswith("weekly_hours[0]")


@pytest.mark.parametrize("seconds", [-62135596801, 253402300800, 2**62])
def test_out_of_range_timestamps_are_rejected(seconds: int) -> None:
    message = pb.TimeRange()
    message.start.seconds = seconds
    message.end.seconds = seconds + 1
    with pytest.raises(RequestValidationError, match="range"):
        mappers.to_range("range", message, present=True)


def test_timestamps_round_trip_in_utc() -> None:
    stamp = proto_time.to_timestamp(datetime(2031, 3, 3, 9, 30, tzinfo=UTC))
    assert proto_time.to_datetime("t", stamp) == datetime(2031, 3, 3, 9, 30, tzinfo=UTC)
