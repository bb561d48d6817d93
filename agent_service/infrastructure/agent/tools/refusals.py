"""Why a time cannot be booked, and what to offer instead.

Every refusal names one reason (a stable code the model, and the offline model's localized
sentences, can rely on) and the nearest free times to what was asked:

* ``past`` — the time has passed; ``beyond_horizon`` — later than the booking horizon;
* ``notice`` — sooner than the minimum notice;
* ``closed_day`` — nobody works that day (the business is closed);
* ``day_off`` — the professional does not work that day but others do (the tool names who
  offers the service that day; the customer chooses, never a silent substitute);
* ``outside_hours`` — before opening or after closing; ``break`` — between two working windows;
* ``off_grid`` — not on the slot grid (e.g. 10:10 with 30-minute slots);
* ``taken`` — inside working hours and on the grid, but already booked.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime
from uuid import UUID
from zoneinfo import ZoneInfo

from agent_service.domain.availability import (
    DayPlan,
    bookable_range,
    local_instant,
    plan_day,
    works_through,
)
from agent_service.domain.catalog import BookingPolicy, Professional

NEAREST = 5


def refusal_reason(
    policy: BookingPolicy,
    professional: Professional,
    zone: ZoneInfo,
    span: tuple[datetime, datetime],
    now: datetime,
) -> str:
    """The reason code (see the module) why ``span`` (start, end) is not a free slot."""
    start, end = span
    if start <= now:
        return "past"
    earliest, latest = bookable_range(policy, now)
    if start > latest:
        return "beyond_horizon"
    if start < earliest:
        return "notice"
    local = start.astimezone(zone)
    plan = plan_day(professional, local.date(), zone)
    if plan.closed:
        return "closed_day"
    if not works_through(plan, local.date(), zone, start, end):
        windows = _windows(plan, local.date(), zone)
        inside = min(w[0] for w in windows) <= start and end <= max(w[1] for w in windows)
        return "break" if inside else "outside_hours"
    if (local.hour * 60 + local.minute) % policy.slot_step_minutes or local.second:
        return "off_grid"
    return "taken"


def _windows(plan: DayPlan, day: date, zone: ZoneInfo) -> list[tuple[datetime, datetime]]:
    weekly = [
        (local_instant(day, hours.start, zone), local_instant(day, hours.end, zone))
        for hours in plan.weekly
    ]
    return list(plan.windows) + weekly


def nearest(starts: list[datetime], wanted: datetime, count: int = NEAREST) -> list[datetime]:
    """The ``count`` free starts closest to ``wanted``, in time order."""
    closest = sorted(starts, key=lambda s: (abs((s - wanted).total_seconds()), s))[:count]
    return sorted(closest)


def day_off_cover(
    team: Sequence[Professional],
    professional: Professional,
    service_id: UUID,
    day: date,
    zone: ZoneInfo,
) -> tuple[bool, list[str]]:
    """On a day ``professional`` does not work: whether anyone else works (the business is
    open) and the names of those who offer ``service_id`` that day."""
    others = [p for p in team if p.id != professional.id and not plan_day(p, day, zone).closed]
    return bool(others), [p.name for p in others if service_id in p.service_ids]
