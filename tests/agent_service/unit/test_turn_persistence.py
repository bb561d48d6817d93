"""Storing a finished turn when another replica stored a turn of the same conversation first:
the exchange is added to the stored transcript and a handover the reply announced happens."""

from __future__ import annotations

from agent_service.application.engine import TurnOutput
from agent_service.application.turn_persistence import save_turn
from agent_service.domain.catalog import Customer
from agent_service.domain.conversations import Conversation, ConversationStatus, Message, Role
from tests.agent_service.conversation_fixtures import seed_salon
from tests.fakes.agent_repositories import in_memory_repositories


def customer_says(text: str) -> Message:
    return Message(role=Role.CUSTOMER, text=text, message_id=text)


async def raced(output: TurnOutput) -> Conversation:
    """``output`` stored from a conversation read before another replica's turn was saved."""
    repos = in_memory_repositories()
    salon = await seed_salon(repos)
    customer, _ = await repos.customers.upsert(
        Customer(tenant_id=salon.tenant.id, channel="whatsapp", external_id="5511999990000")
    )
    read = await repos.conversations.add(
        Conversation(tenant_id=salon.tenant.id, customer_id=customer.id, channel="whatsapp")
    )
    other = read.with_message(customer_says("oi")).with_message(
        Message(role=Role.ASSISTANT, text="Olá!")
    )
    await repos.conversations.save(other)  # the other replica's turn, first
    await save_turn(repos, read, customer_says("quero falar com alguém"), output)
    return await repos.conversations.get(salon.tenant.id, read.id)


async def test_a_raced_turn_adds_its_exchange_to_the_stored_transcript() -> None:
    stored = await raced(TurnOutput(reply="Claro.", specialist="faq"))
    assert [m.text for m in stored.messages] == ["oi", "Olá!", "quero falar com alguém", "Claro."]
    assert stored.status is ConversationStatus.ACTIVE


async def test_a_raced_turn_that_handed_over_leaves_the_conversation_with_a_human() -> None:
    output = TurnOutput(
        reply="Vou chamar uma pessoa da equipe.",
        specialist="handoff",
        handoff_reason="customer asked for a person",
    )
    stored = await raced(output)
    assert stored.status is ConversationStatus.HANDED_OFF
    assert stored.handoff_reason == "customer asked for a person"
    assert stored.messages[-1].text == "Vou chamar uma pessoa da equipe."
