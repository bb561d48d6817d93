"""A no word that is also a function word of the conversation's language (Portuguese "no",
"in the": ``[consent].no_alone``) is a no only standing alone. Review 15 (blind): "sim, surgiu um
imprevisto no trabalho" and "sim, fico no aguardo" dropped the proposal ("Nada foi alterado …
não foi feito") although the customer said yes.

Generated over each language's ``no_alone`` words and the language's known words that are no
answer word: after a yes, "<no> <word>" never reads as a no; alone, before punctuation or
before an answer word it still does.
"""

from __future__ import annotations

import pytest

from agent_service.application.consent_policy import Answer, read_answer
from agent_service.infrastructure.language.packs import word_list
from agent_service.infrastructure.language.rules import language_rules

CODES = ("pt", "en", "es")
KINDS = ("book", "cancel", "reschedule")


def _answer_words(code: str) -> set[str]:
    """Every word of an answer phrase of the languages in play (a change word of any of them
    asks for a change whatever comes before it)."""
    phrases: list[str] = []
    for vocabulary in language_rules().consent_in(code):
        phrases += [*vocabulary.yes, *vocabulary.no, *vocabulary.filler, *vocabulary.unsure]
        phrases += [*vocabulary.change, *vocabulary.unclear, *vocabulary.hesitation]
        for kind in KINDS:
            phrases += [*vocabulary.yes_for(kind), *vocabulary.no_for(kind)]
    return {w for phrase in phrases for w in phrase.split()}


def _cases() -> list[tuple[str, str, str]]:
    cases = []
    for code in CODES:
        answer = _answer_words(code)
        plain = sorted(w for w in language_rules().known_words(code) if w not in answer)
        for alone in word_list(code, "consent", "no_alone"):
            cases += [(code, alone, word) for word in plain[:: max(1, len(plain) // 40)]]
    return cases


@pytest.mark.parametrize(("code", "alone", "word"), _cases())
def test_a_function_word_before_another_word_is_no_no(code: str, alone: str, word: str) -> None:
    vocabularies = language_rules().consent_in(code)
    yes = word_list(code, "consent", "yes")[0]
    for kind in KINDS:
        reading = read_answer(f"{yes}, tenho {alone} {word}", vocabularies, kind)
        assert not reading.unwanted and reading.answer is not Answer.NO, (kind, word)


@pytest.mark.parametrize("code", CODES)
def test_standing_alone_it_is_still_a_no(code: str) -> None:
    vocabularies = language_rules().consent_in(code)
    yes = word_list(code, "consent", "yes")[0]
    for alone in word_list(code, "consent", "no_alone"):
        for kind in KINDS:
            assert read_answer(alone, vocabularies, kind).answer is Answer.NO
            assert read_answer(f"{alone}, {yes}", vocabularies, kind).unwanted
            assert read_answer(f"{yes} {alone}", vocabularies, kind).unwanted
            assert read_answer(f"{alone} {alone}", vocabularies, kind).answer is Answer.NO
