"""When the business is open, from its professionals' weekly working hours.

Rule: a weekday is open from the earliest start to the latest end of any professional's
window that day (a professional's break is not the business's); a weekday nobody works is
closed. Answers "what are your opening hours?" when the FAQ has no entry for it.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import time

from agent_service.domain.catalog import Professional

DayOpen = tuple[time, time | None]
"""Opens, closes (None: midnight)."""


def opening_hours(professionals: Iterable[Professional]) -> dict[int, DayOpen]:
    """ISO weekday (Monday = 1) -> when the business opens and closes that day."""
    days: dict[int, DayOpen] = {}
    for professional in professionals:
        for window in professional.weekly_hours:
            opens, closes = days.get(window.day_of_week, (window.start, window.end))
            opens = min(opens, window.start)
            closes = None if closes is None or window.end is None else max(closes, window.end)
            days[window.day_of_week] = (opens, closes)
    return dict(sorted(days.items()))
