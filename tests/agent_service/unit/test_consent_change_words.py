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
        if not reading.answered or reading.answer is Answer.NO:
            continue  # no answer at all (a yes here, a no there), or a plain no: declined
        assert reading.unwanted, (code, text, reading)
        assert decide(pending, reading, None, NOW, TTL) is Outcome.DROPPED, text
        checked += 1
    assert checked, (code, answer, change)


@pytest.mark.parametrize("code", LANGUAGES)
def test_an_answer_with_anything_else_left_is_asked_again(code: str) -> None:
    pending = PendingView(uuid4().hex, NOW, "book")
    for answer in RULES.consent(code).yes[:20]:
        reading = read_answer(f"{answer}, zqx 42", RULES.consent_in(code), "book")
        assert reading.answer is Answer.OTHER and not reading.unwanted, (answer, reading)
        assert decide(pending, reading, None, NOW, TTL) is Outcome.CHANGED


@pytest.mark.parametrize("code", LANGUAGES)
def test_a_no_with_anything_else_ends_the_proposal(code: str) -> None:
    """A no word and something else ("não, espera, quero manter") is never asked again: a
    later yes must not confirm what was just refused."""
    pending = PendingView(uuid4().hex, NOW, "cancel")
    for word in RULES.consent(code).no:
        reading = read_answer(f"{word}, zqx 42", RULES.consent_in(code), "cancel")
        if not reading.answered:
            continue  # a no here and a yes in another language: no answer at all
        assert reading.unwanted, (code, word, reading)
        assert decide(pending, reading, None, NOW, TTL) is Outcome.DROPPED, word


@pytest.mark.parametrize("code", LANGUAGES)
@pytest.mark.parametrize("kind", ["cancel", "reschedule"])
def test_keeping_it_is_a_no_to_that_kind_of_change(code: str, kind: str) -> None:
    """Each kind's own no words ("keep it", "quero manter", "la mantengo") decline it."""
    pending = PendingView(uuid4().hex, NOW, kind)
    words = RULES.consent(code).no_for(kind)
    assert words, (code, kind)
    for word in words:
        reading = read_answer(word, RULES.consent_in(code), kind)
        assert reading.answer is Answer.NO, (code, kind, word, reading)
        assert decide(pending, reading, None, NOW, TTL) is Outcome.DECLINED


@pytest.mark.parametrize("code", LANGUAGES)
def test_a_customer_not_sure_yet_never_confirms_and_ends_the_proposal(code: str) -> None:
    """Each ``unsure`` phrase ("talvez", "let me check", "déjame pensarlo"), alone or after a
    yes word, is an answer that is no yes: the proposal ends, and the same one is not asked
    again at once (``consent.confirmation_gate``)."""
    pending = PendingView(uuid4().hex, NOW, "book")
    yes = RULES.consent(code).yes[0]
    for word in RULES.consent(code).unsure:
        for text in (word, f"{yes}, {word}"):
            reading = read_answer(text, RULES.consent_in(code), "book")
            assert reading.answer is Answer.OTHER and reading.unwanted, (code, text, reading)
            assert decide(pending, reading, None, NOW, TTL) is Outcome.DROPPED, text
