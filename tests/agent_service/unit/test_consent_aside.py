"""A question about the business asked while a proposal waits ("aceita pix?", "is there
parking?", "¿dónde están?") is answered, and the proposal is asked again with a fresh id as the
reply's last words: the next plain yes books it, once. Anything that asks for more than the
business — a booking, one's own appointments, a complaint — or says an answer word still ends
the proposal (``application/consent_policy``, ``ASIDE``). The messages are generated from every
language's ``[intents]`` tables, never written here."""

from __future__ import annotations

import itertools
import random
from datetime import UTC, datetime

import pytest

from agent_service.application.consent_policy import Outcome, PendingView, decide, read_answer
from agent_service.domain.conversations import ActionKind
from agent_service.infrastructure.agent.consent import asks_about_the_business
from agent_service.infrastructure.language.packs import language_data
from agent_service.infrastructure.language.rules import language_rules
from tests.agent_service.conversation_fixtures import Assistant, seed_salon
from tests.data_phrases import phrase

LANGUAGES = ("pt", "en", "es")
NOW = datetime(2026, 11, 30, 12, tzinfo=UTC)
PENDING = PendingView("p-1", NOW, "book")
BUSINESS = ("faq", "discovery")
NOT_ONLY_BUSINESS = ("booking", "appointments", "complaint", "cancel_other")


def _generated(language: str, tables: tuple[str, ...], rng: random.Random) -> list[str]:
    intents = language_data(language)["intents"]
    return [phrase(pattern, rng) for table in tables for pattern in intents[table]]


def _outcome(text: str, language: str) -> Outcome:
    reading = read_answer(text, language_rules().consent_in(language), "book")
    aside = not reading.answered and asks_about_the_business(text, language)
    return decide(PENDING, reading, None, NOW, 600, aside=aside)


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_question_about_the_business_keeps_the_proposal_to_ask_it_again(language: str) -> None:
    """Nearly every generated FAQ or catalog question is an aside; none confirms or declines
    (a question holding a yes word, "who works?", is a changed answer: asked again too)."""
    rng = random.Random(f"aside-{language}")
    outcomes = [_outcome(f"{q}?", language) for q in _generated(language, BUSINESS, rng)]
    assert not {Outcome.CONFIRMED, Outcome.DECLINED} & set(outcomes)
    assert outcomes.count(Outcome.ASIDE) >= 0.9 * len(outcomes), outcomes


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_question_that_also_asks_for_a_change_or_answers_ends_the_proposal(
    language: str,
) -> None:
    """With a phrase of a booking, one's own appointments or a complaint, or with a yes or a no
    word, the question is no aside: the proposal ends as any other message ends it."""
    rng = random.Random(f"not-aside-{language}")
    vocabulary = language_rules().consent(language)
    business = _generated(language, BUSINESS, rng)
    for other in _generated(language, NOT_ONLY_BUSINESS, rng):
        message = f"{rng.choice(business)}, {other}?"
        assert _outcome(message, language) is not Outcome.ASIDE, message
    for word in itertools.chain(vocabulary.yes[:10], vocabulary.no[:10]):
        message = f"{word}, {rng.choice(business)}?"
        assert _outcome(message, language) is not Outcome.ASIDE, message


def test_an_aside_never_revives_an_expired_proposal() -> None:
    reading = read_answer("aceita pix?", language_rules().consent_in("pt"), "book")
    late = datetime(2026, 12, 1, 12, tzinfo=UTC)
    assert decide(PENDING, reading, None, late, 600, aside=True) is Outcome.DROPPED


@pytest.mark.parametrize(
    ("proposal", "question", "yes"),
    [
        ("Quero agendar barba com o Bruno amanhã às 10h", "qual o endereço?", "sim"),
        ("I want to book a beard trim with Bruno tomorrow at 10am", "where are you?", "yes"),
        ("Quiero reservar barba con Bruno mañana a las 10", "¿dónde están?", "sí"),
    ],
)
async def test_the_question_is_answered_then_the_proposal_is_asked_again_and_booked_once(
    proposal: str, question: str, yes: str
) -> None:
    assistant = Assistant()
    salon = await seed_salon(assistant.repos)
    first = await assistant.say(salon.tenant.id, proposal)
    assert first.result.pending is not None, first.result.reply
    aside = await assistant.say(salon.tenant.id, question)
    again = aside.result.pending
    assert again is not None, aside.result.reply
    assert "Rua das Flores" in aside.result.reply, aside.result.reply
    assert aside.result.reply.endswith(again.question), aside.result.reply
    assert again.id != first.result.pending.id and again.start == first.result.pending.start
    booked = await assistant.say(salon.tenant.id, yes)
    kinds = [action.kind for action in booked.result.actions]
    assert kinds == [ActionKind.APPOINTMENT_BOOKED], booked.result.reply
    stale = await assistant.say(salon.tenant.id, yes)
    assert ActionKind.APPOINTMENT_BOOKED not in [a.kind for a in stale.result.actions]
