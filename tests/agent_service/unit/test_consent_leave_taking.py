"""A yes that takes leave (batch 15's run-on yeses: "pode sim, obrigada, até lá 🐶" booked
nothing), as rules over the language data and Unicode, never over the batch's sentences:

* every ``[consent].farewell`` phrase of a language after any of its yes phrases still confirms;
  alone it is no yes;
* a day said while taking leave ("até sexta", "see you Friday", "hasta el jueves") is said
  back: the proposal's own day confirms, any other day does not;
* a pictograph of an animal, a plant or food answers nothing (filler), whereas a face or a hand
  in no list still leaves the answer open ("sim 🙄" is no yes).
"""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from agent_service.application.consent_policy import Answer, read_answer
from agent_service.infrastructure.language.packs import word_list
from agent_service.infrastructure.language.rules import language_rules
from tests.agent_service.unit.test_restating_yes import (
    EXAMPLES,
    WEEKDAYS,
    ZONE,
    _read,
    starts,
)

LANGUAGES = ("pt", "en", "es")
RULES = language_rules()
LEAVE = {"pt": "até", "en": "see you", "es": "hasta el"}
"""How each language takes leave until a day."""
DECORATION = [
    chr(code)
    for first, last in ((0x1F330, 0x1F37F), (0x1F400, 0x1F43F), (0x1F980, 0x1F9AE))
    for code in range(first, last + 1, 3)
]


def _listed_emoji() -> set[str]:
    return {
        e
        for code in LANGUAGES
        for v in (RULES.consent(code),)
        for e in (*v.yes_emoji, *v.no_emoji, *v.filler_emoji)
    }


@pytest.mark.parametrize("code", LANGUAGES)
def test_any_farewell_after_any_yes_confirms_and_alone_is_no_yes(code: str) -> None:
    vocabularies = RULES.consent_in(code)
    yeses = word_list(code, "consent", "yes")
    farewells = word_list(code, "consent", "farewell")
    assert farewells
    for n, farewell in enumerate(farewells):
        yes = yeses[n * 7 % len(yeses)]
        emoji = DECORATION[n * 11 % len(DECORATION)]
        for text in (f"{yes}, {farewell}", f"{yes}, {farewell}! {emoji}"):
            assert read_answer(text, vocabularies, "book").answer is Answer.YES, text
        assert read_answer(farewell, vocabularies, "book").answer is not Answer.YES, farewell


@EXAMPLES
@given(language=st.sampled_from(LANGUAGES), start=starts, days=st.integers(0, 5))
def test_a_day_said_taking_leave_must_be_the_proposals(
    language: str, start: datetime, days: int
) -> None:
    other = start + timedelta(days=days)
    weekday = other.astimezone(ZONE).weekday()
    assume(weekday < 6)
    yes = {"pt": "sim", "en": "yes", "es": "sí"}[language]
    text = f"{yes}, {LEAVE[language]} {WEEKDAYS[language][weekday]}"
    expected = Answer.YES if other.date() == start.date() else Answer.OTHER
    assert (_read(language, start, text) is Answer.YES) is (expected is Answer.YES), text


@pytest.mark.parametrize("code", LANGUAGES)
def test_a_decoration_is_filler_and_an_unlisted_face_or_hand_is_not(code: str) -> None:
    vocabularies = RULES.consent_in(code)
    yes = word_list(code, "consent", "yes")[0]
    for emoji in DECORATION:
        assert read_answer(f"{yes} {emoji}", vocabularies, "book").answer is Answer.YES, emoji
        assert read_answer(emoji, vocabularies, "book").answer is not Answer.YES, emoji
    listed = _listed_emoji()
    faces_and_hands = [
        chr(c) for c in (*range(0x1F600, 0x1F650), *range(0x1F446, 0x1F451)) if chr(c) not in listed
    ]
    for emoji in faces_and_hands:
        assert read_answer(f"{yes} {emoji}", vocabularies, "book").answer is not Answer.YES, emoji
