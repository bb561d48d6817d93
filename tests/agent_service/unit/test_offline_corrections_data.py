"""Corrections inside one message (``offline/corrections.py``, and a move's new time in
``offline/appointments_flow.move_parts``) read every language's
``[corrections]`` words, generated here from the data files: a clause with a negation word of
the conversation's language, or led by an ``instead_of`` phrase, is what the customer no longer
wants; the rest is what they want. Portuguese "no" ("in the") negates nothing in Portuguese."""

from __future__ import annotations

import random

import pytest
from babel.dates import get_day_names

from agent_service.infrastructure.agent.offline.appointments_flow import move_parts
from agent_service.infrastructure.agent.offline.corrections import affirmed, negated
from agent_service.infrastructure.language.packs import language_data
from tests.data_phrases import phrase

LANGUAGES = ("pt", "en", "es")
OLD, NEW = "zorvak", "quelbin"  # words of no language: only the rule decides


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_negated_clause_is_what_is_no_longer_wanted(language: str) -> None:
    for word in language_data(language)["corrections"]["negation"]:
        text = f"{OLD} {word}, {NEW}"
        assert affirmed(text, language) == NEW, text
        assert negated(text, language) == f"{OLD} {word}", text


@pytest.mark.parametrize("language", LANGUAGES)
def test_what_comes_after_instead_of_is_no_longer_wanted(language: str) -> None:
    rng = random.Random(language)
    for pattern in language_data(language)["corrections"]["instead_of"]:
        for _ in range(4):
            said = phrase(pattern, rng)
            text = f"{NEW} {said} {OLD}"
            assert affirmed(text, language) == NEW, text
            assert negated(text, language) == f"{said} {OLD}", text


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_split_word_starts_a_clause_of_its_own(language: str) -> None:
    negation = language_data(language)["corrections"]["negation"][0]
    for word in language_data(language)["corrections"]["split"]:
        text = f"{NEW} {word} {negation} {OLD}"
        assert affirmed(text, language) == NEW, text


def test_portuguese_no_is_in_the_not_a_negation() -> None:
    assert affirmed("corte no sábado, com a Júlia", "pt") == "corte no sábado, com a Júlia"
    assert affirmed("no, the Friday one", "en") == "the Friday one"


@pytest.mark.parametrize(("language", "locale"), [("pt", "pt_BR"), ("en", "en"), ("es", "es")])
def test_a_move_to_a_day_at_the_same_time_keeps_the_day_in_the_new_time(
    language: str, locale: str
) -> None:
    """ "cambia mi corte al viernes a la misma hora": with two "to" words, a day alone between
    them belongs to the new time; the appointment is what comes before (generated over every
    weekday name of the locale and every to-word and same-time phrase of the data)."""
    data = language_data(language)
    rng = random.Random(language)
    verb = data["intents"]["move_verbs"][0]
    mine = f"{data['listing']['possessives'][0]} {data['services']['beard'][0]}"
    for day in get_day_names("wide", locale=locale).values():
        for to_word in data["appointments"]["to_words"]:
            same = phrase(rng.choice(data["appointments"]["same_time"]), rng)
            text = f"{verb} {mine} {to_word} {day.lower()} {to_word} {same}"
            old, new = move_parts(text)
            assert mine in old and day.lower() in new.lower(), (text, old, new)
