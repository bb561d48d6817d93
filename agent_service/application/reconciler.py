"""Settles what a turn could not: bookings left pending, moves left in progress, events left
behind by failed bookings, and the customers waiting to hear the outcome.

One clock: which appointments are due is decided by the store with ITS clock (``updated_at``
and ``next_attempt_at`` are stamped by the store), so a replica whose clock is off never fails
another replica's in-flight booking. Fairness: an appointment the calendar could not settle is
deferred with exponential backoff (``next_attempt_at``), and appointments never tried come
first, so stuck ones cannot starve the others.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

import structlog

from agenda_kit.calendar.errors import CalendarError, CalendarNotFoundError, EventNotFoundError
from agenda_kit.calendar.port import ICalendarAdapter
from agent_service.application.moves import MoveSaga
from agent_service.application.notices import SettledNotices
from agent_service.application.repositories import Repositories
from agent_service.domain.appointments import Appointment, AppointmentStatus
from agent_service.domain.errors import AgendaError, ConflictError, NotFoundError
from agent_service.domain.outbox import OutboxKind

log = structlog.get_logger("agenda.reconciler")
BACKOFF_BASE = timedelta(seconds=30)
BACKOFF_MAX = timedelta(minutes=15)
_SCAN_FACTOR = 10
"""A pass reads at most this many times ``limit`` due appointments."""


@dataclass(frozen=True, slots=True)
class ReconcileReport:
    confirmed: int = 0
    released: int = 0
    unresolved: int = 0
    moves_settled: int = 0
    orphans_cancelled: int = 0
    notices: int = 0


def backoff(attempts: int) -> timedelta:
    """30 s, 1 min, 2 min … capped at 15 min, for the attempt after ``attempts`` failures."""
    return min(BACKOFF_MAX, BACKOFF_BASE * (1 << min(attempts, 10)))


class Reconciler:
    """For each pending appointment due: find its event by idempotency key (= appointment
    id). Found → confirm with that event; absent → mark failed, releasing the holds; calendar
    unreachable → defer with backoff. If the booking itself settled the appointment meanwhile
    (the save is refused with ``ConflictError``), the booking's outcome stands; if it confirms
    after being failed here, the booking withdraws its event (see ``BookAppointment``), and a
    withdrawal that fails is swept here."""

    def __init__(
        self,
        repos: Repositories,
        calendar: ICalendarAdapter,
        *,
        grace: timedelta = timedelta(minutes=2),
    ) -> None:
        self._repos = repos
        self._calendar = calendar
        self._grace = grace
        self._notices = SettledNotices(repos)
        self._moves = MoveSaga(repos, calendar)

    async def run_once(self, limit: int = 200) -> ReconcileReport:
        await self._check_failed_for_events(limit)  # first: never in the pass that failed it
        confirmed, released, unresolved = await self._settle_pending(limit)
        moves = await self._settle_moves(limit)
        orphans = await self._sweep_orphans(limit)
        notices = await self._send_notices(limit)
        return ReconcileReport(confirmed, released, unresolved, moves, orphans, notices)

    async def _settle_pending(self, limit: int) -> tuple[int, int, int]:
        """Up to ``limit`` calendar look-ups per pass. A calendar that failed once in this pass
        is not asked again: its other due appointments are deferred without a call (and do not
        count), so one unreachable calendar cannot use up the pass."""
        confirmed = released = unresolved = 0
        unreachable: set[str] = set()
        lookups = scanned = 0
        while lookups < limit and scanned < _SCAN_FACTOR * limit:
            due = await self._repos.appointments.due_pending(self._grace, limit)
            if not due:
                break
            for appointment in due:
                scanned += 1
                if appointment.calendar_id in unreachable:
                    await self._defer(appointment, "calendar unreachable in this pass")
                    unresolved += 1
                    continue
                if lookups >= limit:
                    break
                lookups += 1
                try:
                    event_id = await self._find_event(appointment)
                except CalendarError as error:
                    unreachable.add(appointment.calendar_id)
                    await self._defer(appointment, str(error))
                    unresolved += 1
                    continue
                if not await self._settle(appointment, event_id):
                    unresolved += 1
                elif event_id is None:
                    released += 1
                else:
                    confirmed += 1
        return confirmed, released, unresolved

    async def _defer(self, appointment: Appointment, why: str) -> None:
        delay = backoff(appointment.attempts)
        log.warning(
            "reconcile_deferred",
            appointment_id=str(appointment.id),
            error=why,
            retry_in=delay.total_seconds(),
        )
        await self._repos.appointments.defer(appointment, delay)

    async def _settle(self, appointment: Appointment, event_id: str | None) -> bool:
        """Confirm with ``event_id`` or (None) fail; False when the booking got there first."""
        if event_id is None:
            settled = appointment.moved_to(
                AppointmentStatus.FAILED, cancel_reason="no calendar event", event_check_due=True
            )
        else:
            settled = appointment.moved_to(AppointmentStatus.CONFIRMED, external_event_id=event_id)
        try:
            await self._repos.appointments.save(settled)
        except ConflictError:
            log.info("reconcile_raced_booking", appointment_id=str(appointment.id))
            return False
        return True

    async def _settle_moves(self, limit: int) -> int:
        settled = 0
        for moving in await self._repos.appointments.stale_moves(self._grace, limit):
            try:
                result = await self._moves.settle(moving)
            except (CalendarError, AgendaError) as error:
                log.warning("move_settle_deferred", appointment_id=str(moving.id), error=str(error))
                continue
            kind = (
                OutboxKind.RESCHEDULE_CONFIRMED
                if result.start != moving.start
                else OutboxKind.RESCHEDULE_FAILED
            )
            settled += 1
            try:
                await self._notices.notify(result, kind)
            except NotFoundError as error:  # the customer or tenant is gone: nobody to tell
                log.warning("notice_dropped", appointment_id=str(moving.id), error=str(error))
        return settled

    async def _check_failed_for_events(self, limit: int) -> None:
        """An appointment failed here while its write was in flight whose event landed after
        all, and whose booking process died before withdrawing it: find it by key once the
        grace passed and record it as an orphan (swept below)."""
        for appointment in await self._repos.appointments.due_event_checks(self._grace, limit):
            try:
                event_id = await self._find_event(appointment)
            except CalendarError as error:
                log.warning(
                    "event_check_deferred", appointment_id=str(appointment.id), error=str(error)
                )
                continue
            if event_id is not None:
                log.warning("late_event_found", appointment_id=str(appointment.id))
                await self._repos.appointments.set_orphan_event(
                    appointment.tenant_id, appointment.id, event_id
                )
            await self._repos.appointments.clear_event_check(appointment.tenant_id, appointment.id)

    async def _sweep_orphans(self, limit: int) -> int:
        """Cancel the events recorded on failed/cancelled appointments; retried every pass
        until the calendar confirms, then the record is cleared."""
        cancelled = 0
        for appointment in await self._repos.appointments.with_orphan_events(limit):
            event_id = appointment.orphan_event_id
            assert event_id is not None
            try:
                await self._calendar.cancel_event(appointment.calendar_id, event_id)
            except (EventNotFoundError, CalendarNotFoundError):
                pass  # nothing left to cancel
            except CalendarError as error:
                log.warning(
                    "orphan_cancel_retry", appointment_id=str(appointment.id), error=str(error)
                )
                continue
            await self._repos.appointments.set_orphan_event(
                appointment.tenant_id, appointment.id, None
            )
            cancelled += 1
        return cancelled

    async def _send_notices(self, limit: int) -> int:
        sent = 0
        for appointment in await self._repos.appointments.settled_awaiting_notice(limit):
            try:
                await self._notices.notify(appointment)
            except NotFoundError as error:  # the customer or tenant is gone: nobody to tell
                log.warning("notice_dropped", appointment_id=str(appointment.id), error=str(error))
                await self._repos.appointments.clear_awaiting_notice(
                    appointment.tenant_id, appointment.id
                )
                continue
            sent += 1
        return sent

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
