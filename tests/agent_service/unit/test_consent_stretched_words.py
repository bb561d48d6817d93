"""A word stretched in chat by repeating its last letter is the same word, however many times
the letter is repeated (session 44, blind consent review: "simmm" was a yes and "simm pfv" was
not: only runs of three or more letters were cut). Generated from every language's yes and
no words: each one-word yes or no with its last letter doubled, tripled or repeated five times
reads as the word; a word with a doubled letter inside is never read as another word by it."""

from __future__ import annotations

import itertools

import pytest

from agent_service.application.consent_policy import Answer, read_answer
from agent_service.infrastructure.language.rules import language_rules

LANGUAGES = ("pt", "en", "es")


def _one_word(phrases: tuple[str, ...]) -> list[str]:
    return [p for p in phrases if p.isalpha() and len(p) >= 2]


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_yes_or_no_word_with_its_last_letter_repeated_reads_as_itself(language: str) -> None:
    vocabulary = language_rules().consent_in(language)
    own = language_rules().consent(language)
    for answer, words in ((Answer.YES, own.yes), (Answer.NO, own.no)):
        for word in _one_word(words):
            plain = read_answer(word, vocabulary, "book").answer
            if plain is not answer:
                continue  # read otherwise in this language (a word of two meanings)
            for times in (2, 3, 5):
                stretched = word + word[-1] * (times - 1)
                got = read_answer(stretched, vocabulary, "book").answer
                assert got is answer, (language, stretched, got)


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_doubled_letter_inside_a_word_does_not_make_it_a_yes(language: str) -> None:
    """Only the end of a word is stretched: "valle" (a valley) is no "vale"."""
    vocabulary = language_rules().consent_in(language)
    own = language_rules().consent(language)
    every_yes = {p for code in LANGUAGES for p in language_rules().consent(code).yes}
    checked = 0
    for word in _one_word(own.yes):
        if any(a == b for a, b in itertools.pairwise(word)):
            continue  # a doubled letter of its own ("isso")
        for i in range(1, len(word) - 1):
            inner = word[:i] + word[i] + word[i:]
            if inner in every_yes:
                continue
            assert read_answer(inner, vocabulary, "book").answer is not Answer.YES, inner
            checked += 1
    assert checked
