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
def test_an_approximation_ends_its_clause(said: str, approximate: str, code: str) -> None:
    """Before a comma, a question mark or a part of the day it is one ("às 3 e pouco, pode
    ser?", "las tres y pico de la tarde"); before other words it is not ("às 10 e tanto faz
    com quem": 10 is the time, "tanto faz" another clause)."""
    part = word_list(code, "times", "afternoon_after")[0]
    for end in (",", "?", f" {part}"):
        assert parse_when(f"{said} {approximate}{end}", NOW).at is None, (said, end)
    word = next(w for w in word_list(code, "truth", "asking") if len(w) > 3)
    assert parse_when(f"{said} {approximate} {word}", NOW).at is not None, (said, word)
