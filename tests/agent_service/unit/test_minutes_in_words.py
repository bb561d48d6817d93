"""An hour and its minutes in words: "nine thirty", "ten fifteen", "two forty-five pm" (English
says the minutes right after the hour, ``[times].connectorless_minutes``), "nove e trinta",
"diez y cinco" (joined by ``minute_connector``; every five minutes in ``[numbers].minute_words``).
Blind batch 18, before any fix: "half past nine nine thirty" and "at nine thirty" read 9:00,
"nove e trinta" 9:00, "two forty five pm" 14:00 — a proposal at a time the customer never said.

Generated over every minute word of each language, with the hour in words and in digits, and
never before a unit ("nine fifteen minutes" names no time).
"""

from __future__ import annotations

from datetime import datetime, time
from zoneinfo import ZoneInfo

import pytest

from agent_service.infrastructure.language.grammar.when import parse_when
from agent_service.infrastructure.language.packs import word_list

NOW = datetime(2026, 11, 30, 9, 0, tzinfo=ZoneInfo("America/Sao_Paulo"))
HOURS = {
    "pt": {"oito": 8, "nove": 9, "dez": 10, "onze": 11},
    "en": {"eight": 8, "nine": 9, "ten": 10, "eleven": 11},
    "es": {"ocho": 8, "nueve": 9, "diez": 10, "once": 11},
}
SAY = {
    "pt": "quarta às {hour} {join} {minutes}",
    "en": "wednesday at {hour} {minutes}",
    "es": "el miércoles a las {hour} {join} {minutes}",
}


def _minute_words(code: str) -> list[tuple[str, int]]:
    key = ("times", "connectorless_minutes") if code == "en" else ("numbers", "minute_words")
    pairs = [entry.rsplit(" ", 1) for entry in word_list(code, *key)]
    return [(word, int(value)) for word, value in pairs]


def _cases() -> list[tuple[str, str, time]]:
    cases = []
    for code, hours in HOURS.items():
        joins = word_list(code, "times", "minute_connector") or [""]
        for n, (minutes, value) in enumerate(_minute_words(code)):
            word, hour = list(hours.items())[n % len(hours)]
            for said_hour in (word, str(hour)):
                said = SAY[code].format(hour=said_hour, join=joins[0], minutes=minutes)
                cases.append((code, " ".join(said.split()), time(hour, value)))
    return cases


@pytest.mark.parametrize(("code", "said", "at"), _cases())
def test_an_hour_and_its_minutes_in_words(code: str, said: str, at: time) -> None:
    assert parse_when(said, NOW).at == at, said


@pytest.mark.parametrize(
    "said", ["it takes nine fifteen minutes", "I have 2 thirty minute breaks", "two thirty hours"]
)
def test_never_before_a_unit(said: str) -> None:
    assert parse_when(said, NOW).at is None, said
