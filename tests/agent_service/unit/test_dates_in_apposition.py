"""A relative day and a date beside it are one day only in apposition ("amanhã (01/12)",
"amanhã, dia 1"): joined by "e"/"ou"/"and"/"or"/"y"/"o" they are two days, each grounded on its
own (review 8: "A Ana tem às 10:00 amanhã e dia 2." was refused with both days checked).
Generated over the languages' tomorrow words and conjunctions, against records holding both."""

from __future__ import annotations

from datetime import date, timedelta

import pytest

from agent_service.application.grounding import Grounding
from agent_service.infrastructure.language.packs import word_list
from agent_service.infrastructure.language.rules import fact_reader, language_rules

CODES = ("pt", "en", "es")
TODAY = date(2026, 11, 30)  # tomorrow is December 1st
RECORDS = [
    '{"date": "2026-12-01", "times": ["10:00"]}',
    '{"date": "2026-12-02", "times": ["10:00"]}',
]
JOINS = {"pt": ("e", "ou"), "en": ("and", "or"), "es": ("y", "o")}


def _grounding() -> Grounding:
    reader = fact_reader(CODES, "America/Sao_Paulo", ("BRL",), today=TODAY)
    window = (TODAY, TODAY + timedelta(days=60))
    return Grounding(reader, RECORDS, [], language_rules().common_words(), window, RECORDS)


@pytest.mark.parametrize("code", CODES)
def test_two_days_joined_are_two_days(code: str) -> None:
    tomorrow = word_list(code, "dates", "tomorrow")[0]
    day_word = word_list(code, "dates", "day_units")[0]
    second = "the 2nd" if code == "en" else f"{day_word} 2"
    for join in JOINS[code]:
        said = f"10:00 {tomorrow} {join} {second}."
        assert _grounding().ungrounded(said) == [], said


@pytest.mark.parametrize("code", CODES)
def test_a_day_in_apposition_must_be_the_same(code: str) -> None:
    tomorrow = word_list(code, "dates", "tomorrow")[0]
    day_word = word_list(code, "dates", "day_units")[0]
    for number, same in ((1, True), (2, False)):
        day = (
            f"the {number}{'st' if number == 1 else 'nd'}"
            if code == "en"
            else f"{day_word} {number}"
        )
        said = f"10:00 {tomorrow}, {day}."
        assert (_grounding().ungrounded(said) == []) is same, said
