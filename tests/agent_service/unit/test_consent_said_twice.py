"""A yes said twice over ("yeah yeah", "claro, claro", "tá, tá bom", "ok ok") is how one
brushes a question off as often as how one agrees: it is no plain yes, and the question is
asked again (review 9, blind: 12 of 13 such answers wrote). A repetition the language data
lists as a yes of its own ("sim sim", "si si": emphatic) stays a yes, however often it is said;
so does a repetition beside another yes ("yes, yes, go ahead"), and a phrase of three words or
more said again ("claro que sim, claro que sim": emphasis).

Generated from every language's yes phrases: each said twice, with a space, a comma or an
exclamation between, alone and with a yes after it.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from agent_service.application.consent_policy import (
    Answer,
    Outcome,
    PendingView,
    decide,
    read_answer,
)
from agent_service.infrastructure.language.rules import language_rules
from tests.agent_service.conversation_fixtures import Assistant, seed_salon

LANGUAGES = ("pt", "en", "es")
JOINS = (" ", ", ", "! ")


def _cases(language: str) -> list[tuple[str, bool]]:
    """Every yes phrase read as a yes alone, said twice: whether the twice-said form is itself
    a phrase of the table."""
    vocabulary = language_rules().consent_in(language)
    own = language_rules().consent(language)
    table = set(own.yes)
    cases = []
    for phrase in own.yes:
        if read_answer(phrase, vocabulary, "book").answer is not Answer.YES:
            continue
        for join in JOINS:
            first = phrase.split()[0]
            unstretched = first.rstrip(first[-1]) + first[-1]  # "sii" is "si"
            emphatic = len(phrase.split()) >= 3  # "claro que sim, claro que sim"
            listed = emphatic or any(f"{w} {w}" in table for w in (first, unstretched))
            cases.append((f"{phrase}{join}{phrase}", listed))
    return cases


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_yes_said_twice_is_asked_again_unless_the_data_lists_it(language: str) -> None:
    vocabulary = language_rules().consent_in(language)
    checked = 0
    for said, listed in _cases(language):
        reading = read_answer(said, vocabulary, "book")
        if listed:
            assert reading.answer is Answer.YES, (language, said)
            continue
        assert reading.answer is not Answer.YES, (language, said)
        assert reading.unclear, (language, said)
        checked += 1
    assert checked > 10


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_yes_said_twice_never_confirms(language: str) -> None:
    now = datetime(2026, 11, 30, 12, tzinfo=UTC)
    pending = PendingView("id-1", now, "book")
    vocabulary = language_rules().consent_in(language)
    for said, listed in _cases(language):
        if listed:
            continue
        outcome = decide(pending, read_answer(said, vocabulary, "book"), None, now, 900)
        assert outcome is Outcome.UNCLEAR, (language, said, outcome)


PROPOSALS = {
    "pt": "Quero agendar barba com o Bruno amanhã às 10h",
    "en": "I'd like a beard trim with Bruno tomorrow at 10am",
    "es": "Quiero barba con Bruno mañana a las 10",
}


def _played() -> list[tuple[str, str]]:
    """A sample of each language's twice-said yeses, read through the whole turn (the answer
    is read for a restatement of the proposal too: review of this rule, a twice-said yes was
    read back as a restating yes and booked)."""
    return [(code, said) for code in PROPOSALS for said, listed in _cases(code)[::14] if not listed]


@pytest.mark.parametrize(("code", "said"), _played())
async def test_a_yes_said_twice_books_nothing_and_asks_again(code: str, said: str) -> None:
    assistant = Assistant()
    salon = await seed_salon(assistant.repos)
    asked = await assistant.say(salon.tenant.id, PROPOSALS[code])
    assert asked.result.pending is not None, asked.result.reply
    again = await assistant.say(salon.tenant.id, said)
    assert again.result.actions == (), again.result.reply
    assert again.result.pending is not None, again.result.reply
    assert assistant.calendar.events == {}
