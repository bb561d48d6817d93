"""A realistic alternative slot engine on the ``portion`` interval library (the baseline).

What a developer would write with an interval library: available windows (the reference's
expansion of weekly hours) as a union, minus the busy intervals widened by the buffers, then
the step grid (local wall-clock minutes) walked inside each free piece. Same rules as
``calendar_service.domain.slots.find_free_slots``; the benchmark checks the outputs agree.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import portion as P  # type: ignore[import-untyped]  # noqa: N812 (documented alias)

from calendar_service.domain.slots import SlotQuery, Span
from tests.calendar_service.unit.slot_reference import _availability

MINUTE = timedelta(minutes=1)


def portion_free_slots(query: SlotQuery, busy: Iterable[Span], now: datetime) -> list[datetime]:
    zone = ZoneInfo(query.time_zone)
    start, end = query.range.start.astimezone(UTC), query.range.end.astimezone(UTC)
    windows = _availability(query, zone, start, end)
    available = P.Interval(*(P.closedopen(low, high) for low, high in windows))
    available &= P.closedopen(start, end)
    before = timedelta(minutes=query.buffer_after_minutes)
    after = timedelta(minutes=query.buffer_before_minutes)
    blocked = P.Interval(  # one union built at once (portion merges as it goes)
        *(P.open(s.start.astimezone(UTC) - before, s.end.astimezone(UTC) + after) for s in busy)
    )
    free = available - blocked
    earliest = now.astimezone(UTC) + timedelta(minutes=query.minimum_notice_minutes)
    duration = timedelta(minutes=query.duration_minutes)
    step = query.step_minutes or query.duration_minutes
    slots: list[datetime] = []
    for piece in free:
        t = _on_grid(max(piece.lower, earliest), zone, step)
        while t + duration <= piece.upper and len(slots) <= query.max_results:
            slots.append(t)
            t = _on_grid(t + MINUTE, zone, step)
    return slots[: query.max_results]


def _on_grid(t: datetime, zone: ZoneInfo, step: int) -> datetime:
    """The first whole minute at or after ``t`` whose local minute of the day is on the grid."""
    if t.second or t.microsecond:
        t = t.replace(second=0, microsecond=0) + MINUTE
    local = t.astimezone(zone)
    return t + timedelta(minutes=-(local.hour * 60 + local.minute) % step)
