"""Availability, booking, cancelling and rescheduling: the saga of DESIGN §5.

Invariant after any fault: every confirmed appointment has exactly one calendar event, no
event exists without its appointment, and failed bookings hold no slot.

Failure rules of ``book``:
- before the event write nothing is ambiguous: any error (slot taken, calendar down, the
  caller's deadline passed) marks the appointment failed, releasing its holds, and re-raises;
- no event write starts once the caller's deadline (``agenda_kit.deadline``) has passed;
- a write refused for a reason that proves no event exists (bad request, unknown calendar,
  key conflict) fails the appointment; any other write failure is ambiguous: one more try
  with the same idempotency key, then the appointment stays pending (``awaiting_notice``)
  and ``BookingPendingError`` says so: "pending means pending" — the reconciler settles it
  and the customer hears the outcome through the outbox;
- a confirm refused because the reconciler failed the appointment meanwhile cancels the
  event just written; if that cancel fails the event is recorded (``orphan_event_id``) and
  the reconciler's orphan sweep cancels it, so no orphan remains;
- once the holds are taken, the rest of the saga runs shielded from the caller's
  cancellation: it finishes (or compensates) on its own and its outcome is stored.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from datetime import UTC, date, datetime, timedelta
from uuid import UUID, uuid4, uuid5

import structlog

from agenda_kit import deadline
from agenda_kit.calendar.errors import (
    CalendarError,
    CalendarNotFoundError,
    CalendarUnavailableError,
    IdempotencyConflictError,
    InvalidCalendarRequestError,
)
from agenda_kit.calendar.port import ICalendarAdapter, Interval, SlotRules, WeeklyHours
from agent_service.application.moves import MoveSaga, check_movable
from agent_service.application.repositories import Repositories
from agent_service.domain.appointments import Appointment, AppointmentStatus
from agent_service.domain.availability import DayPlan, bookable_range, plan_day, works_through
from agent_service.domain.catalog import Professional, Service, Tenant
from agent_service.domain.errors import (
    BookingPendingError,
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
        self,
        tenant: Tenant,
        professional: Professional,
        day: date,
        duration_minutes: int,
        *,
        fresh: bool = False,
    ) -> list[datetime]:
        """Starts the professional can take on local ``day`` for a service of that length,
        within the tenant's notice and horizon; ``fresh`` reads past every cache."""
        plan = plan_day(professional, day, tenant.zone)
        earliest, latest = bookable_range(tenant.policy, self._clock())
        start, end = max(plan.start, earliest), min(plan.end, latest)
        if plan.closed or end <= start:
            return []
        rules = _slot_rules(tenant, plan)
        starts = await self._calendar.get_free_slots(
            professional.calendar_id, plan.start, plan.end, duration_minutes, rules, fresh=fresh
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
        request_key: str | None = None,
    ) -> Appointment:
        """Reserve (holds under a unique index), re-check the calendar, write the event with
        the appointment id as idempotency key, confirm. ``SlotUnavailableError`` when taken.

        ``request_key`` (the channel message that confirmed it) makes the appointment id
        deterministic: a redelivery of that message after its first handler died resumes
        the same appointment (never "taken" by its own hold) and gets its true outcome."""
        tenant, professional, service = await self._load(tenant_id, professional_id, service_id)
        appointment_id = _appointment_id(
            tenant_id, customer_id, professional_id, service_id, start, request_key
        )
        if request_key is not None:
            resumed = await self._resume(tenant, professional, service, appointment_id)
            if resumed is not None:
                return resumed
        self._check_start(tenant, start)
        appointment = Appointment(
            id=appointment_id,
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
            created_at=self._clock(),
            updated_at=self._clock(),
        )
        _check_deadline("reserving")
        await self._repos.appointments.reserve(appointment)
        self._failpoint("after_reserve")
        return await shielded(self._after_reserve(tenant, professional, service, appointment))

    async def _resume(
        self, tenant: Tenant, professional: Professional, service: Service, appointment_id: UUID
    ) -> Appointment | None:
        """The appointment a previous delivery of the same request made, settled: confirmed
        → it; failed → why; pending → finish its saga (its event, if written, is found by
        key). None when there is none."""
        try:
            existing = await self._repos.appointments.get(tenant.id, appointment_id)
        except NotFoundError:
            return None
        if existing.status is AppointmentStatus.PENDING:
            log.info("booking_resumed", appointment_id=str(existing.id))
            return await shielded(self._finish_resumed(tenant, professional, service, existing))
        if existing.status is AppointmentStatus.FAILED:
            raise SlotUnavailableError(f"not booked: {existing.cancel_reason or 'not free'}")
        if existing.status is AppointmentStatus.CANCELLED:
            raise InvalidStateError(f"appointment {existing.id} was booked and since cancelled")
        return existing

    async def _finish_resumed(
        self, tenant: Tenant, professional: Professional, service: Service, appointment: Appointment
    ) -> Appointment:
        event_id = await self._event_by_key(appointment)
        if event_id is None:
            return await self._after_reserve(tenant, professional, service, appointment)
        confirmed = appointment.moved_to(AppointmentStatus.CONFIRMED, external_event_id=event_id)
        try:
            return await self._repos.appointments.save(confirmed)
        except ConflictError:
            return await self._repos.appointments.get(appointment.tenant_id, appointment.id)

    async def _event_by_key(self, appointment: Appointment) -> str | None:
        page = await self._calendar.list_events(
            appointment.calendar_id, appointment.start, appointment.end, page_size=100
        )
        key = str(appointment.id)
        return next((e.event_id for e in page.events if e.idempotency_key == key), None)

    async def _after_reserve(
        self, tenant: Tenant, professional: Professional, service: Service, appointment: Appointment
    ) -> Appointment:
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
        if appointment.moving_to is not None:
            raise InvalidStateError(f"appointment {appointment_id} is being moved; retry shortly")
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
        self,
        tenant_id: UUID,
        customer_id: UUID,
        appointment_id: UUID,
        new_start: datetime,
        *,
        expected_start: datetime | None = None,
    ) -> Appointment:
        """Move the appointment (same id, same event) to ``new_start``: one operation, see
        ``moves``. ``expected_start``: refuse if it was moved since the caller looked."""
        old = await self.customer_appointment(tenant_id, customer_id, appointment_id)
        check_movable(old, expected_start)
        tenant, professional, service = await self._load(
            tenant_id, old.professional_id, old.service_id
        )
        self._check_window(tenant, old)
        self._check_start(tenant, new_start)
        if new_start == old.start:
            return old
        _check_deadline("reserving the new time")
        moving = await self._repos.appointments.begin_move(old, new_start.astimezone(UTC))

        async def recheck(appointment: Appointment, start: datetime) -> None:
            await self._recheck_move(tenant, professional, service, appointment, start)
            _check_deadline("moving the calendar event")

        return await shielded(MoveSaga(self._repos, self._calendar).run(moving, recheck))

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
        """The calendar itself, read fresh (no cache on either side): the holds only know
        bookings made here, not events written by people or other products."""
        local_day = appointment.start.astimezone(tenant.zone).date()
        starts = await self.free_slots(
            tenant, professional, local_day, service.duration_minutes, fresh=True
        )
        if appointment.start not in starts:
            raise SlotUnavailableError("that time is not available")

    async def _recheck_move(
        self,
        tenant: Tenant,
        professional: Professional,
        service: Service,
        moving: Appointment,
        start: datetime,
    ) -> None:
        """As ``_recheck`` for the new time; where it overlaps the appointment's own time,
        the calendar's busy time minus the appointment's own event must be empty."""
        end = start + moving.duration
        if end <= moving.start or moving.end <= start:
            probe = moving.model_copy(update={"start": start, "end": end})
            await self._recheck(tenant, professional, service, probe)
            return
        day = start.astimezone(tenant.zone).date()
        if not works_through(
            plan_day(professional, day, tenant.zone), day, tenant.zone, start, end
        ):
            raise SlotUnavailableError("that time is outside working hours")
        (found,) = await self._calendar.query_free_busy(
            [moving.calendar_id], start, end, fresh=True
        )
        if found.error is not None:
            raise CalendarUnavailableError(found.error)
        if any(b.start < moving.start or b.end > moving.end for b in found.busy):
            raise SlotUnavailableError("that time is not available")

    async def _write_event_and_confirm(
        self, tenant: Tenant, appointment: Appointment
    ) -> Appointment:
        try:
            event_id = await self._create_event(tenant, appointment)
        except _PERMANENT_WRITE_ERRORS as error:
            await self._fail(appointment, f"calendar refused the event: {error}")
            raise
        except CalendarError as error:
            # Ambiguous: the event may exist. Stay pending; the reconciler resolves it.
            log.warning("booking_left_pending", appointment_id=str(appointment.id))
            return await self._left_pending(appointment, error)
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

    async def _left_pending(self, appointment: Appointment, error: CalendarError) -> Appointment:
        """Mark it ``awaiting_notice`` (the customer is told it is being confirmed) and raise
        ``BookingPendingError``; if the reconciler settled it meanwhile, that outcome stands."""
        try:
            await self._repos.appointments.save(
                appointment.model_copy(update={"awaiting_notice": True})
            )
        except ConflictError:
            settled = await self._repos.appointments.get(appointment.tenant_id, appointment.id)
            if settled.status is AppointmentStatus.CONFIRMED:
                return settled
            raise error from None
        raise BookingPendingError(appointment.id, str(error)) from error

    async def _withdraw_event(self, appointment: Appointment, event_id: str) -> None:
        """The appointment was failed meanwhile (by the reconciler): its event must go. It is
        recorded first, so a failed cancel leaves it to the reconciler's orphan sweep."""
        log.warning("booking_confirm_lost_race", appointment_id=str(appointment.id))
        appointments = self._repos.appointments
        await appointments.set_orphan_event(appointment.tenant_id, appointment.id, event_id)
        try:
            await self._calendar.cancel_event(appointment.calendar_id, event_id)
        except CalendarError as error:
            log.warning(
                "orphan_event_left_to_sweep",
                appointment_id=str(appointment.id),
                event_id=event_id,
                error=str(error),
            )
            return
        await appointments.set_orphan_event(appointment.tenant_id, appointment.id, None)

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


_REQUEST_NAMESPACE = UUID("0f5b8a3e-7c61-4a0e-b1d2-5e9c4f7a2d30")


def _appointment_id(
    tenant_id: UUID,
    customer_id: UUID,
    professional_id: UUID,
    service_id: UUID,
    start: datetime,
    request_key: str | None,
) -> UUID:
    if request_key is None:
        return uuid4()
    name = f"{tenant_id}:{customer_id}:{request_key}:{professional_id}:{service_id}:"
    return uuid5(_REQUEST_NAMESPACE, name + start.astimezone(UTC).isoformat())


async def shielded(work: Coroutine[object, object, Appointment]) -> Appointment:
    """Run ``work`` to its end even if the caller is cancelled (its deadline passed, the
    client went away): a saga half done is worse than one finished late. The caller still
    sees its cancellation; the outcome is stored, and logged if it is an error."""
    task = asyncio.ensure_future(work)
    try:
        return await asyncio.shield(task)
    except asyncio.CancelledError:
        task.add_done_callback(_log_orphaned_outcome)
        raise


def _log_orphaned_outcome(task: asyncio.Future[Appointment]) -> None:
    if task.cancelled():
        log.warning("saga_cancelled_at_shutdown")
    elif task.exception() is not None:
        log.info("saga_finished_after_caller_left", outcome=type(task.exception()).__name__)
    else:
        log.info("saga_finished_after_caller_left", outcome="confirmed")


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
