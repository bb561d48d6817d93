"""Bursts: one customer's messages that arrive while a turn of theirs runs are answered by ONE
next turn, in order (customers on chat channels type in bursts).

Rules (the contract gateways rely on, docs/gateways.md#bursts):

- every message of a customer on a channel enters that customer's *lane* (kept on the
  message claims in the shared database, so replicas agree), in arrival order; the delivery
  that holds the lane runs its turns, one at a time, and gives it up after the turn's
  conversation is saved, or (the usual turn: its own message alone, nothing new) in the write
  that stores its reply, when the store's next turn context read of the lane then waits for
  that save (``Completed.GIVEN_UP``): either way the next turn sees it; a holder that dies
  stops renewing its lease and a waiting delivery of any replica takes the lane over;
- a turn answers the messages at the head of the lane: when the turn's read shows older
  messages waiting than those its delivery meant to answer (it took the lane while they
  waited for their delivery's next look), it answers the head instead;
- a turn answers the messages at the head of the lane that name the same conversation (at
  most ``MAX_BURST_MESSAGES``, their texts at most ``MAX_MESSAGE_CHARS`` together, joined by
  new lines in arrival order); the reply goes to the LAST of them, which lists them all
  (``answers``); the others get no reply of their own (``covered_by`` names the one that
  answers them): one reply per burst;
- a turn that changed nothing (no booking, cancel, handoff...) is *superseded* when more of
  the customer's messages arrived while it ran: its reply is dropped unsent and one turn
  answers all of them (at most ``MAX_SUPERSEDES`` times, so a customer who never stops
  typing still gets answers); a turn that changed something always stands, and the
  newcomers are the next turn;
- a turn that fails leaves nothing to replay: a retryable failure is stored for each of its
  messages (``TurnFailure``); any other error releases their claims (a redelivery runs them
  again) and reaches the waiting callers of this process as it was.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Protocol
from uuid import UUID

from agent_service.application.consent_policy import StructuredDecision
from agent_service.application.engine import TurnOutput
from agent_service.domain.conversations import MAX_MESSAGE_CHARS, TurnResult

MAX_BURST_MESSAGES = 10
MAX_SUPERSEDES = 2


@dataclass(frozen=True, slots=True)
class LaneKey:
    """One customer on one channel of one tenant (``customer``: an opaque reference)."""

    tenant_id: UUID
    channel: str
    customer: str


@dataclass(frozen=True, slots=True, kw_only=True)
class QueuedMessage:
    """A customer message waiting in its lane, with what its turn needs to answer it."""

    message_id: str
    text: str
    external_id: str
    display_name: str = ""
    conversation_id: UUID | None = None
    decision: StructuredDecision | None = None
    """A tapped quick reply (confirm/decline of a pending id); ``text`` may then be empty."""

    @property
    def transcript(self) -> str:
        """The customer's line in the transcript: the text, or the tapped decision."""
        if self.text.strip() or self.decision is None:
            return self.text
        return f"[{self.decision.choice.value}]"


class Joined(Enum):
    """What claiming a message in its lane found."""

    TAKEN = "taken"
    """The message id was claimed before (a redelivery, or another message reusing the id)."""
    QUEUED = "queued"
    """Claimed; a live holder runs the lane and was told that a message arrived."""
    HOLDING = "holding"
    """Claimed; this delivery now runs the lane."""


class Completed(Enum):
    """What storing the holder's own result alone (``complete_alone``) did."""

    NEWS = "news"
    """Nothing stored: a message was queued since the holder last asked."""
    HELD = "held"
    """Stored; the holder still holds the lane (it settles after the conversation's save)."""
    GIVEN_UP = "given_up"
    """Stored and the lane given up in the same write: the store's next turn context read
    of the lane names this message as *saving* (``turn_context.SavingTurn``) until its
    conversation is saved or its lease passed, and that turn waits for the save."""


class LaneRepository(Protocol):
    """Customers' lanes, kept ON the message claims (the records of ``TurnRepository``):
    which claimed message's delivery runs the lane's turns (it *holds* the lane, with a lease
    in the store's clock, renewed while it runs), and the claimed messages of the lane that
    have no outcome yet. One lane has at most one holder, in every replica together."""

    async def claim(self, lane: LaneKey, message: QueuedMessage, digest: str) -> Joined:
        """Claim ``message`` (as ``TurnRepository.claim`` with ``digest`` and the lane's
        customer as its sender) and queue it in ``lane``, holding the lane when nobody does:
        one write in the usual case."""
        ...

    async def join(self, lane: LaneKey, message: QueuedMessage) -> bool:
        """Queue a message claimed otherwise (taken over from a holder that died) in
        ``lane``; True when this delivery now holds the lane."""
        ...

    async def acquire(self, lane: LaneKey, message_id: str) -> bool:
        """Hold the lane for the delivery of ``message_id`` (still without outcome) when
        nobody holds it or its holder's lease expired."""
        ...

    async def waiting(self, lane: LaneKey) -> tuple[QueuedMessage, ...]:
        """The lane's claimed messages with no outcome yet, in the order they arrived."""
        ...

    async def arrivals(self, lane: LaneKey, holder: str) -> bool:
        """Whether messages were queued since the holder (the delivery of message id
        ``holder``) last asked; asking resets it."""
        ...

    async def complete_alone(self, lane: LaneKey, holder: str, result: TurnResult) -> Completed:
        """Store ``result`` as the holder's own message's outcome unless a message was queued
        since it last asked (then nothing is written): the usual turn's one write. A store
        whose turn context read names the lane's saving turn may give the lane up in the
        same write (``Completed.GIVEN_UP``)."""
        ...

    async def renew(self, lane: LaneKey, holder: str) -> bool:
        """Extend the holder's lease; False when it no longer holds the lane."""
        ...

    async def settle(self, lane: LaneKey, holder: str) -> bool:
        """Give the lane up unless a message was queued since the holder last asked: False
        then (and that news is consumed). True also when it no longer held the lane."""
        ...

    async def release(self, lane: LaneKey, holder: str) -> None:
        """Give the lane up whatever is queued (the next waiting delivery takes it)."""
        ...


def next_batch(queue: Sequence[QueuedMessage]) -> tuple[QueuedMessage, ...]:
    """The messages one turn answers: the head of the queue and the following ones naming
    the same conversation, each once, within ``MAX_BURST_MESSAGES`` and ``MAX_MESSAGE_CHARS``
    of text together (the head always fits: each message is within the limit). A tapped
    decision is a turn of its own: it is never joined to typed messages (its id is judged
    alone, so a stale tap cannot swallow a typed yes beside it, nor a typed message a tap)."""
    batch: list[QueuedMessage] = []
    seen: set[str] = set()
    size = 0
    for message in queue:
        if message.message_id in seen:
            continue  # a redelivery queued its message again
        if batch and (
            message.decision is not None
            or batch[0].decision is not None
            or message.conversation_id != batch[0].conversation_id
            or len(batch) == MAX_BURST_MESSAGES
            or size + 1 + len(message.text) > MAX_MESSAGE_CHARS
        ):
            break
        seen.add(message.message_id)
        size += len(message.text) + (1 if batch else 0)
        batch.append(message)
    return tuple(batch)


def newcomers(
    queue: Sequence[QueuedMessage], batch: Sequence[QueuedMessage]
) -> tuple[QueuedMessage, ...]:
    """What ``batch`` would answer too if it were started again from the same head."""
    extended = next_batch([*batch, *queue])
    taken = {message.message_id for message in batch}
    return tuple(m for m in extended if m.message_id not in taken)


def behind(waiting: Sequence[str] | None, batch: Sequence[QueuedMessage]) -> bool:
    """Whether a message not in ``batch`` arrived before one of it (``waiting``: the lane's
    message ids in arrival order, None when not read)."""
    if waiting is None:
        return False
    ids = {m.message_id for m in batch}
    last = max((i for i, message_id in enumerate(waiting) if message_id in ids), default=-1)
    return any(message_id not in ids for message_id in waiting[:last])


def in_arrival_order(
    known: Sequence[QueuedMessage], batch: Sequence[QueuedMessage]
) -> tuple[QueuedMessage, ...]:
    """``batch`` in the lane's arrival order (``known``), any message not known last."""
    position = {m.message_id: i for i, m in enumerate(known)}
    return tuple(sorted(batch, key=lambda m: position.get(m.message_id, len(position))))


def burst_text(batch: Sequence[QueuedMessage]) -> str:
    """The customer's words of a burst, as one message, in arrival order."""
    return "\n".join(message.text for message in batch)


def supersedable(output: TurnOutput) -> bool:
    """A turn whose reply may be dropped for a newer one: it changed nothing (no booking,
    cancel, reschedule, pending outcome or handoff); its proposal, if any, is asked again."""
    return not output.actions and output.handoff_reason is None
