"""A customer message as it arrives: its limits and who sent it (checked before anything
else, and before any model call)."""

from __future__ import annotations

import hashlib
import unicodedata
from dataclasses import dataclass
from uuid import UUID

from agenda_kit.ids import CHANNEL_RULE, is_channel
from agent_service.application.consent_policy import StructuredDecision
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
    decision: StructuredDecision | None = None
    """A tapped quick reply (confirm/decline of a pending action's id); ``text`` may be empty."""


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
    A structured decision needs a pending id; with one, the text may be empty.
    """
    if not is_channel(message.channel):
        raise InvalidInputError("customer.channel", CHANNEL_RULE)
    _check_id("customer.external_id", message.external_id)
    _check_id("message_id", message.message_id)
    if message.decision is not None and not 0 < len(message.decision.pending_id) <= 256:
        field = f"{message.decision.choice.value}_pending_id"
        raise InvalidInputError(field, "must be a pending action id (1..256 characters)")
    if not message.text.strip() and message.decision is None:
        raise InvalidInputError("text", "is required")
    if len(message.text) > MAX_MESSAGE_CHARS:
        raise InvalidInputError("text", f"must be at most {MAX_MESSAGE_CHARS} characters")
    if len(message.display_name) > 200:
        raise InvalidInputError("customer.display_name", "must be at most 200 characters")


def _check_id(field: str, text: str) -> None:
    if not 0 < len(text) <= 256:
        raise InvalidInputError(field, "is required (at most 256 characters)")
    if text != text.strip() or _has_control(text):
        raise InvalidInputError(field, "must not have control characters or outer spaces")


def _has_control(text: str) -> bool:
    """A control or format character (Unicode ``Cc``/``Cf``) in ``text``. In ASCII those are
    exactly the characters ``isprintable`` refuses (0-31, 127; no ASCII character is ``Cf``):
    one C-level check for the usual id instead of a category lookup per character."""
    if text.isascii():
        return not text.isprintable()
    return any(unicodedata.category(c) in ("Cc", "Cf") for c in text)


def customer_ref(message: IncomingMessage) -> str:
    """An opaque reference to who sent ``message`` (message ids are unique per tenant and
    channel; this tells a redelivery from another customer's reuse of the id)."""
    return hashlib.sha256(message.external_id.strip().encode()).hexdigest()[:32]


def transcript_text(message: IncomingMessage) -> str:
    """The customer's line in the transcript: the text, or the tapped decision when empty."""
    if message.text.strip() or message.decision is None:
        return message.text
    return f"[{message.decision.choice.value}]"


def sender_ref(external_id: str) -> str:
    """``customer_ref`` of a sender by their channel id."""
    return hashlib.sha256(external_id.strip().encode()).hexdigest()[:32]
