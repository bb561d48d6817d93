"""``TurnContextReader``: what a turn needs to know before it runs, read in ONE round trip.

A turn needs the customer (by channel identity), their conversation (the one the message names,
or their latest open one on the channel) and their next confirmed appointments (the assistant's
memory). Read one by one these are three queries; a store that can join them (MongoDB's
``$lookup``) answers all three at once. The repositories stay the only writers: a customer the
store does not know yet, a changed profile or a conversation to open go through them.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Protocol
from uuid import UUID

from agent_service.domain.appointments import Appointment
from agent_service.domain.catalog import Customer
from agent_service.domain.conversations import Conversation

UPCOMING_READ = 3
"""How many of the customer's next confirmed appointments a turn reads up front (the
assistant's memory shows three)."""


PENDING_READ = 5
"""How many of the customer's bookings still being confirmed a turn reads up front (a new
booking's question names them)."""


@dataclass(frozen=True, slots=True)
class Upcoming:
    """The customer's first ``limit`` confirmed appointments starting at or after ``after``,
    by start time (fewer when there are no more), and ``pending``: their first
    ``PENDING_READ`` bookings still being confirmed when the turn began, by start time (None:
    not read with the turn)."""

    after: datetime
    limit: int
    appointments: tuple[Appointment, ...]
    pending: tuple[Appointment, ...] | None = None

    def from_(self, now: datetime, limit: int) -> tuple[Appointment, ...] | None:
        """The first ``limit`` starting at or after ``now``, when this read is enough to tell;
        None when it is not (read earlier than ``now`` asks, or it may have missed some)."""
        if now < self.after or limit > self.limit:
            return None
        kept = tuple(a for a in self.appointments if a.start >= now)
        complete = len(self.appointments) < self.limit or len(kept) >= limit
        return kept[:limit] if complete else None


@dataclass(frozen=True, slots=True)
class SavingTurn:
    """The customer's lane's latest turn that gave the lane up before its conversation's save
    (``bursts.Completed.GIVEN_UP``), within its lease: its message and the conversation its
    reply names. The next turn waits until that conversation holds the message."""

    message_id: str
    conversation_id: UUID

    def shown_in(self, conversation: Conversation | None) -> bool:
        """Whether ``conversation`` is this turn's and holds its message (it was saved)."""
        return (
            conversation is not None
            and conversation.id == self.conversation_id
            and any(message.message_id == self.message_id for message in conversation.messages)
        )


@dataclass(frozen=True, slots=True)
class TurnContext:
    """What the store holds for a message's sender; None/empty parts are not stored yet."""

    customer: Customer | None
    conversation: Conversation | None
    """The named conversation (any status, any customer: the caller checks) or, when none is
    named, the customer's latest one on the channel that has not ended."""
    upcoming: Upcoming | None
    saving: SavingTurn | None = None
    """The lane's saving turn, when ``lane`` was asked (see ``SavingTurn``)."""
    waiting: tuple[str, ...] | None = None
    """The ids of the lane's messages with no outcome yet, in the order they arrived, when
    ``lane`` was asked (``LaneRepository.waiting``: a turn answers the oldest first)."""


class TurnContextReader(Protocol):
    async def read(
        self,
        tenant_id: UUID,
        channel: str,
        external_id: str,
        conversation_id: UUID | None,
        upcoming_after: datetime,
        lane: str | None = None,
    ) -> TurnContext:
        """The sender's customer, conversation, next ``UPCOMING_READ`` confirmed
        appointments and first ``PENDING_READ`` pending ones, in one read; with ``lane``
        (the customer's reference on the channel, ``incoming.customer_ref``), that lane's
        saving turn and waiting messages too. A store whose lanes give the lane up before the save
        (``Completed.GIVEN_UP``) must name it."""
        ...
