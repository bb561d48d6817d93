"""The saga's fault rules with fakes: deadlines, ambiguous writes, the confirm/reconciler race,
failpoint steps."""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta
from typing import Any
from uuid import uuid4

import pytest

from agenda_kit import deadline
from agenda_kit.calendar.errors import CalendarQuotaError
from agenda_kit.calendar.port import CalendarEvent, EventDraft
from agent_service.application.book_appointment import FAILPOINT_STEPS
from agent_service.application.booking import Booking
from agent_service.application.ports import AppointmentFilter
from agent_service.application.reconciler import Reconciler
from agent_service.application.repositories import Repositories
from agent_service.bootstrap import wire_booking
from agent_service.domain.appointments import Appointment, AppointmentStatus
from agent_service.domain.errors import (
    BookingPendingError,
    DeadlineExceededError,
    SlotUnavailableError,
)
from tests.agent_service.conversation_fixtures import NOW, Salon, seed_salon
from tests.fakes.agent_repositories import in_memory_repositories
from tests.fakes.in_memory_calendar import InMemoryCalendar

TUESDAY_10 = datetime.fromisoformat("2026-12-01T10:00:00-03:00")


async def setup(**kwargs: Any) -> tuple[Booking, Salon, InMemoryCalendar, Repositories]:
    repos = in_memory_repositories(clock=lambda: NOW)  # the store's clock: fixed, not the real one
    calendar = InMemoryCalendar(clock=lambda: NOW)
    salon = await seed_salon(repos)
    return wire_booking(repos, calendar, lambda: NOW, **kwargs), salon, calendar, repos


async def book(service: Booking, salon: Salon) -> Appointment:
    return await service.book.execute(
        salon.tenant.id, uuid4(), salon.ana.id, salon.cut.id, TUESDAY_10
    )


def live_events(calendar: InMemoryCalendar) -> list[CalendarEvent]:
    return [e for e in calendar.events.values() if e.status != "cancelled"]


async def statuses(repos: Repositories, salon: Salon) -> list[AppointmentStatus]:
    found, _ = await repos.appointments.list(
        salon.tenant.id, AppointmentFilter(), page_size=100, page_token=None
    )
    return [a.status for a in found]


async def test_failpoints_are_called_at_each_step_in_order() -> None:
    steps: list[str] = []
    service, salon, _, _ = await setup(failpoint=steps.append)
    await book(service, salon)
    assert tuple(steps) == FAILPOINT_STEPS


async def test_no_write_starts_after_the_deadline_and_the_slot_is_released() -> None:
    service, salon, calendar, repos = await setup()
    original = repos.appointments.reserve

    async def slow(*args: Any, **kwargs: Any) -> Any:
        stored = await original(*args, **kwargs)
        await asyncio.sleep(0.1)  # the caller's deadline passes after the reservation
        return stored

    repos.appointments.reserve = slow  # type: ignore[method-assign]
    with deadline.deadline_after(0.05), pytest.raises(DeadlineExceededError):
        await book(service, salon)
    assert calendar.events == {}
    assert await statuses(repos, salon) == [AppointmentStatus.FAILED]
    repos.appointments.reserve = original  # type: ignore[method-assign]
    assert (await book(service, salon)).status is AppointmentStatus.CONFIRMED


async def test_an_expired_deadline_reserves_nothing() -> None:
    service, salon, calendar, repos = await setup()
    with deadline.deadline_after(0.0), pytest.raises(DeadlineExceededError):
        await book(service, salon)
    assert calendar.events == {} and await statuses(repos, salon) == []


async def test_a_quota_error_after_the_event_was_stored_is_ambiguous_not_a_failure() -> None:
    """Stored, then 429: one more try with the same key finds the event → confirmed, 1 event."""
    service, salon, calendar, _ = await setup()
    original = calendar.insert_event
    calls = 0

    async def stored_then_quota(draft: EventDraft) -> tuple[CalendarEvent, bool]:
        nonlocal calls
        calls += 1
        result = await original(draft)
        if calls == 1:
            raise CalendarQuotaError("rate limit")
        return result

    calendar.insert_event = stored_then_quota  # type: ignore[method-assign]
    appointment = await book(service, salon)
    assert appointment.status is AppointmentStatus.CONFIRMED and calls == 2
    assert [e.event_id for e in live_events(calendar)] == [appointment.external_event_id]


async def test_quota_every_time_leaves_it_pending_and_the_reconciler_confirms() -> None:
    service, salon, calendar, repos = await setup()
    original = calendar.insert_event

    async def always_quota(draft: EventDraft) -> tuple[CalendarEvent, bool]:
        await original(draft)
        raise CalendarQuotaError("rate limit")

    calendar.insert_event = always_quota  # type: ignore[method-assign]
    with pytest.raises(BookingPendingError) as pending:
        await book(service, salon)
    assert isinstance(pending.value.__cause__, CalendarQuotaError)
    assert await statuses(repos, salon) == [AppointmentStatus.PENDING]
    report = await Reconciler(repos, calendar, grace=timedelta(0)).run_once()
    assert report.confirmed == 1
    assert await statuses(repos, salon) == [AppointmentStatus.CONFIRMED]
    assert len(live_events(calendar)) == 1


async def test_a_confirm_that_lost_to_the_reconciler_withdraws_its_event() -> None:
    """The reconciler failed the appointment while its write was in flight: no orphan."""
    service, salon, calendar, repos = await setup()
    reconciler = Reconciler(repos, calendar, grace=timedelta(0))
    original = calendar.insert_event

    async def reconciled_meanwhile(draft: EventDraft) -> tuple[CalendarEvent, bool]:
        report = await reconciler.run_once()
        assert report.released == 1
        return await original(draft)

    calendar.insert_event = reconciled_meanwhile  # type: ignore[method-assign]
    with pytest.raises(SlotUnavailableError, match="lapsed"):
        await book(service, salon)
    assert live_events(calendar) == []
    assert await statuses(repos, salon) == [AppointmentStatus.FAILED]
    calendar.insert_event = original  # type: ignore[method-assign]
    assert (await book(service, salon)).status is AppointmentStatus.CONFIRMED


async def test_the_reconciler_leaves_alone_a_booking_that_settled_during_its_pass() -> None:
    _, salon, calendar, repos = await setup()
    reconciler = Reconciler(repos, calendar, grace=timedelta(0))
    original = calendar.list_events
    booked: list[Appointment] = []

    async def booking_finishes_meanwhile(*args: Any, **kwargs: Any) -> Any:
        page = await original(*args, **kwargs)
        calendar.list_events = original  # type: ignore[method-assign]
        pending = await repos.appointments.due_pending(timedelta(0), 10)
        booked.append(
            await repos.appointments.save(
                pending[0].moved_to(AppointmentStatus.CONFIRMED, external_event_id="e1")
            )
        )
        return page

    pending = Appointment(
        tenant_id=salon.tenant.id,
        customer_id=uuid4(),
        professional_id=salon.ana.id,
        service_id=salon.cut.id,
        calendar_id=salon.ana.calendar_id,
        start=TUESDAY_10,
        end=TUESDAY_10 + timedelta(hours=1),
    )
    await repos.appointments.reserve(pending)
    calendar.list_events = booking_finishes_meanwhile  # type: ignore[method-assign]
    report = await reconciler.run_once()
    assert (report.released, report.unresolved) == (0, 1)
    assert await statuses(repos, salon) == [AppointmentStatus.CONFIRMED]
    assert booked
