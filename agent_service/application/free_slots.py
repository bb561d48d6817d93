"""Which starts a professional can take, and the fresh re-check a booking or a move makes
before it writes the calendar."""

from __future__ import annotations

from datetime import date, datetime, timedelta

from agenda_kit.calendar.errors import CalendarUnavailableError
from agenda_kit.calendar.port import ICalendarAdapter, Interval, SlotRules, WeeklyHours
from agent_service.application.booking_rules import Clock, utc_now
from agent_service.domain.appointments import Appointment
from agent_service.domain.availability import DayPlan, bookable_range, plan_day, works_through
from agent_service.domain.catalog import Professional, Service, Tenant
from agent_service.domain.errors import SlotUnavailableError


class FindFreeSlots:
    """Starts the professional can take on a local day for a service of some length, within
    the tenant's notice and horizon."""

    def __init__(self, calendar: ICalendarAdapter, clock: Clock = utc_now) -> None:
        self._calendar = calendar
        self._clock = clock

    async def execute(
        self,
        tenant: Tenant,
        professional: Professional,
        day: date,
        duration_minutes: int,
        *,
        fresh: bool = False,
    ) -> list[datetime]:
        """``fresh`` reads past every cache."""
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


class CalendarRecheck:
    """The calendar itself, read fresh (no cache on either side): the holds only know
    bookings made here, not events written by people or other products."""

    def __init__(self, calendar: ICalendarAdapter, free_slots: FindFreeSlots) -> None:
        self._calendar = calendar
        self._free_slots = free_slots

    async def booking(
        self, tenant: Tenant, professional: Professional, service: Service, appointment: Appointment
    ) -> None:
        """``SlotUnavailableError`` unless the appointment's start is free."""
        local_day = appointment.start.astimezone(tenant.zone).date()
        starts = await self._free_slots.execute(
            tenant, professional, local_day, service.duration_minutes, fresh=True
        )
        if appointment.start not in starts:
            raise SlotUnavailableError("that time is not available")

    async def move(
        self,
        tenant: Tenant,
        professional: Professional,
        service: Service,
        moving: Appointment,
        start: datetime,
    ) -> None:
        """As ``booking`` for the new time; where it overlaps the appointment's own time,
        the calendar's busy time minus the appointment's own event must be empty."""
        end = start + moving.duration
        if end <= moving.start or moving.end <= start:
            probe = moving.model_copy(update={"start": start, "end": end})
            await self.booking(tenant, professional, service, probe)
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
