"""Handling customer messages: exactly once per channel message id, in bursts, under the
turn's own budget (the turns themselves: ``turn_runner``; bursts: ``bursts``)."""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import Callable, Coroutine
from contextlib import AbstractAsyncContextManager, nullcontext
from datetime import UTC, datetime
from typing import Any, TypeVar
from uuid import UUID

import structlog

from agent_service.application.burst_driver import BurstDriver, Waiters
from agent_service.application.bursts import Joined, LaneKey, QueuedMessage
from agent_service.application.engine import ConversationEngine, ProgressEvent, ProgressSink
from agent_service.application.incoming import (
    HandledMessage,
    IncomingMessage,
    customer_ref,
    validate_incoming,
)
from agent_service.application.redelivery import (
    IN_PROGRESS_RETRY_AFTER_SECONDS,
    POLL_EVERY,
    TAKEOVER_EVERY,
    Redelivery,
    failed,
)
from agent_service.application.repositories import Repositories
from agent_service.application.tenant_gate import Admission
from agent_service.application.turn_persistence import ensure_conversation
from agent_service.application.turn_runner import TurnRunner
from agent_service.domain.catalog import Tenant
from agent_service.domain.conversations import TurnFailure
from agent_service.domain.errors import (
    MessageIdTakenError,
    RetryableTurnError,
    StorageUnavailableError,
    StoredTurnFailureError,
)

__all__ = ["HandleMessage", "HandledMessage", "IncomingMessage"]  # callers import them here
log = structlog.get_logger("agenda.conversation")
_T = TypeVar("_T")
MessageKey = tuple[UUID, str, str]
ACCEPTED = "accepted"
"""The progress event of a message that has its place in its customer's lane."""


class HandleMessage:
    """One customer message → its reply, exactly once per channel message id.

    Rules:
    - the first delivery of a message id claims it (a lease in the store, renewed while it
      waits or runs) with a digest of who sent what and, apart, who sent it (its
      ``customer_ref``, so a reuse by another customer is told apart while the first
      delivery still runs); the message then joins its customer's lane and is answered by
      the next turn of that lane, alone or with the rest of its burst (``bursts``). Once
      claimed, this runs to its end even if the caller goes away: the outcome is stored for
      the redelivery;
    - a redelivery (same id, same sender and text) gets the stored reply (``duplicate``) and
      changes nothing; while the first delivery is still being handled it waits, at most
      ``duplicate_wait`` seconds and never past most of its caller's time left, then answers
      ``MessageInProgressError`` (retry shortly); when the first delivery's holder died
      (lease expired) or its turn failed, the redelivery handles the message itself;
    - the same id with another sender is ``MessageIdTakenError`` (whatever its text), from
      the same sender with other text ``MessageIdReusedError``: nothing runs (``redelivery``;
      a claim of an older replica records no sender, see there);
    - a message runs only if its tenant has a place in ``gate`` (default: unlimited), else
      ``CapacityExceededError`` and the id stays unclaimed; waiting duplicates take no place.
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
        turn_budget: float = 120.0,
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
    ) -> None:
        self._repos = repos
        self._duplicate_wait = duplicate_wait
        self._gate = gate
        self._renew_every = renew_every
        self._waiters = Waiters()
        runner = TurnRunner(
            repos,
            engine,
            budget_seconds=turn_budget,
            handoff_timeout=handoff_timeout,
            clock=clock,
        )
        self._driver = BurstDriver(repos, runner, self._waiters, renew_every=renew_every)
        self._redelivery = Redelivery(repos.turns, self._waiters, duplicate_wait=duplicate_wait)
        self._detached: set[asyncio.Future[Any]] = set()

    async def execute(
        self, message: IncomingMessage, progress: ProgressSink | None = None
    ) -> HandledMessage:
        validate_incoming(message)
        tenant = await self._repos.tenants.get(message.tenant_id)
        key = (message.tenant_id, message.channel, message.message_id)
        digest = request_digest(message)
        lane = LaneKey(message.tenant_id, message.channel, customer_ref(message))
        queued = _queued(message)
        handled = await self._shielded(self._first_delivery(tenant, lane, queued, digest, progress))
        if handled is not None:
            return handled
        await _accepted(progress)  # a redelivery: its place in the lane was taken before
        stored = await self._redelivery.stored_result(key, digest, customer_ref(message))
        if stored is not None:
            if stored.customer_ref and stored.customer_ref != customer_ref(message):
                raise MessageIdTakenError()
            await ensure_conversation(self._repos, message, stored)
            return HandledMessage(stored, duplicate=True)
        return await self._shielded(self._claimed(tenant, lane, queued, None, progress))

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

    async def _first_delivery(
        self,
        tenant: Tenant,
        lane: LaneKey,
        queued: QueuedMessage,
        digest: str,
        progress: ProgressSink | None,
    ) -> HandledMessage | None:
        """The outcome if this delivery claims the message; None when it was claimed before."""
        joined = await self._repos.lanes.claim(lane, queued, digest)
        if joined is Joined.TAKEN:
            return None
        await _accepted(progress)
        return await self._claimed(tenant, lane, queued, joined is Joined.HOLDING, progress)

    async def _claimed(
        self,
        tenant: Tenant,
        lane: LaneKey,
        queued: QueuedMessage,
        holding: bool | None,
        progress: ProgressSink | None,
    ) -> HandledMessage:
        """The claimed message's outcome (``holding`` None: a claim taken over, not in its
        lane yet)."""
        key = (lane.tenant_id, lane.channel, queued.message_id)
        renewing = asyncio.ensure_future(self._keep_renewing(key))
        try:
            async with self._admitted(tenant.id):
                read_first = holding is None
                if holding is None:
                    holding = await self._repos.lanes.join(lane, queued)
                return await self._answered(tenant, lane, queued, holding, read_first, progress)
        except RetryableTurnError:
            raise  # its failure is the stored outcome: a retry runs the message again
        except BaseException:
            await self._repos.turns.release(*key)  # keeps a turn whose outcome was stored
            raise
        finally:
            renewing.cancel()

    async def _answered(
        self,
        tenant: Tenant,
        lane: LaneKey,
        queued: QueuedMessage,
        holding: bool,
        read_first: bool,
        progress: ProgressSink | None,
    ) -> HandledMessage:
        """This delivery runs the lane when it holds it, else waits for the outcome the
        holder stores, taking the lane over should its holder die."""
        key = (lane.tenant_id, lane.channel, queued.message_id)
        loop = asyncio.get_running_loop()
        next_takeover = loop.time() + TAKEOVER_EVERY
        self._waiters.expect(key)
        try:
            while True:
                if holding:
                    await self._driver.drive(lane, queued, tenant, progress, read_first=read_first)
                handled = await self._own_outcome(key)
                if handled is not None:
                    return handled
                await self._waiters.wait(key, POLL_EVERY)
                holding, read_first = False, True
                if loop.time() >= next_takeover:
                    next_takeover = loop.time() + TAKEOVER_EVERY
                    holding = await self._repos.lanes.acquire(lane, queued.message_id)
        finally:
            self._waiters.forget(key)

    async def _own_outcome(self, key: MessageKey) -> HandledMessage | None:
        """The message's outcome: handed over in this process, else as stored."""
        outcome = self._waiters.outcome(key)
        if outcome is None:
            stored = await self._repos.turns.stored(*key)
            if stored is None:  # the turn failed in another replica, which released the claim
                raise StoredTurnFailureError(
                    "TURN_FAILED",
                    "the turn answering this message failed; send it again",
                    retry_after_seconds=IN_PROGRESS_RETRY_AFTER_SECONDS,
                )
            outcome = stored.failure or stored.result
        if isinstance(outcome, BaseException):
            raise outcome
        if isinstance(outcome, TurnFailure):
            raise failed(outcome)
        return None if outcome is None else HandledMessage(outcome, duplicate=False)

    async def _keep_renewing(self, key: MessageKey) -> None:
        while True:
            await asyncio.sleep(self._renew_every)
            try:
                await self._repos.turns.renew(*key)
            except StorageUnavailableError as error:  # try again at the next beat
                log.warning("claim_renewal_failed", message_id=key[2], error=str(error))

    def _admitted(self, tenant_id: UUID) -> AbstractAsyncContextManager[None]:
        return nullcontext() if self._gate is None else self._gate.admit(tenant_id)


async def _accepted(progress: ProgressSink | None) -> None:
    """Tell a streaming caller its message has its place in the customer's order (a gateway
    may send the customer's next message now: it is answered after this one)."""
    if progress is not None:
        await progress(ProgressEvent(progress=ACCEPTED))


def request_digest(message: IncomingMessage) -> str:
    """Who sent what under a message id: a redelivery has the same digest, a reuse of the id
    for another message does not."""
    content = f"{customer_ref(message)}\x00{message.text}"
    if message.decision is not None:  # a tap: its choice and id are its content
        content += f"\x00{message.decision.choice.value}\x00{message.decision.pending_id}"
    return hashlib.sha256(content.encode()).hexdigest()[:32]


def _queued(message: IncomingMessage) -> QueuedMessage:
    return QueuedMessage(
        message_id=message.message_id,
        text=message.text,
        external_id=message.external_id.strip(),
        display_name=message.display_name.strip(),
        conversation_id=message.conversation_id,
        decision=message.decision,
    )
