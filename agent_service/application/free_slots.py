"""Which starts a professional can take, and the agent's own check of a booking's or a
move's time before it writes the calendar (the calendar service decides whether it is free)."""

from __future__ import annotations

from datetime import date, datetime, timedelta

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


class BookableCheck:
    """The agent's own rules on where a booking or a move may start, checked before the
    calendar is written: inside the professional's working hours that day and on the
    tenant's slot grid (the local minute of the day a multiple of the step, as the calendar
    service's slot engine cuts slots). Whether the time is FREE is not checked here: the
    calendar service's create-if-free decides it atomically, for every client, against
    events written anywhere (docs/calendar-service.md#conflict-policy)."""

    def booking(
        self, tenant: Tenant, professional: Professional, service: Service, appointment: Appointment
    ) -> None:
        """``SlotUnavailableError`` unless the appointment's time is bookable."""
        self.check(tenant, professional, appointment.start, appointment.end)

    def move(
        self,
        tenant: Tenant,
        professional: Professional,
        service: Service,
        moving: Appointment,
        start: datetime,
    ) -> None:
        """As ``booking`` for the new time of a move."""
        self.check(tenant, professional, start, start + moving.duration)

    def check(
        self, tenant: Tenant, professional: Professional, start: datetime, end: datetime
    ) -> None:
        zone = tenant.zone
        day = start.astimezone(zone).date()
        if not works_through(plan_day(professional, day, zone), day, zone, start, end):
            raise SlotUnavailableError("that time is outside working hours")
        minutes = int((end - start).total_seconds() // 60)
        step = tenant.policy.slot_step_minutes or (minutes if 1440 % minutes == 0 else 15)
        local = start.astimezone(zone)
        if local.second or local.microsecond or (local.hour * 60 + local.minute) % step:
            raise SlotUnavailableError("that time is not on the booking grid")


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
