"""Dates and times as the offline model reads them: the shared grammar of
``agent_service/infrastructure/language/grammar`` (language data and CLDR, every spoken
language), re-exported under the names the offline model and its callers use."""

from agent_service.infrastructure.language.grammar import (
    When,
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
    "disagreeing_days",
    "has_when_mention",
    "loose_time",
    "names_only_a_weekday",
    "next_or_previous_day",
    "parse_when",
    "shift",
    "two_readings",
    "without_moments_ahead",
]
