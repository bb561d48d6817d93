"""A question with "have" near a booked-verb asks for one's own appointments ("tenho algo
marcado essa semana?", "what have I got coming up?", "¿tengo alguna cita reservada?"),
generated from every language's ``[listing]`` words; the same words with no question are
not read as one (``language/grammar/asks.asks_for_listing``)."""

from __future__ import annotations

import itertools

import pytest

from agent_service.infrastructure.language.grammar.asks import asks_for_listing
from agent_service.infrastructure.language.packs import language_data

LANGUAGES = ("pt", "en", "es")
BETWEEN = ("", "x", "x y", "x y z")  # up to three words of anything in between


def _pairs(code: str) -> list[tuple[str, str]]:
    table = language_data(code)["listing"]
    return list(itertools.product(table["have_words"], table["booked_words"]))


ROWS = [(code, have, booked) for code in LANGUAGES for have, booked in _pairs(code)]


@pytest.mark.parametrize(("code", "have", "booked"), ROWS)
def test_have_near_a_booked_word_in_a_question_asks_for_the_listing(
    code: str, have: str, booked: str
) -> None:
    for between in BETWEEN:
        said = " ".join(word for word in (have, between, booked) if word)
        assert asks_for_listing(f"{said}?"), said


@pytest.mark.parametrize(("code", "have", "booked"), ROWS)
def test_too_far_apart_or_no_question_it_is_not(code: str, have: str, booked: str) -> None:
    assert not asks_for_listing(f"{have} a b c d {booked}?")
    assert not asks_for_listing(f"{have} x {booked}")
