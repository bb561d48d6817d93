"""A message id is its first sender's: the same id from another customer is
``MessageIdTakenError`` (``MESSAGE_ID_TAKEN``) whatever its text, the same text included (the
calendar/gateway review of session 49: the same text from another customer answered
MESSAGE_ID_REUSED, the contract's answer for the same sender with other text); the same sender
with other text is ``MessageIdReusedError``; the same sender and text is a redelivery."""

from __future__ import annotations

import pytest

from agent_service.domain.errors import MessageIdReusedError, MessageIdTakenError
from tests.agent_service.conversation_fixtures import Assistant, seed_salon

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
