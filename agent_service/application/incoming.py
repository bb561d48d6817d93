"""A customer message as it arrives: its limits and who sent it (checked before anything
else, and before any model call)."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from uuid import UUID

from agent_service.domain.conversations import MAX_MESSAGE_CHARS, TurnResult
from agent_service.domain.errors import InvalidInputError

_CHANNEL = re.compile(r"^[a-z0-9_-]{1,32}$")


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


def customer_ref(message: IncomingMessage) -> str:
    """An opaque reference to who sent ``message`` (message ids are unique per tenant and
    channel; this tells a redelivery from another customer's reuse of the id)."""
    return sender_ref(message.external_id)


def sender_ref(external_id: str) -> str:
    """``customer_ref`` of a sender by their channel id."""
    return hashlib.sha256(external_id.strip().encode()).hexdigest()[:32]
