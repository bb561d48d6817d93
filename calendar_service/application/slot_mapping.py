"""Port value objects (``SlotRules``) → the domain's ``SlotQuery``."""

from __future__ import annotations

from datetime import datetime

from agenda_kit.calendar.port import SlotRules
from calendar_service.domain.slots import LocalWindow, SlotQuery, Span


def to_slot_query(
    start: datetime, end: datetime, duration_minutes: int, rules: SlotRules
) -> SlotQuery:
    """Build the domain query; the domain validates it (``InvalidSlotQueryError``)."""
    return SlotQuery(
        range=Span(start, end),
        duration_minutes=duration_minutes,
        time_zone=rules.time_zone or "UTC",
        weekly=tuple(
            LocalWindow(weekday=hours.day_of_week, start=hours.start, end=hours.end)
            for hours in rules.weekly_hours
        ),
        windows=tuple(Span(window.start, window.end) for window in rules.windows),
        step_minutes=rules.step_minutes,
        buffer_before_minutes=rules.buffer_before_minutes,
        buffer_after_minutes=rules.buffer_after_minutes,
        minimum_notice_minutes=rules.minimum_notice_minutes,
        max_results=rules.max_results,
    )
