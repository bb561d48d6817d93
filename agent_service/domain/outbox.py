"""Proactive messages: what the assistant tells a customer outside a turn.

A message is addressed to the customer on their channel (``channel`` + ``external_id``, as
the gateway knows them) and is delivered at least once: gateways stream the due ones and
acknowledge them; the ``id`` lets a gateway drop a redelivered one. ``kind`` and
``deliver_at`` let reminders use the same outbox (a reminder is a message due later).
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from uuid import UUID

from pydantic import Field

from agent_service.domain.catalog import Entity

_NAMESPACE = uuid.UUID("6d1f3a52-2b1e-4d8e-9a57-1c3f0b7e5a11")


class OutboxKind(StrEnum):
    BOOKING_CONFIRMED = "booking_confirmed"
    BOOKING_FAILED = "booking_failed"
    RESCHEDULE_CONFIRMED = "reschedule_confirmed"
    RESCHEDULE_FAILED = "reschedule_failed"
    REMINDER = "reminder"


class OutboxMessage(Entity):
    id: UUID
    tenant_id: UUID
    kind: OutboxKind
    customer_id: UUID
    channel: str
    external_id: str
    text: str
    appointment_id: UUID | None = None
    conversation_id: UUID | None = None
    deliver_at: datetime | None = None
    """When it falls due (a reminder: later); None = at once. The store fills it in (and
    ``created_at``) with ITS clock, so every replica orders messages by one clock."""
    created_at: datetime | None = None
    acked_at: datetime | None = None
    attributes: dict[str, str] = Field(default_factory=dict)

    @property
    def due_at(self) -> datetime:
        """``deliver_at`` of a stored message (the store always fills it in)."""
        if self.deliver_at is None:
            raise ValueError(f"outbox message {self.id} is not stored yet")
        return self.deliver_at

    @property
    def written_at(self) -> datetime:
        if self.created_at is None:
            raise ValueError(f"outbox message {self.id} is not stored yet")
        return self.created_at

    @property
    def cursor(self) -> OutboxCursor:
        """Where a stream that delivered this message resumes."""
        return OutboxCursor(self.due_at, self.id)


def message_id(kind: OutboxKind, subject: UUID, detail: str = "") -> UUID:
    """One id per (kind, subject, detail): whoever writes the same notice twice (a retried
    reconciler pass, two replicas) writes one message."""
    return uuid.uuid5(_NAMESPACE, f"{kind.value}:{subject}:{detail}")


@dataclass(frozen=True, slots=True)
class OutboxCursor:
    """Where a stream stopped: messages are ordered by (deliver_at, id)."""

    deliver_at: datetime
    message_id: UUID
