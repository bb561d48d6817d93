"""A customer message as it arrives: its limits and who sent it (checked before anything
else, and before any model call)."""

from __future__ import annotations

import hashlib
import unicodedata
from dataclasses import dataclass
from uuid import UUID

from agenda_kit.ids import CHANNEL_RULE, is_channel
from agent_service.domain.conversations import MAX_MESSAGE_CHARS, TurnResult
from agent_service.domain.errors import InvalidInputError


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
    """Input limits, checked before anything else (and before any model call).

    The message's dedup key (tenant, channel, ``message_id``) has one spelling: the channel is
    the whole string (``agenda_kit.ids``: a trailing newline is refused, not a second
    channel), and a ``message_id`` or ``external_id`` with control characters or
    surrounding whitespace is refused — so a redelivery can never be handled as a new message.
    """
    if not is_channel(message.channel):
        raise InvalidInputError("customer.channel", CHANNEL_RULE)
    _check_id("customer.external_id", message.external_id)
    _check_id("message_id", message.message_id)
    if not message.text.strip():
        raise InvalidInputError("text", "is required")
    if len(message.text) > MAX_MESSAGE_CHARS:
        raise InvalidInputError("text", f"must be at most {MAX_MESSAGE_CHARS} characters")
    if len(message.display_name) > 200:
        raise InvalidInputError("customer.display_name", "must be at most 200 characters")


def _check_id(field: str, text: str) -> None:
    if not 0 < len(text) <= 256:
        raise InvalidInputError(field, "is required (at most 256 characters)")
    if text != text.strip() or any(unicodedata.category(c) in ("Cc", "Cf") for c in text):
        raise InvalidInputError(field, "must not have control characters or outer spaces")


def customer_ref(message: IncomingMessage) -> str:
    """An opaque reference to who sent ``message`` (message ids are unique per tenant and
    channel; this tells a redelivery from another customer's reuse of the id)."""
    return sender_ref(message.external_id)


def sender_ref(external_id: str) -> str:
    """``customer_ref`` of a sender by their channel id."""
    return hashlib.sha256(external_id.strip().encode()).hexdigest()[:32]
