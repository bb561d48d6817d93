"""A change asked for with no new value, or a decline led by a discourse word, never books.

Over real gRPC with the offline model: a booking is proposed, the customer answers with a
message generated from the language data — a ``[intents].change_request`` phrase ("muda",
"another day", "cambiar"), optionally led by a ``[consent]`` filler ("na verdade", "actually"),
or a ``[consent]`` no word led by such a filler ("actually, forget it") — and then says yes.
Nothing may be booked: the first answer drops the proposal (the customer is asked what to
change, or the proposal is declined), so the yes confirms nothing. A lead that is an answer
word in another language ("y": a Spanish filler, an English yes), or a word the conversation's
language (Portuguese) has in another sense ("so": an English filler, Portuguese "só"), makes a
changed answer, asked again in full (consent_policy's rules), so leads are the fillers no
language reads as yes or no and Portuguese reads as filler or not at all.
The inputs come from the data files, with a fixed seed: the rule is tested on every language's
words, not on the sentences of a report."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from agenda.agent.v1 import types_pb2
from agenda_kit.mongo import EmbeddedMongo
from agent_service.application.text import normalize
from agent_service.infrastructure.language.grammar.vocabulary import Vocabulary
from agent_service.infrastructure.language.rules import language_rules
from tests.agent_service.integration.agent_fixtures import (
    Customer,
    agent_stack,
    agent_stub,
    booking_day,
    booking_request_text,
    channel_to,
    seed_demo_salon,
)
from tests.data_phrases import phrase
from tests.scale import size

pytest_plugins = ["tests.kit.mongo_fixtures"]
CODES = ("pt", "en", "es")
YES = {"pt": "sim", "en": "yes", "es": "sí"}
CONVERSATION = "pt"  # booking_request_text's language


def answers(count: int, seed: int = 20261206) -> list[tuple[str, str]]:
    """``count`` (language, answer) pairs generated from the language data."""
    rng = random.Random(seed)
    vocabularies = [language_rules().consent(code) for code in CODES]
    answer_words = {w for v in vocabularies for w in (*v.yes, *v.no)}
    conversation = language_rules().consent_in(CONVERSATION)[0]  # its known words too
    others = conversation.words - {w for p in conversation.filler for w in p.split()}
    made = []
    for _ in range(count):
        code = rng.choice(CODES)
        consent = language_rules().consent(code)
        fillers = [
            f for f in consent.filler if f not in answer_words and others.isdisjoint(f.split())
        ]
        lead = rng.choice(["", *sorted(fillers)])
        if rng.random() < 0.7:
            said = phrase(rng.choice(Vocabulary(code).patterns("intents", "change_request")), rng)
        else:
            said = rng.choice(sorted(consent.no))
        made.append((code, f"{lead}, {said}" if lead else said))
    return made


@pytest.fixture
async def customer(embedded_mongo: EmbeddedMongo, tmp_path: Path) -> AsyncIterator[Customer]:
    async with (
        agent_stack(embedded_mongo, tmp_path) as stack,
        channel_to(stack.replicas[0].port) as channel,
    ):
        tenant_id = await seed_demo_salon(channel)
        yield Customer(agent_stub(channel), tenant_id)


async def test_a_change_with_no_value_or_a_led_no_books_nothing(customer: Customer) -> None:
    day = booking_day()
    for number, (code, answer) in enumerate(answers(size(12, 120))):
        customer.conversation_id = ""
        customer.external_id = f"551190000{number:04d}"  # a new customer for each answer
        proposed = await customer.say(booking_request_text(day, "10:00"))
        assert proposed.HasField("pending"), proposed.reply
        told = await customer.say(answer)
        assert not told.HasField("pending"), (answer, told.reply)
        after = await customer.say(YES[code])
        booked = [a for a in after.actions if a.kind == types_pb2.ACTION_KIND_APPOINTMENT_BOOKED]
        assert not booked, (answer, normalize(after.reply))
