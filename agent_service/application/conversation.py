# Over 300 lines: one use case (HandleMessage); claim, lease, handoff and storage share a turn.
"""Handling customer messages: deduplication, handoff, the engine turn, persistence."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Callable, Coroutine
from contextlib import AbstractAsyncContextManager, nullcontext
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, TypeVar
from uuid import UUID

import structlog

from agenda_kit.tracing import current_trace_id
from agent_service.application.customers import merge_profile
from agent_service.application.engine import ConversationEngine, ProgressSink, TurnInput
from agent_service.application.incoming import (
    HandledMessage,
    IncomingMessage,
    customer_ref,
    validate_incoming,
)
from agent_service.application.repositories import Repositories
from agent_service.application.tenant_gate import Admission
from agent_service.application.turn_context import UPCOMING_READ, Upcoming
from agent_service.application.turn_persistence import (
    answered_conversation,
    remember_name,
    save_turn,
)
from agent_service.domain.catalog import Customer, Tenant
from agent_service.domain.conversations import (
    Conversation,
    ConversationStatus,
    Message,
    Role,
    TurnResult,
)
from agent_service.domain.errors import (
    ConflictError,
    MessageIdTakenError,
    NotFoundError,
    StorageUnavailableError,
)

__all__ = ["HandleMessage", "HandledMessage", "IncomingMessage"]  # callers import them here
log = structlog.get_logger("agenda.conversation")
_T = TypeVar("_T")
_TAKEOVER_EVERY = 0.5
"""How often a duplicate waiting for the reply checks whether the claim's lease expired."""
HUMAN = "human"


class HandleMessage:
    """One customer message → one reply, exactly once per channel message id.

    A redelivered message id returns the stored reply (``duplicate``) and changes nothing;
    while a human has the conversation the message is stored and acknowledged only. A new
    message runs only if its tenant has a free place in ``gate`` (default: unlimited);
    otherwise ``CapacityExceededError`` and the message id stays unclaimed (a retry may run).
    Duplicates waiting for a stored reply do not take a place.

    Claims are leases, renewed every ``renew_every`` seconds while the turn runs: a duplicate
    waiting for the reply takes the claim over (and handles the message) once its holder has
    died and the lease expired. Once claimed, the turn is shielded from the caller's
    cancellation: it runs to its end and stores its reply, which a redelivery then gets.
    """

    def __init__(
        self,
        repos: Repositories,
        engine: ConversationEngine,
        *,
        duplicate_wait: float = 30.0,
        gate: Admission | None = None,
        renew_every: float = 20.0,
        handoff_timeout: float | None = None,
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
    ) -> None:
        self._handoff_timeout = handoff_timeout
        self._clock = clock
        self._repos = repos
        self._engine = engine
        self._duplicate_wait = duplicate_wait
        self._gate = gate
        self._renew_every = renew_every
        self._detached: set[asyncio.Future[Any]] = set()

    async def execute(
        self, message: IncomingMessage, progress: ProgressSink | None = None
    ) -> HandledMessage:
        validate_incoming(message)
        tenant = await self._repos.tenants.get(message.tenant_id)
        key = (message.tenant_id, message.channel, message.message_id)
        handled = await self._shielded(self._claim_and_run(message, tenant, key, progress))
        if handled is not None:
            return handled
        stored = await self._stored_result(*key)
        if stored is not None:
            if stored.customer_ref and stored.customer_ref != customer_ref(message):
                raise MessageIdTakenError()
            await self._named_stored(message, stored)
            return HandledMessage(stored, duplicate=True)
        return await self._shielded(self._claimed_turn(message, tenant, key, progress))

    async def _named_stored(self, message: IncomingMessage, stored: TurnResult) -> None:
        """The conversation a stored reply names exists before the reply goes out again. A new
        conversation is created by its turn's save, which follows the stored result: when
        that delivery died (or is still saving) in between, it is stored here as the stored
        result answered it (``answered_conversation``); the turn's own save, at version 0,
        then replaces it with the assistant's state added."""
        conversations = self._repos.conversations
        try:
            await conversations.get(message.tenant_id, stored.conversation_id)
            return
        except NotFoundError:
            log.warning("named_conversation_stored", conversation_id=str(stored.conversation_id))
        sender = Customer(
            tenant_id=message.tenant_id,
            channel=message.channel,
            external_id=message.external_id.strip(),
            name=message.display_name.strip(),
        )
        customer, _ = await self._repos.customers.upsert(sender)
        await conversations.add(answered_conversation(message, customer, stored))

    async def drain(self, grace_seconds: float) -> None:
        """Wait at most ``grace_seconds`` for turns whose caller left (shielded, still
        running) so they store their outcome before storage closes at shutdown."""
        if self._detached:
            await asyncio.wait(set(self._detached), timeout=grace_seconds)

    async def _shielded(self, work: Coroutine[object, object, _T]) -> _T:
        """Claiming and the turn run to their end even if the caller goes away (its deadline
        passed): a claim is never left without its holder, and the reply is stored for the
        redelivery."""
        task = asyncio.ensure_future(work)
        try:
            outcome = await asyncio.shield(task)
        except asyncio.CancelledError:
            log.warning("turn_continues_after_caller_left")
            self._detached.add(task)
            task.add_done_callback(self._detached.discard)
            raise
        if isinstance(outcome, HandledMessage):
            # The turn ran in its own task: its log context does not flow back by itself.
            structlog.contextvars.bind_contextvars(
                conversation_id=str(outcome.result.conversation_id),
                trace_id=outcome.result.trace_id,
            )
        return outcome

    async def _claim_and_run(
        self,
        message: IncomingMessage,
        tenant: Tenant,
        key: tuple[UUID, str, str],
        progress: ProgressSink | None,
    ) -> HandledMessage | None:
        """The turn if this delivery claims the message; None when another one holds it."""
        if not await self._repos.turns.claim(*key):
            return None
        return await self._claimed_turn(message, tenant, key, progress)

    async def _claimed_turn(
        self,
        message: IncomingMessage,
        tenant: Tenant,
        key: tuple[UUID, str, str],
        progress: ProgressSink | None,
    ) -> HandledMessage:
        renewing = asyncio.ensure_future(self._keep_renewing(key))
        try:
            async with self._admitted(tenant.id):
                result = await self._handle(message, tenant, progress)
        except BaseException:
            await self._repos.turns.release(*key)  # keeps a turn whose outcome was stored
            raise
        finally:
            renewing.cancel()
        return HandledMessage(result, duplicate=False)

    async def _keep_renewing(self, key: tuple[UUID, str, str]) -> None:
        while True:
            await asyncio.sleep(self._renew_every)
            try:
                await self._repos.turns.renew(*key)
            except StorageUnavailableError as error:  # try again at the next beat
                log.warning("claim_renewal_failed", message_id=key[2], error=str(error))

    def _admitted(self, tenant_id: UUID) -> AbstractAsyncContextManager[None]:
        return nullcontext() if self._gate is None else self._gate.admit(tenant_id)

    async def _stored_result(
        self, tenant_id: UUID, channel: str, message_id: str
    ) -> TurnResult | None:
        """The first delivery's reply, waited for; None when its claim expired (its holder
        died) and this delivery took the claim over."""
        loop = asyncio.get_running_loop()
        give_up = loop.time() + self._duplicate_wait
        next_try = loop.time() + _TAKEOVER_EVERY
        while loop.time() < give_up:
            stored = await self._repos.turns.result(tenant_id, channel, message_id)
            if stored is not None:
                return stored
            if loop.time() >= next_try:
                next_try = loop.time() + _TAKEOVER_EVERY
                if await self._repos.turns.claim(tenant_id, channel, message_id):
                    log.warning("expired_claim_taken_over", message_id=message_id)
                    return None
            await asyncio.sleep(0.05)
        raise ConflictError("this message is still being handled; retry shortly")

    async def _handle(
        self, message: IncomingMessage, tenant: Tenant, progress: ProgressSink | None
    ) -> TurnResult:
        """The turn, with the tenant read once at its start (one round trip fewer)."""
        tenant_id = tenant.id
        customer, conversation, upcoming = await self._sender(message)
        trace_id = current_trace_id() or uuid.uuid4().hex  # the OpenTelemetry trace when on
        structlog.contextvars.bind_contextvars(
            conversation_id=str(conversation.id), trace_id=trace_id
        )
        incoming = Message(role=Role.CUSTOMER, text=message.text, message_id=message.message_id)
        key = (tenant_id, message.channel, message.message_id)
        if self._human_timed_out(conversation):
            conversation = await self._repos.conversations.save(conversation.handed_back())
            log.info("handoff_timed_out", conversation_id=str(conversation.id))
        if conversation.status is ConversationStatus.HANDED_OFF:
            # While a human has it, nothing the bot proposed earlier can be confirmed later.
            saved = await self._repos.conversations.save(
                conversation.with_message(incoming).without_pending()
            )
            result = TurnResult(
                conversation_id=saved.id,
                reply="",
                specialist=HUMAN,
                status=saved.status,
                trace_id=trace_id,
                customer_ref=customer_ref(message),
                language=tenant.language,
            )
            await self._repos.turns.complete(*key, result)
            return result
        output = await self._engine.run_turn(
            TurnInput(
                tenant=tenant,
                customer=customer,
                conversation=conversation.with_message(incoming),
                text=message.text,
                trace_id=trace_id,
                upcoming=upcoming,
            ),
            progress,
        )
        status = (
            ConversationStatus.HANDED_OFF
            if output.handoff_reason is not None
            else conversation.status
        )
        result = TurnResult(
            conversation_id=conversation.id,
            reply=output.reply,
            actions=output.actions,
            trace_id=trace_id,
            specialist=output.specialist,
            status=status,
            pending=output.pending,
            citations=output.citations,
            customer_ref=customer_ref(message),
            language=output.language or tenant.language,
        )
        # The outcome is stored first: whatever fails after a write, a retry of this message
        # id gets this truthful reply and nothing runs twice.
        await self._repos.turns.complete(*key, result)
        await save_turn(self._repos, conversation, incoming, output)
        await remember_name(self._repos, customer, output)
        return result

    def _human_timed_out(self, conversation: Conversation) -> bool:
        """``AGENT_HANDOFF_TIMEOUT_SECONDS``: a conversation a human took longer ago than the
        timeout returns to the assistant with the customer's next message."""
        taken = conversation.handed_off_at
        return (
            self._handoff_timeout is not None
            and conversation.status is ConversationStatus.HANDED_OFF
            and taken is not None
            and (self._clock() - taken).total_seconds() >= self._handoff_timeout
        )

    async def _sender(
        self, message: IncomingMessage
    ) -> tuple[Customer, Conversation, Upcoming | None]:
        """The sender (created or profile merged as needed), their conversation and, when the
        store joins them, their upcoming appointments: one read for a known customer."""
        sender = Customer(
            tenant_id=message.tenant_id,
            channel=message.channel,
            external_id=message.external_id.strip(),
            name=message.display_name.strip(),
        )
        reader = self._repos.turn_context
        if reader is not None:
            known = await reader.read(
                message.tenant_id,
                message.channel,
                sender.external_id,
                message.conversation_id,
                self._clock(),
            )
            if known.customer is not None:
                customer = known.customer
                if merge_profile(customer, sender) != customer:
                    customer, _ = await self._repos.customers.upsert(sender)
                found = _Found(known.conversation)
                return customer, await self._conversation(message, customer, found), known.upcoming
        customer, created = await self._repos.customers.upsert(
            sender, likely_new=reader is not None
        )
        if created and message.conversation_id is None:
            # A customer stored just now has no conversation and no appointment yet.
            nothing = Upcoming(self._clock(), UPCOMING_READ, (), pending=())
            return customer, await self._conversation(message, customer, _Found(None)), nothing
        return customer, await self._conversation(message, customer), None

    async def _conversation(
        self, message: IncomingMessage, customer: Customer, found: _Found | None = None
    ) -> Conversation:
        """The named conversation if it is the customer's and has not ended, else their open
        one on the channel, else a new one, not stored yet (``found``: already read, None if
        not stored)."""
        repo = self._repos.conversations
        if message.conversation_id is not None:
            if found is None:
                conversation = await repo.get(message.tenant_id, message.conversation_id)
            elif found.conversation is None:
                raise NotFoundError("conversation", message.conversation_id)
            else:
                conversation = found.conversation
            if conversation.customer_id != customer.id:
                raise NotFoundError("conversation", message.conversation_id)
            if conversation.status is not ConversationStatus.ENDED:
                return conversation
        else:
            open_one = (
                await repo.find_open(message.tenant_id, customer.id, message.channel)
                if found is None
                else found.conversation
            )
            if open_one is not None:
                return open_one
        # A new conversation is stored by the turn's first save (one write fewer); a reply
        # naming it reaches the customer only after that save or through a redelivery, which
        # stores it first if its first delivery died before the save (``_named_stored``).
        return Conversation(
            tenant_id=message.tenant_id, customer_id=customer.id, channel=message.channel
        )


@dataclass(frozen=True, slots=True)
class _Found:
    """A conversation already read (None: none stored)."""

    conversation: Conversation | None
