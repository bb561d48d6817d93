"""A redelivery of a channel message (same id): the first delivery's outcome, waited for.

Rules: the same id from another sender than the first delivery's is ``MessageIdTakenError``
at once, whatever its text and the first delivery's state; from the same sender with other
content (``request_digest``) it is ``MessageIdReusedError`` at once; a stored reply is
returned; a retryable failure stored while this delivery waited is its answer too, one stored
before it came lets it run the message again (it takes the claim, as it does when the first
delivery's holder died and its lease expired); it waits at most ``duplicate_wait`` seconds
and never past most of its caller's time left, then answers ``MessageInProgressError``
(retry shortly).

The first delivery's sender is the one its claim records (``StoredTurn.sender``). A claim
written before claims recorded it (an older replica's, during a rolling upgrade) names its
sender only through its stored reply: until that reply is stored, another sender's reuse of
the id, whatever its text, is told apart by the digest alone and answered
``MessageIdReusedError`` (the behaviour of those replicas); nothing runs either way.
"""

from __future__ import annotations

import asyncio
from uuid import UUID

import structlog

from agenda_kit import deadline
from agent_service.application.burst_driver import Waiters
from agent_service.application.ports import StoredTurn, TurnRepository
from agent_service.domain.conversations import TurnFailure, TurnResult
from agent_service.domain.errors import (
    MessageIdReusedError,
    MessageIdTakenError,
    MessageInProgressError,
    StoredTurnFailureError,
)

log = structlog.get_logger("agenda.conversation")
MessageKey = tuple[UUID, str, str]
TAKEOVER_EVERY = 0.5
"""How often a waiting delivery checks whether a holder's lease expired."""
POLL_EVERY = 0.1
"""How often a waiting delivery looks for an outcome stored by another replica."""
IN_PROGRESS_RETRY_AFTER_SECONDS = 1.0
CALLER_SHARE = 0.8
"""A duplicate waits at most this share of its caller's time left, then answers "in progress"
(so the answer reaches the caller before its deadline)."""


class Redelivery:
    """Waits for the outcome of a message id claimed before (see the module's rules)."""

    def __init__(self, turns: TurnRepository, waiters: Waiters, *, duplicate_wait: float) -> None:
        self._turns = turns
        self._waiters = waiters
        self._duplicate_wait = duplicate_wait

    async def stored_result(
        self, key: MessageKey, digest: str, customer: str = ""
    ) -> TurnResult | None:
        """The first delivery's reply; None when this delivery took the claim over.
        ``customer``: this delivery's sender (``customer_ref``)."""
        self._waiters.expect(key)
        try:
            return await self._waited(key, digest, customer)
        finally:
            self._waiters.forget(key)

    async def _waited(self, key: MessageKey, digest: str, customer: str) -> TurnResult | None:
        loop = asyncio.get_running_loop()
        give_up = loop.time() + self._wait_limit()
        next_try = loop.time()
        first_look = True
        while True:
            stored = await self._turns.stored(*key)
            owner = "" if stored is None else first_sender(stored)
            if owner and customer and owner != customer:
                raise MessageIdTakenError()  # another customer's id, whatever the text
            if stored is not None and stored.digest and digest and stored.digest != digest:
                raise MessageIdReusedError()
            if stored is not None and stored.result is not None:
                return stored.result
            if stored is not None and stored.failure is not None and not first_look:
                raise failed(stored.failure)
            first_look = False
            if loop.time() >= next_try:
                next_try = loop.time() + TAKEOVER_EVERY
                if await self._turns.claim(*key, digest, customer):
                    log.warning("claim_taken_over", message_id=key[2])
                    return None
            if loop.time() >= give_up:
                raise MessageInProgressError(
                    "this message is still being handled; send it again shortly",
                    retry_after_seconds=IN_PROGRESS_RETRY_AFTER_SECONDS,
                )
            await self._waiters.wait(key, POLL_EVERY)

    def _wait_limit(self) -> float:
        """How long a duplicate may wait: ``duplicate_wait``, within its caller's time."""
        left = deadline.remaining()
        if left is None:
            return self._duplicate_wait
        return max(0.0, min(self._duplicate_wait, left * CALLER_SHARE))


def first_sender(stored: StoredTurn) -> str:
    """Who sent the message first (``customer_ref``): recorded on its claim, else (a claim
    of an older replica) known from its stored reply only; "" while unknown."""
    if stored.sender:
        return stored.sender
    return stored.result.customer_ref if stored.result is not None else ""


def failed(failure: TurnFailure) -> StoredTurnFailureError:
    """The error a stored retryable failure is answered with."""
    return StoredTurnFailureError(
        failure.reason,
        failure.message,
        retry_after_seconds=failure.retry_after_seconds,
        cause=failure.cause,
    )
