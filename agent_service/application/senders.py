"""Who wrote a message and where: the sender (created, or their profile merged), their
conversation (the one named if it is theirs and open, else their open one on the channel, else
a new one not stored yet) and, when the store joins them, their upcoming appointments."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from enum import Enum

from agent_service.application.customers import merge_profile
from agent_service.application.incoming import IncomingMessage, customer_ref
from agent_service.application.repositories import Repositories
from agent_service.application.turn_context import UPCOMING_READ, SavingTurn, Upcoming
from agent_service.domain.catalog import Customer
from agent_service.domain.conversations import Conversation, ConversationStatus
from agent_service.domain.errors import NotFoundError

SAVE_POLL_SECONDS = 0.02
"""How often a turn reads again while its lane's previous turn is saving (a few ms, rare: a
message of the customer that arrived in between the two writes of that turn)."""


@dataclass(frozen=True, slots=True)
class Sender:
    """Who wrote a message and where, as one read found them."""

    customer: Customer
    conversation: Conversation
    upcoming: Upcoming | None
    waiting: tuple[str, ...] | None = None
    """The ids of the customer's lane's messages with no outcome yet, in arrival order, when
    the store read them with the rest (``TurnContext.waiting``)."""


async def find_sender(
    repos: Repositories, message: IncomingMessage, clock: Callable[[], datetime]
) -> Sender:
    """The sender (created or profile merged as needed), their conversation and, when the
    store joins them, their upcoming appointments and their lane's waiting messages: one read
    for a known customer. While the customer's lane's previous turn is still saving its
    conversation (it gave the lane up first: ``bursts.Completed.GIVEN_UP``), read again
    until that save shows, or its lease passed (its replica died): a turn sees the turn
    before it."""
    while True:
        found, read, saving = await _find_sender(repos, message, clock)
        seen = _Seen.SHOWN if saving is None else await _saved(repos, message, read, saving)
        if seen is _Seen.SHOWN:
            return found
        if seen is _Seen.WAIT:
            await asyncio.sleep(SAVE_POLL_SECONDS)
        # _Seen.STALE: the save landed after this read: read again now, that read shows it


class _Seen(Enum):
    SHOWN = "shown"
    """What the turn read is after the saving turn's save (or that save is not its concern)."""
    STALE = "stale"
    """The save landed after the read: reading again shows it."""
    WAIT = "wait"
    """The save has not landed yet."""


async def _saved(
    repos: Repositories, message: IncomingMessage, read: Conversation | None, saving: SavingTurn
) -> _Seen:
    """Whether the turn's read is after the saving turn's save: the conversation it read holds
    that turn's message (the usual case: the same conversation goes on); else that
    conversation, read by id, says whether the save landed — and if it did, whether the read
    was merely earlier (read again) or that conversation is not this turn's (it ended
    meanwhile, or the message names another one)."""
    if saving.shown_in(read):
        return _Seen.SHOWN
    try:
        stored = await repos.conversations.get(message.tenant_id, saving.conversation_id)
    except NotFoundError:
        return _Seen.WAIT  # not stored yet
    if not saving.shown_in(stored):
        return _Seen.WAIT
    other = read is not None and read.id != stored.id
    return _Seen.SHOWN if stored.status is ConversationStatus.ENDED or other else _Seen.STALE


async def _find_sender(
    repos: Repositories, message: IncomingMessage, clock: Callable[[], datetime]
) -> tuple[Sender, Conversation | None, SavingTurn | None]:
    """What ``find_sender`` returns, the conversation as read (None: none read) and the
    lane's saving turn."""
    sender = Customer(
        tenant_id=message.tenant_id,
        channel=message.channel,
        external_id=message.external_id.strip(),
        name=message.display_name.strip(),
    )
    reader = repos.turn_context
    if reader is not None:
        known = await reader.read(
            message.tenant_id,
            message.channel,
            sender.external_id,
            message.conversation_id,
            clock(),
            lane=customer_ref(message),
        )
        if known.customer is not None:
            customer = known.customer
            if merge_profile(customer, sender) != customer:
                customer, _ = await repos.customers.upsert(sender)
            found = _Found(known.conversation)
            conversation = await _conversation(repos, message, customer, found)
            sender_found = Sender(customer, conversation, known.upcoming, known.waiting)
            return sender_found, known.conversation, known.saving
    customer, created = await repos.customers.upsert(sender, likely_new=reader is not None)
    if created and message.conversation_id is None:
        # A customer stored just now has no conversation and no appointment yet.
        nothing = Upcoming(clock(), UPCOMING_READ, (), pending=())
        sent = Sender(
            customer, await _conversation(repos, message, customer, _Found(None)), nothing
        )
        return sent, None, None
    return Sender(customer, await _conversation(repos, message, customer), None), None, None


async def _conversation(
    repos: Repositories,
    message: IncomingMessage,
    customer: Customer,
    found: _Found | None = None,
) -> Conversation:
    """The named conversation if it is the customer's and has not ended, else their open
    one on the channel, else a new one, not stored yet (``found``: already read, None if
    not stored)."""
    repo = repos.conversations
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
