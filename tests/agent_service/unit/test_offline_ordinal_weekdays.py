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
    appointments = [_appointment(day, n) for n, day in enumerate(days)]
    chosen = choose([f"cancela o de {word}"], appointments, NOW)
    assert chosen is not None and chosen.day is not None, word
    assert chosen.day.weekday() == weekday, (word, chosen.start)
