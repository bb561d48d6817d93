"""Storing a finished turn: the exchange and the engine's state in the conversation (with a
concurrent turn of another replica merged), and a name the customer told."""

from __future__ import annotations

import structlog

from agent_service.application.engine import TurnOutput
from agent_service.application.repositories import Repositories
from agent_service.domain.catalog import Customer
from agent_service.domain.conversations import Conversation, Message, Role
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
        # add this exchange to the transcript.
        latest = await repos.conversations.get(conversation.tenant_id, conversation.id)
        log.warning("conversation_turn_raced", conversation_id=str(conversation.id))
        return await repos.conversations.save(latest.with_message(incoming).with_message(reply))


async def remember_name(repos: Repositories, customer: Customer, output: TurnOutput) -> None:
    if output.customer_name and output.customer_name != customer.name:
        await repos.customers.update(customer.model_copy(update={"name": output.customer_name}))
