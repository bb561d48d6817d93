"""The offline model reads a message against the customer's upcoming appointments
(``offline/upcoming.py``), with messages generated from the language data (fixed seed):

* a cancel or move word, or a "not going / no longer need it" phrase, with a service word of
  the kind of one of them is about that appointment (the appointments specialist's);
* the same words about a service of another kind, on no day of theirs, are not;
* nor is anything with a booking phrase, nor anything while a proposal is pending;
* the memory line of the context block is where the offline model reads them from.
"""

from __future__ import annotations

import random
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from agent_service.infrastructure.agent.memory import memory_text
from agent_service.infrastructure.agent.offline.context import OfflineContext, upcoming_in
from agent_service.infrastructure.agent.offline.upcoming import about_upcoming, intent_of
from agent_service.infrastructure.agent.tools.formatting import describe, local_text
from agent_service.infrastructure.language.grammar.vocabulary import Vocabulary, found
from agent_service.infrastructure.language.packs import language_data
from tests.data_phrases import phrase
from tests.scale import size

ZONE = ZoneInfo("America/Sao_Paulo")
NOW = datetime(2026, 11, 30, 12, 0, tzinfo=ZONE)  # a Monday
FRIDAY = datetime(2026, 12, 4, 11, 0, tzinfo=ZONE)
WEDNESDAY = datetime(2026, 12, 2, 15, 0, tzinfo=ZONE)
LANGUAGES = ("pt", "en", "es")
SIGNALS = (("appointments", "cancel_words"), ("appointments", "move_words"),
           ("appointments", "cant_make_it"))  # fmt: skip


def _upcoming(service: str, start: datetime, language: str) -> str:
    return describe(service, "Rafael Nunes", local_text(start, ZONE, language), language)


def _messages(count: int, seed: int = 37) -> list[tuple[str, str, str]]:
    """(language, signal phrase, service word of the beard kind) triples."""
    rng = random.Random(seed)
    made = []
    for _ in range(count):
        code = rng.choice(LANGUAGES)
        table, key = rng.choice(SIGNALS)
        signal = phrase(rng.choice(Vocabulary(code).patterns(table, key)), rng)
        service = rng.choice(language_data(code)["services"]["beard"])
        made.append((code, signal, service))
    return made


MESSAGES = [
    row
    for row in _messages(size(60, 600))
    if not found("intents", "booking", f"{row[1]} {row[2]}", row[0])
]


@pytest.mark.parametrize(("code", "signal", "service"), MESSAGES)
def test_a_change_word_with_the_service_of_an_upcoming_appointment_is_about_it(
    code: str, signal: str, service: str
) -> None:
    beard = _upcoming("Barba na navalha", FRIDAY, code)
    nails = _upcoming("Cuidado das unhas", WEDNESDAY, code)
    text = f"{signal} {service}"
    assert about_upcoming(text, (nails, beard), NOW, code), text
    assert not about_upcoming(text, (nails,), NOW, code), text  # another kind, another day
    assert not about_upcoming(text, (), NOW, code)


@pytest.mark.parametrize("code", LANGUAGES)
def test_a_booking_phrase_or_a_pending_proposal_is_never_about_an_appointment(code: str) -> None:
    beard = _upcoming("Barba na navalha", FRIDAY, code)
    rng = random.Random(code)
    for pattern in Vocabulary(code).patterns("intents", "booking"):
        booking = phrase(pattern, rng)
        move = rng.choice(Vocabulary(code).patterns("appointments", "move_words")).strip("*")
        service = language_data(code)["services"]["beard"][0]
        text = f"{booking} {service} {move}"
        assert not about_upcoming(text, (beard,), NOW, code), text
        pending = _context(text, code, (beard,), pending={"tool": "book_appointment"})
        assert intent_of(pending) != ("appointments", 0.9)


def _context(
    text: str, code: str, upcoming: tuple[str, ...], pending: dict[str, str] | None = None
) -> OfflineContext:
    return OfflineContext(text, [], NOW, ZONE, code, "Salão", pending, upcoming=upcoming)


@pytest.mark.parametrize("code", LANGUAGES)
def test_the_memory_line_carries_the_upcoming_appointments(code: str) -> None:
    beard = _upcoming("Barba na navalha", FRIDAY, code)
    nails = _upcoming("Cuidado das unhas", WEDNESDAY, code)
    line = memory_text({"name": "Ana", "upcoming": [nails, beard], "summary": "x"}, None)
    assert upcoming_in(line) == (nails, beard)
    assert upcoming_in(memory_text({"name": "Ana", "summary": "x"}, None)) == ()


@pytest.mark.parametrize("code", LANGUAGES)
def test_a_question_about_my_service_is_about_that_appointment(code: str) -> None:
    """A question with a possessive of ``[listing]`` and a service word of an upcoming
    appointment's kind ("com quem ficou minha barba?") is about it; without the question, or
    about a kind the customer has not booked, it is not."""
    beard = _upcoming("Barba na navalha", FRIDAY, code)
    nails = _upcoming("Cuidado das unhas", WEDNESDAY, code)
    data = language_data(code)
    for possessive in data["listing"]["possessives"]:
        for service in data["services"]["beard"]:
            asked = f"{possessive} {service}?"
            assert about_upcoming(asked, (nails, beard), NOW, code), asked
            assert not about_upcoming(asked, (nails,), NOW, code), asked
            assert not about_upcoming(f"{possessive} {service}", (beard,), NOW, code)
