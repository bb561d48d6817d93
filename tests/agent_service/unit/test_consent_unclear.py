"""An answer that only says the question was not understood ("hã? não entendi", "sorry,
what?", "¿cómo? no entendí") asks for it again: the system asks it again in code (no model
request), with a fresh id, and the next plain yes books it once. Session 41's blind batch found
the Portuguese one read as a "no" (its "não"): the proposal was dropped and the customer asked
what to change. The answers are generated from every language's ``[consent].unclear`` list,
never written here; beside a yes or a no word they are no clean answer either way.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime

import pytest

from agent_service.application.consent_policy import Outcome, PendingView, decide, read_answer
from agent_service.domain.conversations import ActionKind
from agent_service.infrastructure.language.rules import language_rules
from tests.agent_service.conversation_fixtures import Assistant, seed_salon

LANGUAGES = ("pt", "en", "es")
NOW = datetime(2026, 11, 30, 12, tzinfo=UTC)
PENDING = PendingView("p-1", NOW, "book")
DECORATIONS = ("{}", "{}?", "¿{}?", "{}??", "{} 🙂")
WITH_FILLER = ("hmm, {}", "{}, please", "ah... {}")


def _outcome(text: str, language: str, now: datetime = NOW) -> Outcome:
    reading = read_answer(text, language_rules().consent_in(language), "book")
    return decide(PENDING, reading, None, now, 600)


def _unclear(language: str) -> tuple[str, ...]:
    return language_rules().consent(language).unclear


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_way_of_not_understanding_asks_the_question_again(language: str) -> None:
    """Any phrase alone; a phrase of several words with fillers around it or beside another."""
    rng = random.Random(f"unclear-{language}")
    words = _unclear(language)
    assert words, f"{language}: no [consent].unclear words"
    filler = rng.choice(language_rules().consent(language).filler)
    for phrase in words:
        for shape in DECORATIONS:
            message = shape.format(phrase)
            assert _outcome(message, language) is Outcome.UNCLEAR, message
        if " " in phrase:
            for shape in (*WITH_FILLER, f"{filler} {{}}"):
                message = shape.format(phrase)
                assert _outcome(message, language) is Outcome.UNCLEAR, message
            two = f"{rng.choice(words)}? {phrase}"
            assert _outcome(two, language) is Outcome.UNCLEAR, two


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_phrase_split_by_punctuation_or_a_lone_word_among_others_is_no_unclear(
    language: str,
) -> None:
    """ "Não, entendi, obrigado" is a no and an "understood", not "não entendi"; "so what?",
    "ha ha" are no request to hear the question again."""
    consent = language_rules().consent(language)
    single = [phrase for phrase in _unclear(language) if " " not in phrase]
    for phrase in _unclear(language):
        first, _, rest = phrase.partition(" ")
        if rest:
            for mark in (", ", ". ", "! ", "... "):
                message = f"{first}{mark}{rest}"
                assert _outcome(message, language) is not Outcome.UNCLEAR, message
    for word in single:
        for message in (f"{consent.filler[0]} {word}?", f"{word} {word}", f"{word}, {word}?"):
            assert _outcome(message, language) is not Outcome.UNCLEAR, message


@pytest.mark.parametrize("language", LANGUAGES)
def test_beside_a_yes_or_a_no_it_is_never_a_clean_answer(language: str) -> None:
    """ "sim, não entendi" is no yes; "não, não entendi" no plain no; with any other word left
    ("não entendi, mas pode marcar") it is no UNCLEAR either."""
    rng = random.Random(f"unclear-mixed-{language}")
    vocabulary = language_rules().consent(language)
    for phrase in _unclear(language):
        yes, no = rng.choice(vocabulary.yes), rng.choice(vocabulary.no)
        for message in (f"{yes}, {phrase}", f"{phrase}, {yes}", f"{phrase}... {yes}"):
            assert _outcome(message, language) not in (Outcome.CONFIRMED, Outcome.UNCLEAR), message
        assert _outcome(f"{no}, {phrase}", language) is not Outcome.UNCLEAR
        assert _outcome(f"{phrase} xyzzy", language) is not Outcome.UNCLEAR


def test_it_never_revives_an_expired_proposal() -> None:
    late = datetime(2026, 12, 1, 12, tzinfo=UTC)
    assert _outcome("não entendi", "pt", late) is Outcome.DROPPED


@pytest.mark.parametrize(
    ("proposal", "unclear", "yes"),
    [
        ("Quero agendar barba com o Bruno amanhã às 10h", "hã? não entendi", "sim"),
        ("I want to book a beard trim with Bruno tomorrow at 10am", "sorry, what?", "yes"),
        ("Quiero reservar barba con Bruno mañana a las 10", "¿cómo? no entendí", "sí"),
    ],
)
async def test_the_question_is_asked_again_in_code_and_booked_once(
    proposal: str, unclear: str, yes: str
) -> None:
    assistant = Assistant()
    salon = await seed_salon(assistant.repos)
    first = await assistant.say(salon.tenant.id, proposal)
    asked = first.result.pending
    assert asked is not None, first.result.reply
    again = await assistant.say(salon.tenant.id, unclear)
    pending = again.result.pending
    assert pending is not None, again.result.reply
    assert ActionKind.CHANGE_DECLINED not in [a.kind for a in again.result.actions]
    assert again.result.reply.endswith(pending.question), again.result.reply
    assert pending.id != asked.id and pending.start == asked.start
    booked = await assistant.say(salon.tenant.id, yes)
    kinds = [action.kind for action in booked.result.actions]
    assert kinds == [ActionKind.APPOINTMENT_BOOKED], booked.result.reply
    stale = await assistant.say(salon.tenant.id, yes)
    assert ActionKind.APPOINTMENT_BOOKED not in [a.kind for a in stale.result.actions]
