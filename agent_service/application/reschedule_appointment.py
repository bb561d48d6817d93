"""Rescheduling a customer's appointment: one operation, see ``moves``."""

from __future__ import annotations

from datetime import UTC, datetime
from uuid import UUID

from agenda_kit.calendar.port import ICalendarAdapter
from agent_service.application.booking_rules import (
    Clock,
    GetCustomerAppointment,
    check_deadline,
    check_start,
    check_window,
    load_offer,
    shielded,
    utc_now,
)
from agent_service.application.free_slots import BookableCheck
from agent_service.application.moves import MoveSaga, check_movable
from agent_service.application.repositories import Repositories
from agent_service.domain.appointments import Appointment


class RescheduleAppointment:
    """Moves a customer's appointment (same id, same event) to a new start."""

    def __init__(
        self,
        repos: Repositories,
        calendar: ICalendarAdapter,
        bookable: BookableCheck,
        clock: Clock = utc_now,
    ) -> None:
        self._repos = repos
        self._calendar = calendar
        self._bookable = bookable
        self._clock = clock
        self._find = GetCustomerAppointment(repos)

    async def execute(
        self,
        tenant_id: UUID,
        customer_id: UUID,
        appointment_id: UUID,
        new_start: datetime,
        *,
        expected_start: datetime | None = None,
    ) -> Appointment:
        """``expected_start``: refuse if it was moved since the caller looked."""
        old = await self._find.execute(tenant_id, customer_id, appointment_id)
        check_movable(old, expected_start)
        tenant, professional, service = await load_offer(
            self._repos, tenant_id, old.professional_id, old.service_id
        )
        check_window(tenant, old, self._clock())
        check_start(tenant, new_start, self._clock())
        if new_start == old.start:
            return old
        check_deadline("reserving the new time")
        moving = await self._repos.appointments.begin_move(old, new_start.astimezone(UTC))

        async def recheck(appointment: Appointment, start: datetime) -> None:
            self._bookable.move(tenant, professional, service, appointment, start)
            check_deadline("moving the calendar event")

        return await shielded(MoveSaga(self._repos, self._calendar).run(moving, recheck))
