"""The booking saga with fakes: policies, overlaps, failures, cancel and reschedule, and the
reconciler resolving what a crash left pending."""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta
from uuid import uuid4

import pytest

from agenda_kit.calendar.errors import CalendarUnavailableError, InvalidCalendarRequestError
from agent_service.application.booking import Booking
from agent_service.application.reconciler import Reconciler
from agent_service.bootstrap import wire_booking
from agent_service.domain.appointments import Appointment, AppointmentStatus
from agent_service.domain.errors import (
    BookingPendingError,
    InvalidInputError,
    NotFoundError,
    PolicyViolationError,
    SlotUnavailableError,
)
from tests.agent_service.conversation_fixtures import NOW, Salon, seed_salon
from tests.fakes.agent_repositories import in_memory_repositories
from tests.fakes.in_memory_calendar import InMemoryCalendar

TUESDAY_10 = datetime.fromisoformat("2026-12-01T10:00:00-03:00")


async def setup() -> tuple[Booking, Salon, InMemoryCalendar]:
    repos = in_memory_repositories()
    calendar = InMemoryCalendar(clock=lambda: NOW)
    salon = await seed_salon(repos)
    return wire_booking(repos, calendar, lambda: NOW), salon, calendar


async def book(service: Booking, salon: Salon, start: datetime = TUESDAY_10) -> Appointment:
    return await service.book.execute(salon.tenant.id, uuid4(), salon.ana.id, salon.cut.id, start)


async def test_a_booking_confirms_with_exactly_one_event() -> None:
    service, salon, calendar = await setup()
    appointment = await book(service, salon)
    assert appointment.status is AppointmentStatus.CONFIRMED
    (event,) = calendar.events.values()
    assert appointment.external_event_id == event.event_id
    assert event.idempotency_key == str(appointment.id)
    assert (event.start, event.end) == (appointment.start, appointment.end)


async def test_concurrent_bookings_of_one_slot_confirm_exactly_one() -> None:
    service, salon, calendar = await setup()
    outcomes = await asyncio.gather(
        *(book(service, salon) for _ in range(20)), return_exceptions=True
    )
    confirmed = [o for o in outcomes if isinstance(o, Appointment)]
    refused = [o for o in outcomes if isinstance(o, SlotUnavailableError)]
    assert (len(confirmed), len(refused)) == (1, 19)
    assert len(calendar.events) == 1


async def test_times_outside_hours_or_policy_are_refused() -> None:
    service, salon, calendar = await setup()
    with pytest.raises(SlotUnavailableError):
        await book(service, salon, datetime.fromisoformat("2026-12-01T20:00:00-03:00"))
    with pytest.raises(PolicyViolationError, match="notice"):
        await book(service, salon, NOW + timedelta(minutes=30))
    with pytest.raises(PolicyViolationError, match="days ahead"):
        await book(service, salon, TUESDAY_10 + timedelta(days=90))
    with pytest.raises(InvalidInputError):
        await service.book.execute(
            salon.tenant.id, uuid4(), salon.ana.id, salon.beard.id, TUESDAY_10
        )
    with pytest.raises(NotFoundError):
        await service.book.execute(uuid4(), uuid4(), salon.ana.id, salon.cut.id, TUESDAY_10)
    assert calendar.events == {}


async def test_a_permanent_calendar_error_fails_and_frees_the_slot() -> None:
    service, salon, calendar = await setup()
    original = calendar.insert_event

    async def refuse(draft):
        raise InvalidCalendarRequestError("bad calendar")

    calendar.insert_event = refuse  # type: ignore[method-assign]
    with pytest.raises(InvalidCalendarRequestError):
        await book(service, salon)
    calendar.insert_event = original  # type: ignore[method-assign]
    again = await book(service, salon)
    assert again.status is AppointmentStatus.CONFIRMED


async def test_cancel_frees_the_slot_and_is_idempotent() -> None:
    service, salon, calendar = await setup()
    appointment = await book(service, salon)
    cancelled, changed = await service.cancel.execute(
        salon.tenant.id, appointment.id, reason="test", enforce_window=True
    )
    assert changed and cancelled.status is AppointmentStatus.CANCELLED
    _, again = await service.cancel.execute(
        salon.tenant.id, appointment.id, reason="x", enforce_window=True
    )
    assert not again
    assert all(e.status == "cancelled" for e in calendar.events.values())
    rebooked = await book(service, salon)
    assert rebooked.status is AppointmentStatus.CONFIRMED


async def test_cancellation_window_is_enforced_for_customers_only() -> None:
    repos = in_memory_repositories()
    calendar = InMemoryCalendar(clock=lambda: NOW)
    salon = await seed_salon(repos)
    early = wire_booking(repos, calendar, lambda: NOW)
    appointment = await early.book.execute(
        salon.tenant.id, uuid4(), salon.ana.id, salon.cut.id, TUESDAY_10
    )
    late = wire_booking(repos, calendar, lambda: TUESDAY_10 - timedelta(minutes=30))
    with pytest.raises(PolicyViolationError):
        await late.cancel.execute(
            salon.tenant.id, appointment.id, reason="late", enforce_window=True
        )
    _, changed = await late.cancel.execute(
        salon.tenant.id, appointment.id, reason="office", enforce_window=False
    )
    assert changed


async def test_reschedule_moves_the_event_and_keeps_the_appointment() -> None:
    service, salon, calendar = await setup()
    customer = uuid4()
    old = await service.book.execute(
        salon.tenant.id, customer, salon.ana.id, salon.cut.id, TUESDAY_10
    )
    new = await service.reschedule.execute(
        salon.tenant.id, customer, old.id, TUESDAY_10 + timedelta(hours=2)
    )
    assert new.id == old.id and new.external_event_id == old.external_event_id
    assert new.status is AppointmentStatus.CONFIRMED and new.previous_starts == (old.start,)
    (event,) = calendar.events.values()
    assert event.start == TUESDAY_10 + timedelta(hours=2)
    with pytest.raises(NotFoundError):
        await service.reschedule.execute(
            salon.tenant.id, uuid4(), new.id, TUESDAY_10 + timedelta(hours=4)
        )


async def test_reconciler_confirms_or_releases_stale_pending_bookings() -> None:
    service, salon, calendar = await setup()

    async def unreachable(*args, **kwargs):
        raise CalendarUnavailableError()

    original = calendar.insert_event
    calendar.insert_event = unreachable  # type: ignore[method-assign]
    with pytest.raises(BookingPendingError):
        await book(service, salon)  # ambiguous: stays pending (the calendar service keeps
    calendar.insert_event = original  # type: ignore[method-assign]  # its time held meanwhile)
    reconciler = Reconciler(service.book._repos, calendar, grace=timedelta(0))
    report = await reconciler.run_once()
    assert (report.confirmed, report.released) == (0, 1)
    assert (await book(service, salon)).status is AppointmentStatus.CONFIRMED


async def test_reconciler_confirms_a_booking_whose_event_exists() -> None:
    service, salon, calendar = await setup()
    repos = service.book._repos
    pending = Appointment(
        tenant_id=salon.tenant.id,
        customer_id=uuid4(),
        professional_id=salon.ana.id,
        service_id=salon.cut.id,
        calendar_id=salon.ana.calendar_id,
        start=TUESDAY_10,
        end=TUESDAY_10 + timedelta(hours=1),
    )
    await repos.appointments.reserve(pending)  # the process died after writing the event:
    event_id = await calendar.create_event(
        pending.calendar_id, "s", "", pending.start, pending.end, idempotency_key=str(pending.id)
    )
    reconciler = Reconciler(repos, calendar, grace=timedelta(0))
    report = await reconciler.run_once()
    assert report.confirmed == 1
    stored = await repos.appointments.get(salon.tenant.id, pending.id)
    assert stored.status is AppointmentStatus.CONFIRMED
    assert stored.external_event_id == event_id
