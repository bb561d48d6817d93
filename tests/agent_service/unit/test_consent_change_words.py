"""An answer that asks to change the proposal ends it (``consent_policy``: ``DROPPED``), so no
later yes confirms what the customer wanted changed; an answer with anything else left is asked
again (``CHANGED``). Generated from every language's ``[consent]`` data: each yes and no word
with each change word, in both orders, inside a sentence."""

from __future__ import annotations

import itertools
import random
from datetime import UTC, datetime
from uuid import uuid4

import pytest

from agent_service.application.consent_policy import (
    Answer,
    Outcome,
    PendingView,
    decide,
    read_answer,
)
from agent_service.infrastructure.language.rules import language_rules

RULES = language_rules()
LANGUAGES = ("pt", "en", "es")
NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
TTL = 900.0
_RANDOM = random.Random(37)


def _rows() -> list[tuple[str, str, str]]:
    """(language, answer word, change word) for every pair, a fixed sample of each language's
    pairs when there are many."""
    rows = []
    for code in LANGUAGES:
        vocabulary = RULES.consent(code)
        pairs = list(itertools.product((*vocabulary.yes, *vocabulary.no), vocabulary.change))
        rows += [(code, a, c) for a, c in _RANDOM.sample(pairs, min(len(pairs), 120))]
    return rows


@pytest.mark.parametrize(("code", "answer", "change"), _rows())
def test_an_answer_asking_for_a_change_ends_the_proposal(
    code: str, answer: str, change: str
) -> None:
    pending = PendingView(uuid4().hex, NOW, "book")
    checked = 0
    for text in (f"{answer}, {change} por favor", f"{change} {answer}"):
        reading = read_answer(text, RULES.consent_in(code), "book")
        assert reading.answer is not Answer.YES, (code, text, reading)
        if not reading.answered:
            continue  # a yes in one language and a no in another: no answer at all
        assert reading.changes, (code, text, reading)
        assert decide(pending, reading, None, NOW, TTL) is Outcome.DROPPED, text
        checked += 1
    assert checked, (code, answer, change)


@pytest.mark.parametrize("code", LANGUAGES)
def test_an_answer_with_anything_else_left_is_asked_again(code: str) -> None:
    pending = PendingView(uuid4().hex, NOW, "book")
    for answer in RULES.consent(code).yes[:20]:
        reading = read_answer(f"{answer}, zqx 42", RULES.consent_in(code), "book")
        assert reading.answer is Answer.OTHER and not reading.changes, (answer, reading)
        assert decide(pending, reading, None, NOW, TTL) is Outcome.CHANGED
