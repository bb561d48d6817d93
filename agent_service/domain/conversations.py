"""Conversations: who answers (bot or human), what was said, and what the bot remembers."""

from __future__ import annotations

from datetime import UTC, datetime
from enum import StrEnum
from typing import Any
from uuid import UUID, uuid4

from pydantic import BaseModel, ConfigDict, Field

from agent_service.domain.catalog import Entity
from agent_service.domain.errors import InvalidStateError

MAX_MESSAGE_CHARS = 4000
KEPT_MESSAGES = 200


def _now() -> datetime:
    return datetime.now(UTC)


class ConversationStatus(StrEnum):
    ACTIVE = "active"
    HANDED_OFF = "handed_off"
    APPOINTMENT_PENDING = "appointment_pending"
    CHANGE_DECLINED = "change_declined"
    CHANGE_FAILED = "change_failed"
    ENDED = "ended"


class Role(StrEnum):
    CUSTOMER = "customer"
    ASSISTANT = "assistant"
    HUMAN = "human"
    SYSTEM = "system"


class Message(Entity):
    """One message as stored."""

    role: Role
    text: str
    at: datetime = Field(default_factory=_now)
    message_id: str = ""
    specialist: str = ""


class ActionKind(StrEnum):
    APPOINTMENT_BOOKED = "appointment_booked"
    APPOINTMENT_CANCELLED = "appointment_cancelled"
    APPOINTMENT_RESCHEDULED = "appointment_rescheduled"
    HANDED_OFF = "handed_off"
    APPOINTMENT_PENDING = "appointment_pending"
    CHANGE_DECLINED = "change_declined"
    CHANGE_FAILED = "change_failed"


class TurnAction(Entity):
    """A structured outcome of a turn."""

    kind: ActionKind
    appointment_id: UUID | None = None
    detail: str = ""


class ReplyChoice(StrEnum):
    """What a quick reply under a confirmation question answers."""

    CONFIRM = "confirm"
    DECLINE = "decline"


class QuickReply(Entity):
    """A button under the confirmation question; a tap comes back as a structured decision
    (``choice`` of the pending action's id), never as text to interpret."""

    choice: ReplyChoice
    label: str


class DecisionResult(StrEnum):
    """What a message did to the pending action it answered (a tap or a typed answer)."""

    NONE = "none"  # it answered nothing
    CONFIRMED = "confirmed"  # the action ran (its outcome is in the turn's actions)
    DECLINED = "declined"
    EXPIRED = "expired"  # too late: nothing ran
    NOT_PENDING = "not_pending"  # a decision for an id that is not the open question
    ALREADY_DONE = "already_done"  # another message confirmed it first; its outcome is restated


class PendingConfirmation(Entity):
    """A change waiting for the customer's very next message (a plain yes or a structured
    confirm of ``id``), as the customer was asked about it: ``question`` is the
    system-rendered text the reply ended with."""

    id: str = ""
    kind: ActionKind
    question: str
    service_name: str = ""
    professional_name: str = ""
    start: datetime | None = None
    new_start: datetime | None = None
    price: str = ""
    appointment_id: UUID | None = None
    expires_at: datetime | None = None
    quick_replies: tuple[QuickReply, ...] = ()


PENDING_STATE_KEY = "pending_action"
"""Where the engine keeps its pending action in ``Conversation.engine_state``; cleared by every
change of who answers (handoff, hand-back, end) so a later "yes" confirms nothing."""


class Conversation(Entity):
    """A customer's thread. ``engine_state`` is the assistant's own checkpoint (opaque here);
    ``version`` makes concurrent updates from two replicas detectable."""

    id: UUID = Field(default_factory=uuid4)
    tenant_id: UUID
    customer_id: UUID
    channel: str
    status: ConversationStatus = ConversationStatus.ACTIVE
    active_specialist: str = ""
    messages: tuple[Message, ...] = ()
    summary: str = ""
    handoff_reason: str = ""
    handed_off_at: datetime | None = None
    """When a human took the conversation (``None`` unless handed off)."""
    engine_state: dict[str, Any] = Field(default_factory=dict)
    created_at: datetime = Field(default_factory=_now)
    updated_at: datetime = Field(default_factory=_now)
    version: int = 0

    def with_message(self, message: Message) -> Conversation:
        """Append a message, keeping the latest ``KEPT_MESSAGES``."""
        messages = (*self.messages, message)[-KEPT_MESSAGES:]
        return self.model_copy(update={"messages": messages, "updated_at": _now()})

    def without_pending(self) -> Conversation:
        """The same conversation with no change waiting for confirmation."""
        if not self.engine_state.get(PENDING_STATE_KEY):
            return self
        state = {k: v for k, v in self.engine_state.items() if k != PENDING_STATE_KEY}
        return self.model_copy(update={"engine_state": state})

    def handed_off(self, reason: str) -> Conversation:
        if self.status is ConversationStatus.ENDED:
            raise InvalidStateError("the conversation has ended")
        return self.without_pending().model_copy(
            update={
                "status": ConversationStatus.HANDED_OFF,
                "handoff_reason": reason,
                "handed_off_at": _now(),
                "active_specialist": "",
                "updated_at": _now(),
            }
        )

    def handed_back(self) -> Conversation:
        if self.status is not ConversationStatus.HANDED_OFF:
            raise InvalidStateError("the conversation is not with a human")
        return self.without_pending().model_copy(
            update={
                "status": ConversationStatus.ACTIVE,
                "handoff_reason": "",
                "handed_off_at": None,
                "updated_at": _now(),
            }
        )

    def ended(self) -> Conversation:
        return self.without_pending().model_copy(
            update={
                "status": ConversationStatus.ENDED,
                "active_specialist": "",
                "updated_at": _now(),
            }
        )


class Citation(BaseModel):
    """A FAQ entry a reply was answered from (the structured citation; never a tag in text)."""

    model_config = ConfigDict(frozen=True)

    faq_id: UUID
    question: str = ""


class TurnResult(Entity):
    """What one customer message produced; stored under the channel message id so a
    redelivered message gets the same answer and changes nothing."""

    conversation_id: UUID
    reply: str
    actions: tuple[TurnAction, ...] = ()
    trace_id: str = ""
    specialist: str = ""
    status: ConversationStatus = ConversationStatus.ACTIVE
    customer_ref: str = ""
    """Opaque reference (hash) of the customer whose message this was; a redelivery from
    another customer gets ``MessageIdTakenError``, never this reply."""
    pending: PendingConfirmation | None = None
    citations: tuple[Citation, ...] = ()
    decision: DecisionResult = DecisionResult.NONE
    language: str = ""
    """Language of the reply ("pt", "en", ...), for the channel's own words; "" when unknown."""
    answers: tuple[str, ...] = ()
    """The channel message ids this reply answers, in the order they arrived (a burst handled
    as one turn); empty for a turn of one message."""
    covered_by: str = ""
    """Set when another message's reply answers this one too (this message was part of a
    burst): that message's id. ``reply`` is empty then: one reply per burst."""


class TurnFailure(Entity):
    """A turn that could not finish (the model unreachable, the turn's budget spent): stored
    under its message id instead of a reply, so a delivery waiting for it learns the outcome;
    the message may be sent again (same id) and then runs again. Never shown to a customer."""

    reason: str
    """Stable ``ErrorInfo.reason`` (UPPER_SNAKE), e.g. ``MODEL_UNAVAILABLE``."""
    message: str
    """Developer-facing English."""
    retry_after_seconds: float = 1.0
    cause: str = ""
    """What failed, when known (e.g. ``timeout``, ``connection``, ``server_error``)."""
