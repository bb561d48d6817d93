"""A phrase inside a longer phrase of another kind names no kind of its own, unless the longer
kind refines it (blind batch 18, before any fix: "a hearing test" named a hearing test *and*
a trial — "test" is alike Portuguese "testar" — so "Teste de Aparelho Auditivo" was booked for
it, a wrong write). "corte feminino" is still a "corte": one of its kind's phrases holds a
phrase of the other word for word.

Checked over every phrase of the built-in lexicon, said alone, and inside a sentence.
"""

from __future__ import annotations

import pytest

from agent_service.application.text import tokens
from agent_service.infrastructure.language.lexicon import service_lexicon

LEXICON = service_lexicon()


def _contains(longer: list[str], shorter: list[str]) -> bool:
    size = len(shorter)
    return any(longer[i : i + size] == shorter for i in range(len(longer) - size + 1))


def _refines(kind: str, other: str) -> bool:
    """Whether a phrase of ``kind`` holds a phrase of ``other`` word for word."""
    return any(
        _contains(tokens(longer), tokens(shorter))
        for longer in LEXICON.kinds[kind]
        for shorter in LEXICON.kinds[other]
        if shorter
    )


PHRASES = sorted(
    {
        (kind, phrase)
        for kind, phrases in LEXICON.kinds.items()
        for phrase in phrases
        if " " in phrase
    }
)


@pytest.mark.parametrize(("kind", "phrase"), PHRASES)
def test_a_longer_phrase_names_only_its_own_kind_and_what_it_refines(
    kind: str, phrase: str
) -> None:
    length = len(tokens(phrase))
    for text in (phrase, f"quero marcar {phrase} amanhã"):
        found = LEXICON.kinds_in(text)
        assert found.get(kind) == length, (text, found)
        for other, strength in found.items():
            if other != kind and strength < length:
                assert _refines(kind, other), (text, other, found)


def test_a_refined_kind_is_still_named() -> None:
    assert LEXICON.kinds_in("corte feminino").keys() >= {"haircut", "womens_haircut"}
    assert "device_trial" not in LEXICON.kinds_in("a hearing test on the 3rd")
