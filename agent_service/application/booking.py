"""Availability, booking, cancelling and rescheduling: the saga of DESIGN §5.

Invariant after any fault: every confirmed appointment has exactly one calendar event, no
event exists without its appointment, and failed bookings hold no slot.

Failure rules of ``book``:
- before the event write nothing is ambiguous: any error (slot taken, calendar down, the
  caller's deadline passed) marks the appointment failed, releasing its holds, and re-raises;
- no event write starts once the caller's deadline (``agenda_kit.deadline``) has passed;
- a write refused for a reason that proves no event exists (bad request, unknown calendar,
  key conflict) fails the appointment; any other write failure is ambiguous: one more try
  with the same idempotency key, then the appointment stays pending for the reconciler;
- a confirm refused because the reconciler failed the appointment meanwhile cancels the
  event just written, so no orphan remains.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, date, datetime, timedelta
from uuid import UUID

import structlog

from agenda_kit import deadline
from agenda_kit.calendar.errors import (
    CalendarError,
    CalendarNotFoundError,
    IdempotencyConflictError,
    InvalidCalendarRequestError,
)
from agenda_kit.calendar.port import ICalendarAdapter, Interval, SlotRules, WeeklyHours
from agent_service.application.repositories import Repositories
from agent_service.domain.appointments import Appointment, AppointmentStatus
from agent_service.domain.availability import DayPlan, bookable_range, plan_day
from agent_service.domain.catalog import Professional, Service, Tenant
from agent_service.domain.errors import (
    ConflictError,
    DeadlineExceededError,
    InvalidInputError,
    InvalidStateError,
    NotFoundError,
    PolicyViolationError,
    SlotUnavailableError,
)

log = structlog.get_logger("agenda.booking")
Clock = Callable[[], datetime]
Failpoint = Callable[[str], None]
"""Called with a step name of ``FAILPOINT_STEPS`` as the saga passes it (crash tests only)."""
FAILPOINT_STEPS = ("after_reserve", "after_recheck", "after_event", "before_confirm")
_PERMANENT_WRITE_ERRORS = (
    InvalidCalendarRequestError,
    CalendarNotFoundError,
    IdempotencyConflictError,
)
"""Write failures that prove no event was created; any other ``CalendarError`` is ambiguous."""
_WRITE_ATTEMPTS = 2


def _utc_now() -> datetime:
    return datetime.now(UTC)


def _no_failpoint(_step: str) -> None:
    return None


class BookingService:
    """Checks availability and books, cancels and reschedules appointments for one tenant's
    customers. Tenant and customer always come from the caller, never from the model."""

    def __init__(
        self,
        repos: Repositories,
        calendar: ICalendarAdapter,
        clock: Clock = _utc_now,
        *,
        failpoint: Failpoint = _no_failpoint,
    ) -> None:
        self._repos = repos
        self._calendar = calendar
        self._clock = clock
        self._failpoint = failpoint

    async def free_slots(
        self, tenant: Tenant, professional: Professional, day: date, duration_minutes: int
    ) -> list[datetime]:
        """Starts the professional can take on local ``day`` for a service of that length,
        within the tenant's notice and horizon."""
        plan = plan_day(professional, day, tenant.zone)
        earliest, latest = bookable_range(tenant.policy, self._clock())
        start, end = max(plan.start, earliest), min(plan.end, latest)
        if plan.closed or end <= start:
            return []
        rules = _slot_rules(tenant, plan)
        starts = await self._calendar.get_free_slots(
            professional.calendar_id, plan.start, plan.end, duration_minutes, rules
        )
        return [s for s in starts if start <= s and s + timedelta(minutes=duration_minutes) <= end]

    async def book(
        self,
        tenant_id: UUID,
        customer_id: UUID,
        professional_id: UUID,
        service_id: UUID,
        start: datetime,
        *,
        rescheduled_from: UUID | None = None,
    ) -> Appointment:
        """Reserve (holds under a unique index), re-check the calendar, write the event with
        the appointment id as idempotency key, confirm. ``SlotUnavailableError`` when taken."""
        tenant, professional, service = await self._load(tenant_id, professional_id, service_id)
        self._check_start(tenant, start)
        appointment = Appointment(
            tenant_id=tenant_id,
            customer_id=customer_id,
            professional_id=professional_id,
            service_id=service_id,
            calendar_id=professional.calendar_id,
            start=start.astimezone(UTC),
            end=(start + timedelta(minutes=service.duration_minutes)).astimezone(UTC),
            service_name=service.name,
            professional_name=professional.name,
            rescheduled_from=rescheduled_from,
        )
        _check_deadline("reserving")
        await self._repos.appointments.reserve(appointment)
        self._failpoint("after_reserve")
        try:
            await self._recheck(tenant, professional, service, appointment)
            _check_deadline("writing the calendar event")
        except Exception as error:
            await self._fail(appointment, f"not written: {error}")
            raise
        self._failpoint("after_recheck")
        return await self._write_event_and_confirm(tenant, appointment)

    async def cancel(
        self, tenant_id: UUID, appointment_id: UUID, *, reason: str, enforce_window: bool
    ) -> tuple[Appointment, bool]:
        """Cancel the appointment and its event; already cancelled → (it, False)."""
        appointment = await self._repos.appointments.get(tenant_id, appointment_id)
        if appointment.status is AppointmentStatus.CANCELLED:
            return appointment, False
        if appointment.status is not AppointmentStatus.CONFIRMED:
            raise InvalidStateError(f"appointment {appointment_id} is {appointment.status.value}")
        if enforce_window:
            tenant = await self._repos.tenants.get(tenant_id)
            self._check_window(tenant, appointment)
        if appointment.external_event_id:
            await self._calendar.cancel_event(
                appointment.calendar_id, appointment.external_event_id
            )
        cancelled = appointment.moved_to(AppointmentStatus.CANCELLED, cancel_reason=reason[:500])
        return await self._repos.appointments.save(cancelled), True

    async def reschedule(
        self, tenant_id: UUID, customer_id: UUID, appointment_id: UUID, new_start: datetime
    ) -> Appointment:
        """Book the new time first, then cancel the old one: a failure leaves the old intact."""
        old = await self.customer_appointment(tenant_id, customer_id, appointment_id)
        if old.status is not AppointmentStatus.CONFIRMED:
            raise InvalidStateError(f"appointment {appointment_id} is {old.status.value}")
        tenant = await self._repos.tenants.get(tenant_id)
        self._check_window(tenant, old)
        new = await self.book(
            tenant_id,
            customer_id,
            old.professional_id,
            old.service_id,
            new_start,
            rescheduled_from=old.id,
        )
        await self.cancel(
            tenant_id, old.id, reason=f"rescheduled to {new.id}", enforce_window=False
        )
        return new

    async def customer_appointment(
        self, tenant_id: UUID, customer_id: UUID, appointment_id: UUID
    ) -> Appointment:
        """An appointment of this customer; anybody else's is not found."""
        appointment = await self._repos.appointments.get(tenant_id, appointment_id)
        if appointment.customer_id != customer_id:
            raise NotFoundError("appointment", appointment_id)
        return appointment

    async def _load(
        self, tenant_id: UUID, professional_id: UUID, service_id: UUID
    ) -> tuple[Tenant, Professional, Service]:
        tenant = await self._repos.tenants.get(tenant_id)
        professional = await self._repos.professionals.get(tenant_id, professional_id)
        service = await self._repos.services.get(tenant_id, service_id)
        if not professional.offers(service.id):
            raise InvalidInputError(
                "service_id", f"{professional.name} does not offer {service.name}"
            )
        return tenant, professional, service

    def _check_start(self, tenant: Tenant, start: datetime) -> None:
        if start.tzinfo is None:
            raise InvalidInputError("start_time", "must include a time zone offset")
        earliest, latest = bookable_range(tenant.policy, self._clock())
        if start < earliest:
            raise PolicyViolationError(
                f"bookings need {tenant.policy.minimum_notice_minutes} minutes of notice"
            )
        if start > latest:
            raise PolicyViolationError(
                f"bookings open at most {tenant.policy.booking_horizon_days} days ahead"
            )

    def _check_window(self, tenant: Tenant, appointment: Appointment) -> None:
        window = timedelta(minutes=tenant.policy.cancellation_window_minutes)
        if appointment.start - self._clock() < window:
            raise PolicyViolationError(
                "changes must be made at least "
                f"{tenant.policy.cancellation_window_minutes} minutes before the appointment"
            )

    async def _recheck(
        self, tenant: Tenant, professional: Professional, service: Service, appointment: Appointment
    ) -> None:
        local_day = appointment.start.astimezone(tenant.zone).date()
        starts = await self.free_slots(tenant, professional, local_day, service.duration_minutes)
        if appointment.start not in starts:
            raise SlotUnavailableError("that time is not available")

    async def _write_event_and_confirm(
        self, tenant: Tenant, appointment: Appointment
    ) -> Appointment:
        try:
            event_id = await self._create_event(tenant, appointment)
        except _PERMANENT_WRITE_ERRORS as error:
            await self._fail(appointment, f"calendar refused the event: {error}")
            raise
        except CalendarError:
            # Ambiguous: the event may exist. Stay pending; the reconciler resolves it.
            log.warning("booking_left_pending", appointment_id=str(appointment.id))
            raise
        self._failpoint("after_event")
        confirmed = appointment.moved_to(AppointmentStatus.CONFIRMED, external_event_id=event_id)
        self._failpoint("before_confirm")
        try:
            return await self._repos.appointments.save(confirmed)
        except ConflictError:
            await self._withdraw_event(appointment, event_id)
            raise SlotUnavailableError(
                "the reservation lapsed before the calendar answered; choose the time again"
            ) from None

    async def _create_event(self, tenant: Tenant, appointment: Appointment) -> str:
        """Write the event, keyed by the appointment id; an ambiguous failure is tried once
        more with the same key, unless the caller's deadline passed meanwhile."""
        attempt = 1
        summary, description, references = event_content(tenant, appointment)
        while True:
            try:
                return await self._calendar.create_event(
                    appointment.calendar_id,
                    summary,
                    description,
                    appointment.start,
                    appointment.end,
                    idempotency_key=str(appointment.id),
                    time_zone=tenant.time_zone,
                    private=references,
                )
            except _PERMANENT_WRITE_ERRORS:
                raise
            except CalendarError:
                if attempt >= _WRITE_ATTEMPTS or deadline.expired():
                    raise
            log.info("event_write_retried", appointment_id=str(appointment.id))
            attempt += 1

    async def _withdraw_event(self, appointment: Appointment, event_id: str) -> None:
        """The appointment was failed meanwhile (by the reconciler): its event must go."""
        log.warning("booking_confirm_lost_race", appointment_id=str(appointment.id))
        try:
            await self._calendar.cancel_event(appointment.calendar_id, event_id)
        except CalendarError:
            log.error(
                "orphan_event_left",
                appointment_id=str(appointment.id),
                calendar_id=appointment.calendar_id,
                event_id=event_id,
            )
            raise

    async def _fail(self, appointment: Appointment, reason: str) -> None:
        failed = appointment.moved_to(AppointmentStatus.FAILED, cancel_reason=reason[:500])
        await self._repos.appointments.save(failed)


def event_content(tenant: Tenant, appointment: Appointment) -> tuple[str, str, dict[str, str]]:
    """Summary, description and private references of an appointment's event: what was
    booked with whom, never who booked it; the ids are opaque references in private
    properties only (everyone who can read the calendar reads descriptions)."""
    summary = f"{appointment.service_name} — {appointment.professional_name}"
    references = {"agendaTenant": str(tenant.id), "agendaAppointment": str(appointment.id)}
    return summary, "Booked through Agenda.", references


def _check_deadline(step: str) -> None:
    """Refuse to start ``step`` once the caller's deadline has passed."""
    if deadline.expired():
        raise DeadlineExceededError(f"the request's deadline passed before {step}; not booked")


def _slot_rules(tenant: Tenant, plan: DayPlan) -> SlotRules:
    return SlotRules(
        time_zone=tenant.time_zone,
        weekly_hours=tuple(
            WeeklyHours(day_of_week=h.day_of_week, start=h.start, end=h.end) for h in plan.weekly
        ),
        windows=tuple(Interval(start, end) for start, end in plan.windows),
        step_minutes=tenant.policy.slot_step_minutes,
        max_results=500,
    )
