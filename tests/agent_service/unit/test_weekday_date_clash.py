"""A weekday and a date said together that disagree are asked, never one of them picked
(session 43, blind batch 8: "sexta dia 5", "Friday the 5th", "viernes 5" when the 5th is a
Saturday proposed Friday the 4th). Generated: every weekday with every day of the month, in
every language's words; they clash exactly when that date falls on another weekday."""

from __future__ import annotations

from datetime import date, datetime
from zoneinfo import ZoneInfo

import pytest

from agent_service.infrastructure.language.grammar import disagreeing_days, parse_when

NOW = datetime(2026, 11, 30, 9, 0, tzinfo=ZoneInfo("America/Sao_Paulo"))  # a Monday
WEEKDAYS = {
    "pt": ["segunda", "terça", "quarta", "quinta", "sexta", "sábado", "domingo"],
    "en": ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"],
    "es": ["lunes", "martes", "miércoles", "jueves", "viernes", "sábado", "domingo"],
}
SAID = {
    "pt": "banho com a Vanessa {weekday} dia {day} às 10h",
    "en": "a bath with Vanessa on {weekday} the {day}th at 10am",
    "es": "baño con Vanessa el {weekday} {day} de diciembre a las 10",
}


@pytest.mark.parametrize("language", sorted(SAID))
def test_a_weekday_and_a_date_clash_exactly_when_they_are_different_days(language: str) -> None:
    for index, weekday in enumerate(WEEKDAYS[language]):
        for day in range(1, 29):
            said = SAID[language].format(weekday=weekday, day=day)
            when = date(2026, 12, day) if day >= 1 else None
            assert when is not None
            clash = disagreeing_days(said, NOW)
            if when.weekday() == index:
                assert clash is None, said
            else:
                assert clash is not None and clash[1] == when, said
                assert clash[0].weekday() == index, said


def test_a_weekday_or_a_date_alone_is_no_clash() -> None:
    for said in ("sexta às 10h", "dia 5 às 10h", "Friday at 10", "the 5th at 10", "viernes 5"):
        assert disagreeing_days(said.replace("viernes 5", "viernes"), NOW) is None, said


@pytest.mark.parametrize("language", sorted(SAID))
def test_a_weekday_said_with_its_date_is_that_date_not_the_nearest_such_weekday(
    language: str,
) -> None:
    """Blind batch 10: "el lunes 7 de diciembre" on Monday the 30th booked that Monday: the
    weekday, said first, was read alone. The date says which of those weekdays it is."""
    for day in range(1, 29):
        when = date(2026, 12, day)
        weekday = WEEKDAYS[language][when.weekday()]
        said = SAID[language].format(weekday=weekday, day=day)
        assert parse_when(said, NOW).day == when, said
