"""One turn: the messages of a burst (one or more) answered by one engine run under the
turn's own budget, then stored under each message id.

Rules:
- the turn runs under ``budget_seconds`` of its OWN (``AGENT_TURN_BUDGET_SECONDS``): what it
  calls (calendar, storage) is bounded by that deadline, never by its caller's, which may have
  passed (a turn outlives a caller that gave up; its reply is stored for the retry); a turn
  that does not finish within it fails with ``TurnBudgetExceededError`` and stores nothing
  the customer would read;
- the reply is stored under the last message of the burst first (so whatever fails after a
  write, a retry of that id gets this truthful reply), then the other messages are marked as
  answered by it, then the conversation is saved;
- while a human has the conversation the messages are stored and acknowledged only.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from uuid import UUID

import structlog

from agenda_kit import deadline
from agenda_kit.tracing import current_trace_id
from agent_service.application.bursts import QueuedMessage, burst_text
from agent_service.application.engine import (
    ConversationEngine,
    ProgressSink,
    TurnInput,
    TurnOutput,
)
from agent_service.application.incoming import IncomingMessage, sender_ref
from agent_service.application.repositories import Repositories
from agent_service.application.senders import find_sender
from agent_service.application.turn_context import Upcoming
from agent_service.application.turn_persistence import remember_name, save_turn
from agent_service.domain.catalog import Customer, Tenant
from agent_service.domain.conversations import (
    Conversation,
    ConversationStatus,
    Message,
    Role,
    TurnResult,
)
from agent_service.domain.errors import TurnBudgetExceededError

log = structlog.get_logger("agenda.conversation")
HUMAN = "human"
BUDGET_RETRY_AFTER_SECONDS = 5.0


@dataclass(frozen=True, slots=True)
class PreparedTurn:
    """Who wrote and where, read once before the turn's engine run(s)."""

    tenant: Tenant
    channel: str
    customer: Customer
    conversation: Conversation
    upcoming: Upcoming | None
    trace_id: str
    waiting: tuple[str, ...] | None = None
    """The lane's messages with no outcome yet, as the read found them (``Sender.waiting``)."""

    @property
    def with_human(self) -> bool:
        return self.conversation.status is ConversationStatus.HANDED_OFF


class TurnRunner:
    """Prepares, runs and stores one turn (see the module's rules)."""

    def __init__(
        self,
        repos: Repositories,
        engine: ConversationEngine,
        *,
        budget_seconds: float,
        handoff_timeout: float | None,
        clock: Callable[[], datetime],
    ) -> None:
        if budget_seconds <= 0:
            raise ValueError("budget_seconds must be positive")
        self._repos = repos
        self._engine = engine
        self._budget = budget_seconds
        self._handoff_timeout = handoff_timeout
        self._clock = clock

    async def prepare(self, tenant: Tenant, message: IncomingMessage) -> PreparedTurn:
        sender = await find_sender(self._repos, message, self._clock)
        conversation = sender.conversation
        trace_id = current_trace_id() or uuid.uuid4().hex  # the OpenTelemetry trace when on
        structlog.contextvars.bind_contextvars(
            conversation_id=str(conversation.id), trace_id=trace_id
        )
        if self._human_timed_out(conversation):
            conversation = await self._repos.conversations.save(conversation.handed_back())
            log.info("handoff_timed_out", conversation_id=str(conversation.id))
        return PreparedTurn(
            tenant,
            message.channel,
            sender.customer,
            conversation,
            sender.upcoming,
            trace_id,
            sender.waiting,
        )

    async def run(
        self,
        turn: PreparedTurn,
        batch: Sequence[QueuedMessage],
        progress: ProgressSink | None,
    ) -> TurnOutput:
        """The engine's answer to the burst, under the turn's own budget."""
        conversation = turn.conversation
        for message in _messages(batch):
            conversation = conversation.with_message(message)
        engine_input = TurnInput(
            tenant=turn.tenant,
            customer=turn.customer,
            conversation=conversation,
            text=burst_text(batch),
            trace_id=turn.trace_id,
            upcoming=turn.upcoming,
            request_key=batch[0].message_id,
            decision=batch[-1].decision,  # a tap is a batch of its own (bursts.next_batch)
        )
        with deadline.own_deadline(self._budget):
            try:
                async with asyncio.timeout(self._budget):
                    return await self._engine.run_turn(engine_input, progress)
            except TimeoutError:
                raise TurnBudgetExceededError(
                    f"the turn did not finish within its budget of {self._budget:g} s",
                    retry_after_seconds=BUDGET_RETRY_AFTER_SECONDS,
                ) from None

    def results(
        self, turn: PreparedTurn, batch: Sequence[QueuedMessage], output: TurnOutput
    ) -> list[tuple[str, TurnResult]]:
        """What to store under each message id of the burst, the reply (the last message's)
        first."""
        status = (
            ConversationStatus.HANDED_OFF
            if output.handoff_reason is not None
            else turn.conversation.status
        )
        last = batch[-1]
        reply = TurnResult(
            conversation_id=turn.conversation.id,
            reply=output.reply,
            actions=output.actions,
            trace_id=turn.trace_id,
            specialist=output.specialist,
            status=status,
            pending=output.pending,
            citations=output.citations,
            customer_ref=self._ref(turn),
            answers=tuple(m.message_id for m in batch) if len(batch) > 1 else (),
            decision=output.decision,
            language=output.language or turn.tenant.language,
        )
        covered = TurnResult(
            conversation_id=turn.conversation.id,
            reply="",
            trace_id=turn.trace_id,
            specialist=output.specialist,
            status=status,
            customer_ref=self._ref(turn),
            covered_by=last.message_id,
            language=output.language or turn.tenant.language,
        )
        return [(last.message_id, reply), *((m.message_id, covered) for m in batch[:-1])]

    async def commit(
        self, turn: PreparedTurn, batch: Sequence[QueuedMessage], output: TurnOutput
    ) -> list[tuple[str, TurnResult]]:
        """Store the reply under the burst's last message, mark the others answered by it,
        save the conversation; what was stored under each id."""
        results = self.results(turn, batch, output)
        for message_id, result in results:
            await self._repos.turns.complete(turn.tenant.id, turn.channel, message_id, result)
        await self.save(turn, batch, output)
        return results

    async def save(
        self, turn: PreparedTurn, batch: Sequence[QueuedMessage], output: TurnOutput
    ) -> None:
        """A name the customer told, then the burst's messages, the reply and the engine's
        state in the conversation (after the outcomes are stored): the conversation last, so
        a next turn that sees this one in it sees the name too (``SavingTurn``)."""
        await remember_name(self._repos, turn.customer, output)
        await save_turn(self._repos, turn.conversation, _messages(batch), output)

    async def commit_human(
        self, turn: PreparedTurn, batch: Sequence[QueuedMessage]
    ) -> list[tuple[str, TurnResult]]:
        """While a human has it, nothing the bot proposed earlier can be confirmed later: the
        messages are stored, each acknowledged with no reply."""
        conversation = turn.conversation
        for message in _messages(batch):
            conversation = conversation.with_message(message)
        saved = await self._repos.conversations.save(conversation.without_pending())
        result = TurnResult(
            conversation_id=saved.id,
            reply="",
            specialist=HUMAN,
            status=saved.status,
            trace_id=turn.trace_id,
            customer_ref=self._ref(turn),
            language=turn.tenant.language,
        )
        for queued in batch:
            await self._repos.turns.complete(
                turn.tenant.id, turn.channel, queued.message_id, result
            )
        return [(queued.message_id, result) for queued in batch]

    @staticmethod
    def _ref(turn: PreparedTurn) -> str:
        return sender_ref(turn.customer.external_id)

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


def incoming_of(tenant_id: UUID, channel: str, batch: Sequence[QueuedMessage]) -> IncomingMessage:
    """The burst as one message: its sender as the last message names them, its words."""
    last = batch[-1]
    return IncomingMessage(
        tenant_id=tenant_id,
        channel=channel,
        external_id=last.external_id,
        display_name=next((m.display_name for m in reversed(batch) if m.display_name), ""),
        conversation_id=batch[0].conversation_id,
        message_id=last.message_id,
        text=burst_text(batch),
    )


def _messages(batch: Sequence[QueuedMessage]) -> list[Message]:
    return [Message(role=Role.CUSTOMER, text=m.transcript, message_id=m.message_id) for m in batch]
