"""A message id is its first sender's: the same id from another customer is
``MessageIdTakenError`` (``MESSAGE_ID_TAKEN``) whatever its text, the same text included (the
calendar/gateway review of session 49: the same text from another customer answered
MESSAGE_ID_REUSED, the contract's answer for the same sender with other text); the same sender
with other text is ``MessageIdReusedError``; the same sender and text is a redelivery. The
same holds while the first delivery's turn is still inside the model (review g15, V5: it
answered MESSAGE_ID_REUSED to another customer then): its claim records its sender."""

from __future__ import annotations

import asyncio
from uuid import UUID

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from agent_service.application.conversation import HandleMessage, IncomingMessage
from agent_service.application.engine import ProgressSink, TurnInput, TurnOutput
from agent_service.domain.errors import MessageIdReusedError, MessageIdTakenError
from tests.agent_service.conversation_fixtures import Assistant, seed_salon
from tests.fakes.agent_repositories import in_memory_repositories

FIRST, OTHER = "5511999990000", "5511888880000"
TEXTS = ["oi", "Qual é o endereço?", "quero marcar barba amanhã às 10h"]


@pytest.mark.parametrize("text", TEXTS)
async def test_a_message_id_is_its_first_senders(text: str) -> None:
    assistant = Assistant()
    salon = await seed_salon(assistant.repos)
    first = await assistant.say(salon.tenant.id, text, customer=FIRST, message_id="m1")
    for again in (text, text + "!"):
        with pytest.raises(MessageIdTakenError):
            await assistant.say(salon.tenant.id, again, customer=OTHER, message_id="m1")
    with pytest.raises(MessageIdReusedError):
        await assistant.say(salon.tenant.id, text + "!", customer=FIRST, message_id="m1")
    redelivered = await assistant.say(salon.tenant.id, text, customer=FIRST, message_id="m1")
    assert redelivered.duplicate and redelivered.result.reply == first.result.reply


class HeldEngine:
    """Answers "re: <text>"; each turn says it began and waits for the test to let it go."""

    def __init__(self) -> None:
        self.began = asyncio.Event()
        self.go = asyncio.Event()
        self.turns = 0

    async def run_turn(self, turn: TurnInput, progress: ProgressSink | None = None) -> TurnOutput:
        self.turns += 1
        self.began.set()
        await self.go.wait()
        return TurnOutput(reply=f"re: {turn.text}", specialist="test")


def sent(tenant: UUID, customer: str, text: str) -> IncomingMessage:
    return IncomingMessage(
        tenant_id=tenant,
        channel="whatsapp",
        external_id=customer,
        display_name="",
        conversation_id=None,
        message_id="wamid.1",
        text=text,
    )


async def reuses_while_the_first_runs(first: str, other: str, text: str, changed: str) -> None:
    repos = in_memory_repositories()
    tenant = (await seed_salon(repos)).tenant.id
    engine = HeldEngine()
    handle = HandleMessage(repos, engine)
    running = asyncio.create_task(handle.execute(sent(tenant, first, text)))
    await engine.began.wait()  # the first delivery's turn is inside the model
    for again in (text, changed):
        with pytest.raises(MessageIdTakenError):
            await handle.execute(sent(tenant, other, again))
    with pytest.raises(MessageIdReusedError):
        await handle.execute(sent(tenant, first, changed))
    redelivery = asyncio.create_task(handle.execute(sent(tenant, first, text)))
    engine.go.set()
    answered, redelivered = await asyncio.gather(running, redelivery)
    assert redelivered.duplicate and redelivered.result.reply == answered.result.reply
    assert engine.turns == 1
    for again in (text, changed):  # and once the turn ended
        with pytest.raises(MessageIdTakenError):
            await handle.execute(sent(tenant, other, again))
    with pytest.raises(MessageIdReusedError):
        await handle.execute(sent(tenant, first, changed))


SENDERS = st.from_regex(r"[0-9]{8,15}", fullmatch=True)
TEXTS_ANY = st.text(min_size=1, max_size=80).filter(str.strip)


@settings(max_examples=40, deadline=None)
@given(SENDERS, SENDERS, TEXTS_ANY, TEXTS_ANY)
def test_while_the_first_delivery_runs_its_id_is_still_its_senders(
    first: str, other: str, text: str, changed: str
) -> None:
    """Review g15, V5: with the first turn held inside the model, the same id from another
    customer answered MESSAGE_ID_REUSED (same text or other); it is MESSAGE_ID_TAKEN, as
    after the turn ended. The same sender with other text is still MESSAGE_ID_REUSED and the
    same sender and text waits for the first delivery's reply."""
    assume(first != other and text != changed)
    asyncio.run(reuses_while_the_first_runs(first, other, text, changed))
