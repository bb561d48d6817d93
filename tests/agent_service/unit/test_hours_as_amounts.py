"""An hour said with its unit and a rate after it ("umas 4 horas por noite", "6 hours a day",
"8 horas seguidas") is an amount of time, never a time of day (blind batch 17, before any fix:
"dormindo umas 4 horas por noite … na quarta às 15h" booked Wednesday at 16:00). The time the
customer asks for later in the message is the one read; the same words without the rate are
still that time. Generated from the language data: every clock marker of ``[times].markers``
that reads "<marker> N <hour word>" as a time, every ``[times].hour_words`` and every
``[times].per_period`` phrase, at several hours, in every language."""

from __future__ import annotations

from datetime import datetime, time
from itertools import product
from zoneinfo import ZoneInfo

import pytest

from agent_service.infrastructure.language.grammar.when import parse_when
from agent_service.infrastructure.language.packs import word_list

NOW = datetime(2026, 11, 30, 9, 0, tzinfo=ZoneInfo("America/Sao_Paulo"))
ASKED = {"pt": "quero marcar na quarta às 11h", "en": "book me on Wednesday at 11am",
         "es": "quiero el miércoles a las 11:00"}  # fmt: skip


def _marked(code: str) -> list[str]:
    """Every "<marker> N <hour word>" of ``code`` read as a time of day."""
    return [
        f"{marker} {hour} {unit}"
        for marker, unit in product(
            word_list(code, "times", "markers"), word_list(code, "times", "hour_words")
        )
        for hour in (4, 8)
        if parse_when(f"{marker} {hour} {unit}", NOW).at is not None
    ]


CASES = [(code, rate) for code in ASKED for rate in word_list(code, "times", "per_period")]


@pytest.mark.parametrize("code", ASKED)
def test_every_language_has_marked_hours(code: str) -> None:
    assert _marked(code)


@pytest.mark.parametrize(("code", "rate"), CASES)
def test_an_hour_with_a_rate_is_an_amount_not_the_time(code: str, rate: str) -> None:
    for said in _marked(code):
        story = f"{said} {rate}, {ASKED[code]}"
        assert parse_when(story, NOW).at == time(11), story
        assert parse_when(f"{said} {rate}", NOW).at is None, f"{said} {rate}"
