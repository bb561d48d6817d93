"""Handling customer messages: deduplication, handoff, the engine turn, persistence."""

from __future__ import annotations

import asyncio
import re
import uuid
from contextlib import AbstractAsyncContextManager, nullcontext
from dataclasses import dataclass
from uuid import UUID

import structlog

from agenda_kit.tracing import current_trace_id
from agent_service.application.engine import ConversationEngine, ProgressSink, TurnInput, TurnOutput
from agent_service.application.repositories import Repositories
from agent_service.application.tenant_gate import Admission
from agent_service.domain.catalog import Customer
from agent_service.domain.conversations import (
    MAX_MESSAGE_CHARS,
    Conversation,
    ConversationStatus,
    Message,
    Role,
    TurnResult,
)
from agent_service.domain.errors import ConflictError, InvalidInputError, NotFoundError

log = structlog.get_logger("agenda.conversation")
_CHANNEL = re.compile(r"^[a-z0-9_-]{1,32}$")
HUMAN = "human"


@dataclass(frozen=True, slots=True, kw_only=True)
class IncomingMessage:
    """A customer message as a gateway delivers it."""

    tenant_id: UUID
    channel: str
    external_id: str
    display_name: str
    conversation_id: UUID | None
    message_id: str
    text: str


@dataclass(frozen=True, slots=True)
class HandledMessage:
    result: TurnResult
    duplicate: bool


def validate_incoming(message: IncomingMessage) -> None:
    """Input limits, checked before anything else (and before any model call)."""
    if not _CHANNEL.match(message.channel):
        raise InvalidInputError("customer.channel", "lowercase letters, digits, '-', '_' (1..32)")
    if not 0 < len(message.external_id.strip()) <= 256:
        raise InvalidInputError("customer.external_id", "is required (at most 256 characters)")
    if not 0 < len(message.message_id) <= 256:
        raise InvalidInputError("message_id", "is required (at most 256 characters)")
    if not message.text.strip():
        raise InvalidInputError("text", "is required")
    if len(message.text) > MAX_MESSAGE_CHARS:
        raise InvalidInputError("text", f"must be at most {MAX_MESSAGE_CHARS} characters")
    if len(message.display_name) > 200:
        raise InvalidInputError("customer.display_name", "must be at most 200 characters")


class HandleMessage:
    """One customer message → one reply, exactly once per channel message id.

    A redelivered message id returns the stored reply (``duplicate``) and changes nothing;
    while a human has the conversation the message is stored and acknowledged only. A new
    message runs only if its tenant has a free place in ``gate`` (default: unlimited);
    otherwise ``CapacityExceededError`` and the message id stays unclaimed (a retry may run).
    Duplicates waiting for a stored reply do not take a place.
    """

    def __init__(
        self,
        repos: Repositories,
        engine: ConversationEngine,
        *,
        duplicate_wait: float = 30.0,
        gate: Admission | None = None,
    ) -> None:
        self._repos = repos
        self._engine = engine
        self._duplicate_wait = duplicate_wait
        self._gate = gate

    async def execute(
        self, message: IncomingMessage, progress: ProgressSink | None = None
    ) -> HandledMessage:
        validate_incoming(message)
        tenant = await self._repos.tenants.get(message.tenant_id)
        key = (message.tenant_id, message.channel, message.message_id)
        if not await self._repos.turns.claim(*key):
            return HandledMessage(await self._stored_result(*key), duplicate=True)
        try:
            async with self._admitted(tenant.id):
                result = await self._handle(message, tenant.id, progress)
        except BaseException:
            await self._repos.turns.release(*key)
            raise
        await self._repos.turns.complete(*key, result)
        return HandledMessage(result, duplicate=False)

    def _admitted(self, tenant_id: UUID) -> AbstractAsyncContextManager[None]:
        return nullcontext() if self._gate is None else self._gate.admit(tenant_id)

    async def _stored_result(self, tenant_id: UUID, channel: str, message_id: str) -> TurnResult:
        loop = asyncio.get_running_loop()
        give_up = loop.time() + self._duplicate_wait
        while loop.time() < give_up:
            stored = await self._repos.turns.result(tenant_id, channel, message_id)
            if stored is not None:
                return stored
            await asyncio.sleep(0.05)
        raise ConflictError("this message is still being handled; retry shortly")

    async def _handle(
        self, message: IncomingMessage, tenant_id: UUID, progress: ProgressSink | None
    ) -> TurnResult:
        customer, _ = await self._repos.customers.upsert(
            Customer(
                tenant_id=tenant_id,
                channel=message.channel,
                external_id=message.external_id.strip(),
                name=message.display_name.strip(),
            )
        )
        conversation = await self._conversation(message, customer)
        trace_id = current_trace_id() or uuid.uuid4().hex  # the OpenTelemetry trace when on
        structlog.contextvars.bind_contextvars(
            conversation_id=str(conversation.id), trace_id=trace_id
        )
        incoming = Message(role=Role.CUSTOMER, text=message.text, message_id=message.message_id)
        if conversation.status is ConversationStatus.HANDED_OFF:
            saved = await self._repos.conversations.save(conversation.with_message(incoming))
            return TurnResult(
                conversation_id=saved.id,
                reply="",
                specialist=HUMAN,
                status=saved.status,
                trace_id=trace_id,
            )
        tenant = await self._repos.tenants.get(tenant_id)
        output = await self._engine.run_turn(
            TurnInput(
                tenant=tenant,
                customer=customer,
                conversation=conversation.with_message(incoming),
                text=message.text,
                trace_id=trace_id,
            ),
            progress,
        )
        saved = await self._save_turn(conversation, incoming, output)
        await self._remember_name(customer, output)
        return TurnResult(
            conversation_id=saved.id,
            reply=output.reply,
            actions=output.actions,
            trace_id=trace_id,
            specialist=output.specialist,
            status=saved.status,
        )

    async def _conversation(self, message: IncomingMessage, customer: Customer) -> Conversation:
        repo = self._repos.conversations
        if message.conversation_id is not None:
            conversation = await repo.get(message.tenant_id, message.conversation_id)
            if conversation.customer_id != customer.id:
                raise NotFoundError("conversation", message.conversation_id)
            if conversation.status is not ConversationStatus.ENDED:
                return conversation
        else:
            open_one = await repo.find_open(message.tenant_id, customer.id, message.channel)
            if open_one is not None:
                return open_one
        return await repo.add(
            Conversation(
                tenant_id=message.tenant_id, customer_id=customer.id, channel=message.channel
            )
        )

    async def _save_turn(
        self, conversation: Conversation, incoming: Message, output: TurnOutput
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
            return await self._repos.conversations.save(updated)
        except ConflictError:
            # Another replica stored a turn of this conversation meanwhile: keep its state,
            # add this exchange to the transcript.
            latest = await self._repos.conversations.get(conversation.tenant_id, conversation.id)
            log.warning("conversation_turn_raced", conversation_id=str(conversation.id))
            return await self._repos.conversations.save(
                latest.with_message(incoming).with_message(reply)
            )

    async def _remember_name(self, customer: Customer, output: TurnOutput) -> None:
        if output.customer_name and output.customer_name != customer.name:
            await self._repos.customers.update(
                customer.model_copy(update={"name": output.customer_name})
            )
