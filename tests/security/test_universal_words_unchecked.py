"""A word saying that a fact holds for every or any one of a kind ("cada", "any", "cualquier",
``[truth].universal``) has no checker: no result is read for "every time on Tuesday". Review
15's post-hoc probes found such lies sent verbatim after a listing with taken times: "Ana has
free slots at any time on Tuesday.", "A Ana atende em cada horário da terça.", "Ana tiene
horarios libres en cualquier momento del martes." ("cada", "any" and "cualquier" were listing
words, and the courtesy phrase "any time" was read as filler inside a statement).

Generated over every universal word of every language, inserted at each gap of a sentence
that a listing of this turn tells (the sentence without it is sent: the twin), and over the
data: no frame of any language holds such a word.
"""

from __future__ import annotations

import pytest

from agent_service.application.statements import Statements
from agent_service.infrastructure.agent.statement_words import statement_rules
from agent_service.infrastructure.language.rules import language_rules
from tests.agent_service.unit.test_statements_properties import _statements, _unsent

CODES = ("pt", "en", "es")
LISTING = (
    "2 horários livres com Ana Souza para Corte feminino em terça-feira 01/12/2026: 09:00, 11:00."
)
PRICES = "Corte feminino: R$ 80,00"
TOLD = {
    "pt": ["A Ana Souza tem horários livres na terça.", "O Corte feminino custa R$ 80,00."],
    "en": ["Ana Souza has free times on Tuesday.", "Corte feminino costs R$ 80,00."],
    "es": ["Ana Souza tiene horarios libres el martes.", "El Corte feminino cuesta R$ 80,00."],
}
UNIVERSAL = sorted(set().union(*(language_rules().universal(code) for code in CODES)))


def _checked() -> Statements:
    return _statements([LISTING, PRICES], [])


def _with_word(sentence: str, word: str) -> list[str]:
    """``sentence`` with ``word`` in each gap between its words (before the final period)."""
    words = sentence.rstrip(".").split()
    return [" ".join([*words[:i], word, *words[i:]]) + "." for i in range(1, len(words) + 1)]


@pytest.mark.parametrize("code", CODES)
def test_a_universal_word_beside_told_facts_is_never_sent(code: str) -> None:
    statements = _checked()
    for sentence in TOLD[code]:
        assert _unsent(statements, sentence) == [], sentence  # the twin is sent
        for word in UNIVERSAL:
            for said in _with_word(sentence, word):
                assert statements.refused(said), said


def test_no_frame_or_filler_phrase_holds_a_universal_word() -> None:
    rules = statement_rules(CODES)
    allowed = rules.listing | rules.frame
    assert allowed.isdisjoint(UNIVERSAL), sorted(allowed & set(UNIVERSAL))
    for phrase in rules.phrases:
        assert set(UNIVERSAL).isdisjoint(phrase.split()), phrase
