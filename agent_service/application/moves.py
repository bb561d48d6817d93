"""Rescheduling as one operation (issue 11 §5): the appointment keeps its id and history.

1. ``begin_move``: ``moving_to`` is recorded, guarded by the stored state (confirmed, at the
   start the caller saw, no move in progress) — of concurrent reschedules of one appointment
   exactly one gets past this step;
2. the agent's own rules of the new time are checked (working hours, grid);
3. the event is MOVED (``move_event``: same event id), create-if-free: the calendar service
   takes the new time atomically, ignoring the event's own, and refuses a taken one
   (``SlotTakenError`` → ``SlotUnavailableError``);
4. ``finish_move``: start/end change, the old start goes to ``previous_starts``.
Any failure before the move, or a move refused, aborts: nothing is visible. An ambiguous move
is undone by moving the event back (idempotent: the service still holds the old time for it);
if even that does not answer, the appointment stays "moving" and the reconciler settles it.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import datetime

import structlog

from agenda_kit.calendar.errors import (
    CalendarAccessDeniedError,
    CalendarCredentialsError,
    CalendarError,
    EventNotFoundError,
    InvalidCalendarRequestError,
    SlotTakenError,
)
from agenda_kit.calendar.port import ICalendarAdapter
from agent_service.application.repositories import Repositories
from agent_service.domain.appointments import Appointment, AppointmentStatus
from agent_service.domain.errors import (
    BookingPendingError,
    DeadlineExceededError,
    InvalidStateError,
    SlotUnavailableError,
)

log = structlog.get_logger("agenda.booking")
_REFUSED = (
    EventNotFoundError,
    DeadlineExceededError,
    InvalidCalendarRequestError,
    CalendarAccessDeniedError,
    CalendarCredentialsError,
)
"""Move failures that prove the event did not move: nothing to undo."""
Recheck = Callable[[Appointment, datetime], Awaitable[None]]
"""Raises ``SlotUnavailableError`` unless the appointment may move to that start."""


class MoveSaga:
    def __init__(self, repos: Repositories, calendar: ICalendarAdapter) -> None:
        self._repos = repos
        self._calendar = calendar

    async def run(self, moving: Appointment, recheck: Recheck) -> Appointment:
        """``moving`` has its new holds (``begin_move``); move the event and finish."""
        assert moving.moving_to is not None
        try:
            await recheck(moving, moving.moving_to)
        except Exception:
            await self._repos.appointments.abort_move(moving)
            raise
        try:
            await self._move_event(moving, moving.moving_to)
        except SlotTakenError as error:
            await self._repos.appointments.abort_move(moving)
            raise SlotUnavailableError("that time was just taken") from error
        except _REFUSED:
            await self._repos.appointments.abort_move(moving)
            raise
        except CalendarError as error:
            return await self._undo(moving, error)
        return await self._repos.appointments.finish_move(moving)

    async def settle(self, moving: Appointment) -> Appointment:
        """The reconciler's resolution of a move left in progress: where is the event?"""
        assert moving.moving_to is not None and moving.external_event_id is not None
        try:
            event = await self._calendar.get_event(moving.calendar_id, moving.external_event_id)
        except EventNotFoundError:  # deleted outside Agenda: nothing to move; free the new time
            return await self._repos.appointments.abort_move(moving)
        if event.start == moving.moving_to and event.status != "cancelled":
            return await self._repos.appointments.finish_move(moving)
        await self._move_event(moving, moving.start)
        return await self._repos.appointments.abort_move(moving)

    async def _undo(self, moving: Appointment, error: CalendarError) -> Appointment:
        log.warning("move_ambiguous", appointment_id=str(moving.id), error=str(error))
        try:
            await self._move_event(moving, moving.start)
        except CalendarError:
            raise BookingPendingError(moving.id, str(error)) from error
        await self._repos.appointments.abort_move(moving)
        raise error

    async def _move_event(self, appointment: Appointment, start: datetime) -> None:
        if appointment.external_event_id is None:
            raise InvalidStateError(f"appointment {appointment.id} has no calendar event")
        await self._calendar.move_event(
            appointment.calendar_id,
            appointment.external_event_id,
            start,
            start + appointment.duration,
        )


def check_movable(appointment: Appointment, expected_start: datetime | None) -> None:
    if appointment.status is not AppointmentStatus.CONFIRMED:
        raise InvalidStateError(f"appointment {appointment.id} is {appointment.status.value}")
    if appointment.moving_to is not None:
        raise SlotUnavailableError("this appointment is already being moved; try again shortly")
    if expected_start is not None and appointment.start != expected_start:
        raise SlotUnavailableError("this appointment was changed meanwhile; check it again")
