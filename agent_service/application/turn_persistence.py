"""Storing a finished turn: the exchange and the engine's state in the conversation (with a
concurrent turn of another replica merged), and a name the customer told."""

from __future__ import annotations

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
from agent_service.domain.errors import ConflictError

log = structlog.get_logger("agenda.conversation")


async def save_turn(
    repos: Repositories, conversation: Conversation, incoming: Message, output: TurnOutput
) -> Conversation:
    reply = Message(role=Role.ASSISTANT, text=output.reply, specialist=output.specialist)
    updated = (
        conversation.with_message(incoming)
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
        merged = latest.with_message(incoming).with_message(reply)
        if output.handoff_reason is not None and merged.status is ConversationStatus.ACTIVE:
            merged = merged.handed_off(output.handoff_reason)
        return await repos.conversations.save(merged)


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
    if output.customer_name and output.customer_name != customer.name:
        await repos.customers.update(customer.model_copy(update={"name": output.customer_name}))
