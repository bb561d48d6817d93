"""``Upcoming.from_``: appointments read with the conversation replace the memory's query only
when that read is enough to answer it exactly."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from uuid import uuid4

from agent_service.application.turn_context import Upcoming
from agent_service.domain.appointments import Appointment, AppointmentStatus

READ_AT = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)


def at(hours: float) -> Appointment:
    start = READ_AT + timedelta(hours=hours)
    return Appointment(
        tenant_id=uuid4(),
        customer_id=uuid4(),
        professional_id=uuid4(),
        service_id=uuid4(),
        calendar_id="ana",
        start=start,
        end=start + timedelta(minutes=30),
        status=AppointmentStatus.CONFIRMED,
    )


def test_a_read_at_or_before_now_answers_when_it_was_not_full() -> None:
    read = Upcoming(READ_AT, 3, (at(1), at(5)))
    assert read.from_(READ_AT, 3) == read.appointments
    later = read.from_(READ_AT + timedelta(hours=2), 3)
    assert later == (read.appointments[1],)


def test_a_full_read_answers_only_while_it_still_holds_enough() -> None:
    read = Upcoming(READ_AT, 3, (at(1), at(2), at(3)))
    assert read.from_(READ_AT + timedelta(minutes=1), 3) == read.appointments
    assert read.from_(READ_AT + timedelta(minutes=90), 2) == read.appointments[1:]
    assert read.from_(READ_AT + timedelta(minutes=90), 3) is None  # a 4th may exist


def test_a_read_after_now_or_for_more_does_not_answer() -> None:
    read = Upcoming(READ_AT, 3, (at(1),))
    assert read.from_(READ_AT - timedelta(seconds=1), 3) is None
    assert read.from_(READ_AT, 4) is None
