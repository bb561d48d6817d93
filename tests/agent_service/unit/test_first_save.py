"""A new conversation is stored by its first turn's save, which follows the turn's stored
result: whatever dies between the two, the conversation a reply names exists before that reply
reaches the customer (the turn's own reply comes after the save; a redelivery stores it)."""

from __future__ import annotations

import asyncio
import dataclasses
from uuid import UUID

import pytest

from agent_service.application.conversation import HandleMessage, IncomingMessage
from agent_service.application.engine import ProgressSink, TurnInput, TurnOutput
from agent_service.application.turn_runner import HUMAN
from agent_service.domain.conversations import (
    ActionKind,
    Conversation,
    ConversationStatus,
    TurnAction,
)
from agent_service.domain.errors import StorageUnavailableError
from tests.agent_service.conversation_fixtures import seed_salon
from tests.fakes.agent_repositories import InMemoryConversationRepository, in_memory_repositories


class EchoEngine:
    async def run_turn(self, turn: TurnInput, progress: ProgressSink | None = None) -> TurnOutput:
        return TurnOutput(reply=f"ok {turn.text}", specialist="test")


class SavesFailOnce(InMemoryConversationRepository):
    """The first save finds the database gone (stands for the process dying after the
    turn's result was stored)."""

    def __init__(self) -> None:
        super().__init__()
        self.failures = 1

    async def save(self, conversation: Conversation) -> Conversation:
        if self.failures:
            self.failures -= 1
            raise StorageUnavailableError()
        return await super().save(conversation)


def message(
    tenant_id: UUID, message_id: str, conversation_id: UUID | None = None
) -> IncomingMessage:
    return IncomingMessage(
        tenant_id=tenant_id,
        channel="whatsapp",
        external_id="5511999990000",
        display_name="Maria",
        conversation_id=conversation_id,
        message_id=message_id,
        text=f"oi {message_id}",
    )


async def test_a_first_turn_stores_its_conversation_with_its_reply() -> None:
    repos = in_memory_repositories()
    tenant = (await seed_salon(repos)).tenant.id
    handle = HandleMessage(repos, EchoEngine())
    first = await handle.execute(message(tenant, "m1"))
    stored = await repos.conversations.get(tenant, first.result.conversation_id)
    assert [m.text for m in stored.messages] == ["oi m1", "ok oi m1"]
    assert stored.version == 1


async def test_a_reply_stored_before_its_conversation_is_answered_with_the_conversation() -> None:
    repos = dataclasses.replace(in_memory_repositories(), conversations=SavesFailOnce())
    tenant = (await seed_salon(repos)).tenant.id
    handle = HandleMessage(repos, EchoEngine())
    with pytest.raises(StorageUnavailableError):  # the result was stored, the save was not
        await handle.execute(message(tenant, "m1"))
    again = await handle.execute(message(tenant, "m1"))  # the gateway retries
    assert again.duplicate
    named = again.result.conversation_id
    await repos.conversations.get(tenant, named)  # stored now: the customer may name it
    later = await handle.execute(message(tenant, "m2", conversation_id=named))
    assert later.result.conversation_id == named
    stored = await repos.conversations.get(tenant, named)
    assert [m.text for m in stored.messages][-2:] == ["oi m2", "ok oi m2"]


class HandOffEngine:
    """Hands every conversation over to a human, as the handoff tool does."""

    async def run_turn(self, turn: TurnInput, progress: ProgressSink | None = None) -> TurnOutput:
        reason = "customer asked for a person"
        return TurnOutput(
            reply="Vou chamar uma pessoa da equipe.",
            specialist="handoff",
            actions=(TurnAction(kind=ActionKind.HANDED_OFF, detail=reason),),
            handoff_reason=reason,
        )


async def test_a_redelivery_stores_the_handed_off_first_turn_as_it_was_answered() -> None:
    """The first delivery stored its result (handed over to a human) and died before its
    save: the conversation the redelivery stores is with the human and holds the exchange,
    so the customer's next message reaches the human, not the assistant."""
    repos = dataclasses.replace(in_memory_repositories(), conversations=SavesFailOnce())
    tenant = (await seed_salon(repos)).tenant.id
    handle = HandleMessage(repos, HandOffEngine())
    with pytest.raises(StorageUnavailableError):
        await handle.execute(message(tenant, "m1"))
    again = await handle.execute(message(tenant, "m1"))
    assert again.duplicate and again.result.status is ConversationStatus.HANDED_OFF
    stored = await repos.conversations.get(tenant, again.result.conversation_id)
    assert stored.status is ConversationStatus.HANDED_OFF
    assert stored.handoff_reason == "customer asked for a person"
    assert [m.text for m in stored.messages] == ["oi m1", "Vou chamar uma pessoa da equipe."]
    later = await handle.execute(message(tenant, "m2", conversation_id=stored.id))
    assert later.result.reply == "" and later.result.specialist == HUMAN


class SaveHeld(InMemoryConversationRepository):
    """The first save waits until ``go`` is set (the first delivery is slow to save)."""

    def __init__(self) -> None:
        super().__init__()
        self.go = asyncio.Event()
        self.saving = asyncio.Event()

    async def save(self, conversation: Conversation) -> Conversation:
        self.saving.set()
        await self.go.wait()
        return await super().save(conversation)


async def test_a_first_turn_saved_after_its_redelivery_stored_it_is_kept_once() -> None:
    """The redelivery stored the conversation while the first delivery was still saving: the
    first delivery's own save (at version 0) replaces it; the exchange is there once."""
    conversations = SaveHeld()
    repos = dataclasses.replace(in_memory_repositories(), conversations=conversations)
    tenant = (await seed_salon(repos)).tenant.id
    handle = HandleMessage(repos, EchoEngine())
    first = asyncio.create_task(handle.execute(message(tenant, "m1")))
    await conversations.saving.wait()  # its result is stored, its save not yet
    again = await handle.execute(message(tenant, "m1"))  # answered from the stored result
    assert again.duplicate
    named = await repos.conversations.get(tenant, again.result.conversation_id)
    assert [m.text for m in named.messages] == ["oi m1", "ok oi m1"]
    conversations.go.set()
    assert not (await first).duplicate
    stored = await repos.conversations.get(tenant, named.id)
    assert [m.text for m in stored.messages] == ["oi m1", "ok oi m1"]
    assert stored.version == 1
