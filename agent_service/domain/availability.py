"""When a professional works on a given local date: weekly hours, or that date's exception."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from agent_service.domain.catalog import BookingPolicy, Professional, WorkingHours


@dataclass(frozen=True, slots=True)
class DayPlan:
    """What to ask the calendar for one local date.

    ``weekly`` are the weekly windows of that weekday (the calendar service expands them
    DST-correctly); ``windows`` are absolute windows from a date exception. Both empty means
    the professional does not work that day.
    """

    start: datetime
    end: datetime
    weekly: tuple[WorkingHours, ...]
    windows: tuple[tuple[datetime, datetime], ...]

    @property
    def closed(self) -> bool:
        return not self.weekly and not self.windows


def local_instant(day: date, at: time | None, zone: ZoneInfo) -> datetime:
    """The first real instant at or after local ``day`` ``at`` (None = end of day).

    Local times inside a spring-forward gap move to the end of the gap.
    """
    if at is None:
        return local_instant(day + timedelta(days=1), time(0), zone)
    naive = datetime.combine(day, at)
    candidate = naive.replace(tzinfo=zone)
    round_trip = candidate.astimezone(UTC).astimezone(zone).replace(tzinfo=None)
    if round_trip == naive:
        return candidate.astimezone(UTC)
    # In a gap: walk forward minute by minute to the first existing local time (gaps ≤ 2 h).
    probe = naive
    while True:
        probe += timedelta(minutes=1)
        aware = probe.replace(tzinfo=zone)
        if aware.astimezone(UTC).astimezone(zone).replace(tzinfo=None) == probe:
            return aware.astimezone(UTC)


def plan_day(professional: Professional, day: date, zone: ZoneInfo) -> DayPlan:
    """The professional's availability on local ``day``: an exception replaces the weekly hours."""
    start = local_instant(day, time(0), zone)
    end = local_instant(day, None, zone)
    for exception in professional.exceptions:
        if exception.date == day:
            windows = tuple(
                (local_instant(day, hours.start, zone), local_instant(day, hours.end, zone))
                for hours in exception.hours
            )
            return DayPlan(start, end, (), windows)
    weekly = tuple(h for h in professional.weekly_hours if h.day_of_week == day.isoweekday())
    return DayPlan(start, end, weekly, ())


def bookable_range(policy: BookingPolicy, now: datetime) -> tuple[datetime, datetime]:
    """Bookings may start from now + minimum notice up to now + horizon."""
    return (
        now + timedelta(minutes=policy.minimum_notice_minutes),
        now + timedelta(days=policy.booking_horizon_days),
    )


def works_through(plan: DayPlan, day: date, zone: ZoneInfo, start: datetime, end: datetime) -> bool:
    """Whether ``[start, end)`` lies inside one of the day's working windows."""
    windows = list(plan.windows) + [
        (local_instant(day, hours.start, zone), local_instant(day, hours.end, zone))
        for hours in plan.weekly
    ]
    return any(first <= start and end <= last for first, last in windows)
