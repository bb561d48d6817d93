"""Documents of conversations and of the channel messages already handled."""

from __future__ import annotations

from datetime import datetime
from typing import Any
from uuid import UUID

from beanie import Document
from pydantic import BaseModel
from pymongo import ASCENDING, IndexModel
from pymongo.errors import DuplicateKeyError

from agent_service.application.ports import StoredTurn
from agent_service.domain.conversations import (
    Conversation,
    ConversationStatus,
    Message,
    Role,
    TurnFailure,
    TurnResult,
)
from agent_service.infrastructure.mongo.base import ScopedDocument, index, stored_instant
from agent_service.infrastructure.mongo.claim_slots import SLOT_INDEX


class MessageFields(BaseModel):
    role: Role
    text: str
    at: datetime
    message_id: str
    specialist: str


class ConversationDocument(ScopedDocument):
    """``version`` is the optimistic-concurrency counter (see the repository)."""

    customer_id: UUID
    channel: str
    status: ConversationStatus
    active_specialist: str
    messages: list[MessageFields]
    summary: str
    handoff_reason: str
    handed_off_at: datetime | None = None
    engine_state: dict[str, Any]
    created_at: datetime
    updated_at: datetime
    version: int

    class Settings:
        name = "conversations"
        indexes = [  # noqa: RUF012
            index("tenant_id", "customer_id", "channel", "updated_at", name="tenant_customer"),
        ]

    @classmethod
    def from_domain(cls, conversation: Conversation) -> ConversationDocument:
        fields = conversation.model_dump()
        fields["created_at"] = stored_instant(conversation.created_at)
        fields["updated_at"] = stored_instant(conversation.updated_at)
        fields["messages"] = [
            message | {"at": stored_instant(message["at"])} for message in fields["messages"]
        ]
        return cls(**fields)

    def to_domain(self) -> Conversation:
        fields = self.model_dump(exclude={"revision_id", "messages"})
        messages = tuple(
            Message.model_validate(m.model_dump() | {"at": stored_instant(m.at)})
            for m in self.messages
        )
        fields["created_at"] = stored_instant(self.created_at)
        fields["updated_at"] = stored_instant(self.updated_at)
        return Conversation.model_validate(fields | {"messages": messages})


LANE_INDEX = "one_holder_per_lane"


def is_lane_taken(error: DuplicateKeyError) -> bool:
    """The duplicate was the lane (another delivery holds it), not the message's claim."""
    details = error.details or {}
    return "running" in (details.get("keyPattern") or {}) or LANE_INDEX in str(error)


class ProcessedTurnDocument(Document):
    """A claimed channel message; ``result`` is set once its turn completed."""

    tenant_id: UUID
    channel: str
    message_id: str
    claimed_at: datetime
    lease_until: datetime | None = None
    """The claim's holder renews it while handling; past it (database clock) with no result,
    the holder is presumed dead and a redelivery takes the claim over."""
    holder: str = ""
    """Who holds the claim (one token per claim): tells a retried insert from another's."""
    result: dict[str, Any] | None = None
    failure: dict[str, Any] | None = None
    """A retryable failure of its turn (``TurnFailure``), stored instead of a result."""
    digest: str | None = None
    """Who sent what under this id (``request_digest``); None for claims older than it."""
    # Written with pymongo, not declared here (an unset field must be ABSENT, never null, for
    # the partial indexes): ``slot`` ("<tenant>/<n>") and ``slot_until`` while the claim's
    # turn holds one of its tenant's turn slots (see ``claim_slots``); ``lane``,
    # ``lane_open`` (until the message has an outcome), ``queued`` (what its turn needs),
    # ``arrived_at``, and on the claim whose delivery holds the lane ``running`` (the lane),
    # ``running_until`` and ``newcomers``, and ``saving_until``/``saving_in`` (its lease, its
    # conversation) on a claim whose turn gave the lane up before the save (``claim_lanes``).

    class Settings:
        name = "processed_turns"
        indexes = [  # noqa: RUF012
            index("tenant_id", "channel", "message_id", name="one_claim_per_message", unique=True),
            IndexModel(  # prefixed by the shard key; only the claims holding a slot
                [("tenant_id", ASCENDING), ("slot", ASCENDING)],
                name=SLOT_INDEX,
                unique=True,
                partialFilterExpression={"slot": {"$exists": True}},
            ),
            IndexModel(  # one holder per customer lane
                [("tenant_id", ASCENDING), ("running", ASCENDING)],
                name=LANE_INDEX,
                unique=True,
                partialFilterExpression={"running": {"$exists": True}},
            ),
            IndexModel(  # a lane's turns given up before their conversation's save
                [("tenant_id", ASCENDING), ("lane", ASCENDING), ("saving_until", ASCENDING)],
                name="saving_in_lane",
                partialFilterExpression={"saving_until": {"$exists": True}},
            ),
            IndexModel(  # a lane's messages still waiting, in arrival order
                [("tenant_id", ASCENDING), ("lane_open", ASCENDING), ("arrived_at", ASCENDING)],
                name="waiting_in_lane",
                partialFilterExpression={"lane_open": {"$exists": True}},
            ),
        ]

    def turn_result(self) -> TurnResult | None:
        return None if self.result is None else TurnResult.model_validate(self.result)

    def stored(self) -> StoredTurn:
        failure = None if self.failure is None else TurnFailure.model_validate(self.failure)
        return StoredTurn(self.turn_result(), failure, self.digest or "")
