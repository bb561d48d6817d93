"""A time said as some time past the hour ("às 3 e pouco", "at 3 something", "a las tres y
pico") is no exact time: nothing reads a time from it, so none is proposed (the day's times
are shown); the same words without the approximation are that time. Generated from the
language data: every ``[times].approximate_after`` phrase after every clock marker of
``[times].markers`` that reads a time (not a window's: "a partir das 3"), at two hours, in
every language."""

from __future__ import annotations

from datetime import datetime
from itertools import product
from zoneinfo import ZoneInfo

import pytest

from agent_service.infrastructure.language.grammar.when import parse_when
from agent_service.infrastructure.language.packs import word_list

NOW = datetime(2026, 11, 30, 9, 0, tzinfo=ZoneInfo("America/Sao_Paulo"))
CODES = ("pt", "en", "es")


def _cases() -> list[tuple[str, str, str]]:
    return [
        (f"{marker} {hour}", approximate, code)
        for code in CODES
        for marker, approximate in product(
            word_list(code, "times", "markers"), word_list(code, "times", "approximate_after")
        )
        for hour in (3, 10)
        if parse_when(f"{marker} {hour}", NOW).at is not None
    ]


@pytest.mark.parametrize(("said", "approximate", "code"), _cases())
def test_an_approximate_time_is_no_time(said: str, approximate: str, code: str) -> None:
    assert parse_when(said, NOW).at is not None, said  # the exact time is read
    vague = f"{said} {approximate}"
    assert parse_when(vague, NOW).at is None, vague


@pytest.mark.parametrize(("said", "approximate", "code"), _cases())
def test_an_approximation_holds_unless_an_idiom_goes_on(
    said: str, approximate: str, code: str
) -> None:
    """Before a comma, a question mark, a part of the day or a day it is one ("às 3 e pouco
    amanhã": a yes would book a guessed 15:00 otherwise); before a word of
    ``[times].approximate_idioms`` it is another phrase ("às 10 e tanto faz com quem": 10)."""
    part = word_list(code, "times", "afternoon_after")[0]
    tomorrow = word_list(code, "dates", "tomorrow")[0]
    for end in (",", "?", f" {part}", f" {tomorrow}"):
        assert parse_when(f"{said} {approximate}{end}", NOW).at is None, (said, end)
    for idiom in word_list(code, "times", "approximate_idioms"):
        assert parse_when(f"{said} {approximate} {idiom}", NOW).at is not None, (said, idiom)
