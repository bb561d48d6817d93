"""Diminutives are read as their word where the language data says so (``[morphology]
.diminutives`` on the lists of ``diminutive_lists``): "bem cedinho" and "tempranito" ask for the
earliest time, "à tardinha" and "de noitinha" name a part of the day. Session 41's blind batch
found "amanhã bem cedinho", "first thing" and "mañana tempranito" answered with a listing.
Every form is generated from the data (each base word of the lists with each suffix), never
written here; words that are no diminutive of a list's word stay unread.
"""

from __future__ import annotations

import pytest

from agent_service.application.text import normalize
from agent_service.infrastructure.language.grammar import part_of_day
from agent_service.infrastructure.language.grammar.ranges import wants_earliest
from agent_service.infrastructure.language.packs import language_data

LANGUAGES = ("pt", "en", "es")
VOWELS = "aeiou"


def _diminutives(word: str, suffixes: list[str]) -> list[str]:
    forms = []
    for suffix in suffixes:
        drop = word[-1] in VOWELS and suffix[0] in VOWELS
        forms.append((word[:-1] if drop else word) + suffix)
    return forms


def _lists(language: str) -> list[tuple[str, str, list[str]]]:
    morphology = language_data(language)["morphology"]
    return [
        (table, key, morphology["diminutives"])
        for table, keys in morphology["diminutive_lists"].items()
        for key in keys
    ]


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_diminutive_of_a_listed_word_reads_as_the_word(language: str) -> None:
    data = language_data(language)
    checked = 0
    for table, key, suffixes in _lists(language):
        for phrase in data[table][key]:
            *head, last = phrase.split()
            if not last.isalpha() or len(last) < 3:
                continue
            for form in _diminutives(last, suffixes):
                said = normalize(" ".join([*head, form]))
                if table == "ranges":
                    assert wants_earliest(said), (key, said)
                else:
                    assert part_of_day(said) == key, (key, said)
                checked += 1
    assert checked or not any(suffixes for _, _, suffixes in _lists(language))


@pytest.mark.parametrize(
    ("text", "earliest"),
    [("amanha bem cedinho", True), ("tomorrow, first thing", True), ("manana tempranito", True),
     ("amanha cedo", True), ("a cedilha", False), ("tempranero", False)],
)  # fmt: skip
def test_early_words(text: str, earliest: bool) -> None:
    assert wants_earliest(text) is earliest
