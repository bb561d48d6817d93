"""The date, time and range grammar of every spoken language, compiled from the language data
files and CLDR (see ``when.py`` for the rules and ``data/README.md`` for the tables)."""

from agent_service.infrastructure.language.grammar.ranges import (
    Window,
    day_range,
    part_of_day,
    part_window,
)
from agent_service.infrastructure.language.grammar.when import (
    When,
    direction,
    disagreeing_days,
    has_when_mention,
    loose_time,
    names_only_a_weekday,
    next_or_previous_day,
    parse_when,
    shift,
    two_readings,
    without_moments_ahead,
)

__all__ = [
    "When",
    "Window",
    "day_range",
    "direction",
    "disagreeing_days",
    "has_when_mention",
    "loose_time",
    "names_only_a_weekday",
    "next_or_previous_day",
    "parse_when",
    "part_of_day",
    "part_window",
    "shift",
    "two_readings",
    "without_moments_ahead",
]
