"""A word of the spoken languages names a professional only as itself (batch 12, blind: "I'll
take it" read as Rodrigo Takeda, and the booking went to him at his first time rather than to
whoever was free first): the loose likeness that reads a shortened or misspelled name
("Rafa" for Rafaela, "Pricsila" for Priscila) never applies to an ordinary word. Generated over
the languages' own words: for each, a professional whose surname starts with it."""

from __future__ import annotations

import random

import pytest

from agent_service.infrastructure.agent.offline.nlu import best_person
from agent_service.infrastructure.language.rules import language_rules

WORDS = sorted(w for w in language_rules().common_words() if w.isalpha() and 3 <= len(w) <= 8)
SAMPLE = random.Random(46).sample(WORDS, 200)


@pytest.mark.parametrize("word", SAMPLE)
def test_an_ordinary_word_is_no_shortened_name(word: str) -> None:
    team = [(f"Ana {word.title()}da",), ("Bruno Lima",)]
    assert best_person(f"ok, {word} it", team) is None, word


@pytest.mark.parametrize(
    ("said", "name"),
    [("com a Rafa", "Rafaela Duarte"), ("with Pricsila", "Priscila Nogueira"),
     ("com o Evreton", "Everton Souza"), ("con la gabriela", "Gabriela Reis")],
)  # fmt: skip
def test_a_shortened_or_misspelled_name_still_names(said: str, name: str) -> None:
    team = [(name,), ("Bruno Lima",)]
    assert best_person(said, team) == 0, said
