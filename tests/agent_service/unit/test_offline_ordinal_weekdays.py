"""A weekday that is also an ordinal (Portuguese "segunda"…"sexta" are the second…sixth and
Monday…Friday): when the customer's appointments include that weekday, "cancela o de quinta"
chooses by the day, never the fifth in the list (batch 12, blind: "cancela a lavagem de
quinta" proposed cancelling the fifth appointment, a Saturday's). Generated over every weekday
name of the language data that is an ordinal too, and every way of placing appointments on
the week's days."""

from __future__ import annotations

from datetime import datetime, timedelta
from itertools import combinations
from zoneinfo import ZoneInfo

import pytest
from babel.dates import get_day_names

from agent_service.application.text import normalize
from agent_service.infrastructure.agent.offline.appointments_flow import choose
from agent_service.infrastructure.agent.offline.catalog import AppointmentInfo
from agent_service.infrastructure.agent.offline.matching import _ordinals

ZONE = ZoneInfo("America/Sao_Paulo")
NOW = datetime(2026, 11, 30, 9, 0, tzinfo=ZONE)  # a Monday


def _weekday_ordinals() -> list[tuple[int, str]]:
    """(weekday index, its first word) of the Portuguese weekdays that are ordinals too."""
    names = get_day_names("wide", locale="pt")
    found = []
    for index in range(7):
        word = normalize(names[index]).split("-")[0]
        if word in _ordinals():
            found.append((index, word))
    return found


def _appointment(day: int, n: int) -> AppointmentInfo:
    start = (NOW + timedelta(days=day)).replace(hour=10)
    return AppointmentInfo("Barba", "Bruno Lima", "", "confirmed", f"a{n}", "p", "s",
                           start=start.isoformat())  # fmt: skip


CASES = [
    (weekday, word, days)
    for weekday, word in _weekday_ordinals()
    for days in combinations(range(1, 7), 5)  # five appointments on five of the next six days
    if any((NOW + timedelta(days=d)).weekday() == weekday for d in days)
]


@pytest.mark.parametrize(("weekday", "word", "days"), CASES)
def test_a_weekday_that_is_an_ordinal_chooses_by_day(
    weekday: int, word: str, days: tuple[int, ...]
) -> None:
    """With the service said too, the day's appointment; with the day alone, the day's or a
    question (the position and the day disagree: "o de quinta" may be either), never the
    appointment at that position on another day."""
    appointments = [_appointment(day, n) for n, day in enumerate(days)]
    chosen = choose([f"cancela a Barba de {word}"], appointments, NOW, language="pt")
    assert chosen is not None and chosen.day is not None, word
    assert chosen.day.weekday() == weekday, (word, chosen.start)
    alone = choose([f"cancela o de {word}"], appointments, NOW, language="pt")
    assert alone is None or (alone.day is not None and alone.day.weekday() == weekday), word


POSITIONS = [("es", "la segunda"), ("es", "cancela la segunda cita"), ("en", "the 2nd one"),
             ("en", "the second one"), ("pt", "a 2ª"), ("es", "el 2")]  # fmt: skip


@pytest.mark.parametrize(("code", "said"), POSITIONS)
def test_a_position_in_the_list_is_a_position(code: str, said: str) -> None:
    """After a numbered list, "la segunda" (Spanish: no weekday), "the 2nd one" (a digit) is
    the second of the list (review 8: the day reading took over "el 2", "la segunda")."""
    appointments = [_appointment(day, n) for n, day in enumerate((0, 1, 2, 4))]
    chosen = choose([said], appointments, NOW, language=code)
    assert chosen is appointments[1], (said, chosen)
