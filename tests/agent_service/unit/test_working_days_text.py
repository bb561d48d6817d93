"""The working days and opening hours the system renders say no day that is not worked
(session 43, blind batch 8: Helena works Monday, Wednesday and Friday, and "Helena works Monday
to Friday, 09:00 to 18:00" said she works Tuesday and Thursday too). Generated: any set of
weekdays with any hours, in every language; a range "X to Y" is said only of consecutive days
with the same hours, and every worked day is named with its own hours."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from agent_service.infrastructure.agent.listings import opening_hours_text, say
from agent_service.infrastructure.agent.tools.formatting import WEEKDAYS
from agent_service.infrastructure.agent.tools.results import DayHours, OpeningHours

HOURS = [("08:00", "17:00"), ("09:00", "18:00"), ("09:00", "13:00")]
schedules = st.dictionaries(st.integers(1, 7), st.sampled_from(HOURS), min_size=1)


def _hours(schedule: dict[int, tuple[str, str]], language: str, who: str) -> OpeningHours:
    names = WEEKDAYS[language]
    return OpeningHours(
        days=[
            DayHours(weekday=names[d - 1], opens=o, closes=c, day=d)
            for d, (o, c) in sorted(schedule.items())
        ],
        closed=[names[d - 1] for d in range(1, 8) if d not in schedule],
        professional=who,
    )


def _said(text: str, language: str) -> dict[int, tuple[str, str]]:
    """Which weekday the text says is worked, with which hours (ranges expanded)."""
    names = WEEKDAYS[language]
    index = {name: i + 1 for i, name in enumerate(names)}
    day = "|".join(map(re.escape, names))
    ranged = re.escape(say("opening_range", language, first="\x00", last="\x01"))
    ranged = ranged.replace("\x00", f"(?P<first>{day})").replace("\x01", f"(?P<last>{day})")
    found: dict[int, tuple[str, str]] = {}
    for span in re.finditer(r"([^:;.]*?),? (\d\d:\d\d)\D+(\d\d:\d\d)", text):
        days, opens, closes = span.group(1), span.group(2), span.group(3)
        for part in days.split(", "):
            whole = re.search(ranged, part)
            if whole:
                for d in range(index[whole["first"]], index[whole["last"]] + 1):
                    found[d] = (opens, closes)
                continue
            for name, d in index.items():
                if part.strip().endswith(name):
                    found[d] = (opens, closes)
    return found


@settings(max_examples=60, deadline=None)
@given(schedules, st.sampled_from(sorted(WEEKDAYS)))
def test_the_days_said_are_the_days_worked_with_their_hours(
    schedule: dict[int, tuple[str, str]], language: str
) -> None:
    text = opening_hours_text(_hours(schedule, language, "Helena"), language)
    assert _said(text, language) == schedule, text


def test_monday_wednesday_and_friday_are_no_range() -> None:
    schedule = {1: HOURS[1], 3: HOURS[1], 5: HOURS[1], 6: HOURS[2]}
    text = opening_hours_text(_hours(schedule, "en", "Helena"), "en")
    assert "Monday to Friday" not in text, text
    assert "Wednesday" in text, text
