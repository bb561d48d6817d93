"""Cancelling an appointment and its calendar event (customers and the back office)."""

from __future__ import annotations

from uuid import UUID

from agenda_kit.calendar.port import ICalendarAdapter
from agent_service.application.booking_rules import Clock, check_window, utc_now
from agent_service.application.repositories import Repositories
from agent_service.domain.appointments import Appointment, AppointmentStatus
from agent_service.domain.errors import InvalidStateError


class CancelAppointment:
    """Cancels a confirmed appointment and its event (``AppointmentCanceller``)."""

    def __init__(
        self, repos: Repositories, calendar: ICalendarAdapter, clock: Clock = utc_now
    ) -> None:
        self._repos = repos
        self._calendar = calendar
        self._clock = clock

    async def execute(
        self, tenant_id: UUID, appointment_id: UUID, *, reason: str, enforce_window: bool
    ) -> tuple[Appointment, bool]:
        """Cancel the appointment and its event; already cancelled → (it, False).
        ``enforce_window`` applies the tenant's cancellation window (customers)."""
        appointment = await self._repos.appointments.get(tenant_id, appointment_id)
        if appointment.status is AppointmentStatus.CANCELLED:
            return appointment, False
        if appointment.status is not AppointmentStatus.CONFIRMED:
            raise InvalidStateError(f"appointment {appointment_id} is {appointment.status.value}")
        if appointment.moving_to is not None:
            raise InvalidStateError(f"appointment {appointment_id} is being moved; retry shortly")
        if enforce_window:
            tenant = await self._repos.tenants.get(tenant_id)
            check_window(tenant, appointment, self._clock())
        if appointment.external_event_id:
            await self._calendar.cancel_event(
                appointment.calendar_id, appointment.external_event_id
            )
        cancelled = appointment.moved_to(AppointmentStatus.CANCELLED, cancel_reason=reason[:500])
        return await self._repos.appointments.save(cancelled), True
