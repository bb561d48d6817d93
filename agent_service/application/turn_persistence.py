"""Storing a finished turn: the exchange and the engine's state in the conversation (with a
concurrent turn of another replica merged), and a name the customer told."""

from __future__ import annotations

from collections.abc import Sequence

import structlog

from agent_service.application.engine import TurnOutput
from agent_service.application.incoming import IncomingMessage
from agent_service.application.repositories import Repositories
from agent_service.domain.catalog import Customer
from agent_service.domain.conversations import (
    ActionKind,
    Conversation,
    ConversationStatus,
    Message,
    Role,
    TurnResult,
)
from agent_service.domain.errors import ConflictError, NotFoundError

log = structlog.get_logger("agenda.conversation")


async def save_turn(
    repos: Repositories,
    conversation: Conversation,
    incoming: Message | Sequence[Message],
    output: TurnOutput,
) -> Conversation:
    """The customer's message(s) of the turn (a burst: several, in arrival order) and the
    reply, with the engine's state."""
    said = [incoming] if isinstance(incoming, Message) else list(incoming)
    reply = Message(role=Role.ASSISTANT, text=output.reply, specialist=output.specialist)
    updated = (
        _with_messages(conversation, said)
        .with_message(reply)
        .model_copy(
            update={
                "engine_state": output.engine_state,
                "active_specialist": output.active_specialist,
                "summary": output.summary or conversation.summary,
            }
        )
    )
    if output.handoff_reason is not None:
        updated = updated.handed_off(output.handoff_reason)
    try:
        return await repos.conversations.save(updated)
    except ConflictError:
        # Another replica stored a turn of this conversation meanwhile: keep its state,
        # add this exchange to the transcript; a handover this turn told the customer about
        # still happens.
        latest = await repos.conversations.get(conversation.tenant_id, conversation.id)
        log.warning("conversation_turn_raced", conversation_id=str(conversation.id))
        merged = _with_messages(latest, said).with_message(reply)
        if output.handoff_reason is not None and merged.status is ConversationStatus.ACTIVE:
            merged = merged.handed_off(output.handoff_reason)
        return await repos.conversations.save(merged)


def _with_messages(conversation: Conversation, messages: Sequence[Message]) -> Conversation:
    for message in messages:
        conversation = conversation.with_message(message)
    return conversation


def answered_conversation(
    message: IncomingMessage, customer: Customer, stored: TurnResult
) -> Conversation:
    """A new conversation as its first turn's stored result answered it (its delivery died
    before saving it): the exchange, and with a human when that turn handed it over. The
    assistant's own state of that turn is not in the result; a change it proposed is asked
    again rather than confirmed blind."""
    conversation = Conversation(
        id=stored.conversation_id,
        tenant_id=message.tenant_id,
        customer_id=customer.id,
        channel=message.channel,
    ).with_message(Message(role=Role.CUSTOMER, text=message.text, message_id=message.message_id))
    if stored.reply:
        reply = Message(role=Role.ASSISTANT, text=stored.reply, specialist=stored.specialist)
        conversation = conversation.with_message(reply)
    if stored.status is ConversationStatus.HANDED_OFF:
        reasons = [a.detail for a in stored.actions if a.kind is ActionKind.HANDED_OFF]
        conversation = conversation.handed_off(next(iter(reasons), "") or "handed over")
    return conversation


async def remember_name(repos: Repositories, customer: Customer, output: TurnOutput) -> None:
    """The name the customer said, merged as an upsert merges (only the name is written: the
    turn's copy of the customer was read before any field written since)."""
    if output.customer_name and output.customer_name != customer.name:
        named = Customer(
            tenant_id=customer.tenant_id,
            channel=customer.channel,
            external_id=customer.external_id,
            name=output.customer_name,
        )
        await repos.customers.upsert(named)


async def ensure_conversation(
    repos: Repositories, message: IncomingMessage, stored: TurnResult
) -> None:
    """The conversation a stored reply names exists before the reply goes out again. A new
    conversation is created by its turn's save, which follows the stored result: when that
    delivery died (or is still saving) in between, it is stored here as the stored result
    answered it (``answered_conversation``); the turn's own save, at version 0, then
    replaces it with the assistant's state added."""
    try:
        await repos.conversations.get(message.tenant_id, stored.conversation_id)
        return
    except NotFoundError:
        log.warning("named_conversation_stored", conversation_id=str(stored.conversation_id))
    sender = Customer(
        tenant_id=message.tenant_id,
        channel=message.channel,
        external_id=message.external_id.strip(),
        name=message.display_name.strip(),
    )
    customer, _ = await repos.customers.upsert(sender)
    await repos.conversations.add(answered_conversation(message, customer, stored))
