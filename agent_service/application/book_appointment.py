# Over 300 lines: one saga; its reservation, resume, event write and compensations share rules.
"""Booking an appointment: the saga of docs/architecture.md#a-booking-from-the-tool-to-google.

Invariant after any fault: every confirmed appointment has exactly one calendar event, no
event exists without its appointment, and failed bookings hold no slot.

One booking guarantee: the calendar service's create-if-free. The appointment is reserved
(pending, unique by id: a redelivery resumes it) and the event is written with
``ConflictPolicy.REJECT``: the service takes the calendar's time atomically (across its
replicas and every client writing that calendar), reads its busy time fresh and refuses a
taken time with ``SlotTakenError`` — which fails the appointment and reaches the caller as
``SlotUnavailableError``. The agent takes no holds of its own.

Failure rules of ``BookAppointment.execute``:
- before the event write nothing is ambiguous: any error (off the working hours or grid,
  the caller's deadline passed) marks the appointment failed and re-raises;
- no event write starts once the caller's deadline (``agenda_kit.deadline``) has passed;
- a write refused for a reason that proves no event exists (time taken, bad request,
  unknown or unshared calendar, refused credentials, key conflict) fails the appointment;
  any other write failure is ambiguous: one more try with the same idempotency key, then
  the appointment stays pending (``awaiting_notice``) and ``BookingPendingError`` says so:
  "pending means pending" — the reconciler settles it and the customer hears the outcome
  through the outbox;
- a confirm refused because the reconciler failed the appointment meanwhile cancels the
  event just written; if that cancel fails the event is recorded (``orphan_event_id``) and
  the reconciler's orphan sweep cancels it, so no orphan remains;
- once reserved, the rest of the saga runs shielded from the caller's cancellation: it
  finishes (or compensates) on its own and its outcome is stored.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from uuid import UUID

import structlog

from agenda_kit.calendar.errors import (
    CalendarAccessDeniedError,
    CalendarCredentialsError,
    CalendarError,
    CalendarNotFoundError,
    IdempotencyConflictError,
    InvalidCalendarRequestError,
    SlotTakenError,
)
from agenda_kit.calendar.port import ICalendarAdapter
from agenda_kit.retrying import RetryPolicy, retrying
from agent_service.application.booking_rules import (
    Clock,
    appointment_id_for,
    check_deadline,
    check_start,
    load_offer,
    shielded,
    utc_now,
)
from agent_service.application.free_slots import BookableCheck
from agent_service.application.repositories import Repositories
from agent_service.domain.appointments import Appointment, AppointmentStatus
from agent_service.domain.catalog import Professional, Service, Tenant
from agent_service.domain.errors import (
    BookingPendingError,
    ConflictError,
    DeadlineExceededError,
    InvalidStateError,
    NotFoundError,
    PolicyViolationError,
    SlotUnavailableError,
)

log = structlog.get_logger("agenda.booking")
Failpoint = Callable[[str], None]
"""Called with a step name of ``FAILPOINT_STEPS`` as the saga passes it (crash tests only)."""
FAILPOINT_STEPS = ("after_reserve", "after_recheck", "after_event", "before_confirm")
_PERMANENT_WRITE_ERRORS = (
    SlotTakenError,
    InvalidCalendarRequestError,
    CalendarNotFoundError,
    CalendarAccessDeniedError,
    CalendarCredentialsError,
    IdempotencyConflictError,
)
"""Write failures that prove no event was created; any other ``CalendarError`` is ambiguous."""
_WRITE_ATTEMPTS = 2


def _no_failpoint(_step: str) -> None:
    return None


class BookAppointment:
    """Books a slot for one tenant's customer. Tenant and customer always come from the
    caller, never from the model."""

    def __init__(
        self,
        repos: Repositories,
        calendar: ICalendarAdapter,
        bookable: BookableCheck,
        clock: Clock = utc_now,
        *,
        failpoint: Failpoint = _no_failpoint,
    ) -> None:
        self._repos = repos
        self._calendar = calendar
        self._bookable = bookable
        self._clock = clock
        self._failpoint = failpoint

    async def execute(
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
        """Reserve (the pending appointment, unique by id), check the agent's own rules of
        the time, write the event create-if-free with the appointment id as idempotency key,
        confirm. ``SlotUnavailableError`` when the time is taken.

        ``request_key`` (the channel message that confirmed it) makes the appointment id
        deterministic: a redelivery of that message after its first handler died resumes
        the same appointment (never "taken" by its own hold) and gets its true outcome."""
        tenant, professional, service = await load_offer(
            self._repos, tenant_id, professional_id, service_id
        )
        appointment_id = appointment_id_for(
            tenant_id, customer_id, professional_id, service_id, start, request_key
        )
        try:
            check_start(tenant, start, self._clock())
            check_deadline("reserving")
        except (PolicyViolationError, DeadlineExceededError):
            # Too late to start anew; a redelivery still finishes what its first delivery began.
            earlier = await self._stored(tenant_id, appointment_id, request_key)
            if earlier is None:
                raise
            return await self._resume(tenant, professional, service, earlier)
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
        # A redelivery's id meets what its first delivery stored: nothing written, resumed.
        earlier = await self._repos.appointments.reserve(appointment)
        if earlier is not None:
            return await self._resume(tenant, professional, service, earlier)
        self._failpoint("after_reserve")
        return await shielded(self._after_reserve(tenant, professional, service, appointment))

    async def _stored(
        self, tenant_id: UUID, appointment_id: UUID, key: str | None
    ) -> Appointment | None:
        """The appointment an earlier delivery of the same request stored, if any."""
        try:
            return (
                None
                if key is None
                else await self._repos.appointments.get(tenant_id, appointment_id)
            )
        except NotFoundError:
            return None

    async def _resume(
        self, tenant: Tenant, professional: Professional, service: Service, existing: Appointment
    ) -> Appointment:
        """What an earlier delivery of the request (or attempt) stored, settled: confirmed →
        it; failed → why; pending → finish its saga (its event, if written, found by key)."""
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
            self._bookable.booking(tenant, professional, service, appointment)
            check_deadline("writing the calendar event")
        except Exception as error:
            await self._fail(appointment, f"not written: {error}")
            raise
        self._failpoint("after_recheck")
        return await self._write_event_and_confirm(tenant, appointment)

    async def _write_event_and_confirm(
        self, tenant: Tenant, appointment: Appointment
    ) -> Appointment:
        try:
            event_id = await self._create_event(tenant, appointment)
        except SlotTakenError as error:
            await self._fail(appointment, f"not free: {error}")
            raise SlotUnavailableError("that time was just taken") from error
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
        summary, description, references = event_content(tenant, appointment)
        async for attempt in retrying(
            RetryPolicy(max_attempts=_WRITE_ATTEMPTS, backoff_base=0),
            retry_if=_ambiguous,
            on_retry=lambda _n, _s: log.info(
                "event_write_retried", appointment_id=str(appointment.id)
            ),
        ):
            with attempt:
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
        raise AssertionError("unreachable: retrying re-raises the last failure")

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


def _ambiguous(error: BaseException) -> bool:
    """A write failure that does not prove the event is absent (retried with the same key;
    ``retrying`` stops once the caller's deadline has passed)."""
    return isinstance(error, CalendarError) and not isinstance(error, _PERMANENT_WRITE_ERRORS)


def event_content(tenant: Tenant, appointment: Appointment) -> tuple[str, str, dict[str, str]]:
    """Summary, description and private references of an appointment's event: what was
    booked with whom, never who booked it; the ids are opaque references in private
    properties only (everyone who can read the calendar reads descriptions)."""
    summary = f"{appointment.service_name} — {appointment.professional_name}"
    references = {"agendaTenant": str(tenant.id), "agendaAppointment": str(appointment.id)}
    return summary, "Booked through Agenda.", references
