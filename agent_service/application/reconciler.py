"""Resolves bookings left pending by a crash or an ambiguous calendar failure."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import structlog

from agenda_kit.calendar.errors import CalendarError
from agenda_kit.calendar.port import ICalendarAdapter
from agent_service.application.repositories import Repositories
from agent_service.domain.appointments import Appointment, AppointmentStatus
from agent_service.domain.errors import ConflictError

log = structlog.get_logger("agenda.reconciler")


@dataclass(frozen=True, slots=True)
class ReconcileReport:
    confirmed: int = 0
    released: int = 0
    unresolved: int = 0


class Reconciler:
    """For each appointment pending longer than ``grace``: find its event by idempotency key
    (= appointment id). Found → confirm with that event; absent → mark failed, releasing the
    holds; calendar unreachable → leave it for the next pass. If the booking itself settled
    the appointment meanwhile (the save is refused with ``ConflictError``), the booking's
    outcome stands and the pass goes on; if it confirms after being failed here, the booking
    withdraws its event (see ``BookingService``)."""

    def __init__(
        self,
        repos: Repositories,
        calendar: ICalendarAdapter,
        *,
        grace: timedelta = timedelta(minutes=2),
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
    ) -> None:
        self._repos = repos
        self._calendar = calendar
        self._grace = grace
        self._clock = clock

    async def run_once(self, limit: int = 200) -> ReconcileReport:
        stale = await self._repos.appointments.stale_pending(self._clock() - self._grace, limit)
        confirmed = released = unresolved = 0
        for appointment in stale:
            try:
                event_id = await self._find_event(appointment)
            except CalendarError as error:
                log.warning(
                    "reconcile_deferred", appointment_id=str(appointment.id), error=str(error)
                )
                unresolved += 1
                continue
            if not await self._settle(appointment, event_id):
                unresolved += 1
            elif event_id is None:
                released += 1
            else:
                confirmed += 1
        return ReconcileReport(confirmed, released, unresolved)

    async def _settle(self, appointment: Appointment, event_id: str | None) -> bool:
        """Confirm with ``event_id`` or (None) fail; False when the booking got there first."""
        if event_id is None:
            settled = appointment.moved_to(
                AppointmentStatus.FAILED, cancel_reason="no calendar event"
            )
        else:
            settled = appointment.moved_to(AppointmentStatus.CONFIRMED, external_event_id=event_id)
        try:
            await self._repos.appointments.save(settled)
        except ConflictError:
            log.info("reconcile_raced_booking", appointment_id=str(appointment.id))
            return False
        return True

    async def _find_event(self, appointment: Appointment) -> str | None:
        key = str(appointment.id)
        token: str | None = None
        while True:
            page = await self._calendar.list_events(
                appointment.calendar_id,
                appointment.start,
                appointment.end,
                page_size=100,
                page_token=token,
            )
            for event in page.events:
                if event.idempotency_key == key:
                    return event.event_id
            if page.next_page_token is None:
                return None
            token = page.next_page_token
