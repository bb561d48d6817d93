"""Documents of conversations and of the channel messages already handled."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any
from uuid import UUID

from beanie import Document
from beanie.odm.utils.dump import get_dict
from pydantic import BaseModel
from pymongo import ASCENDING, IndexModel
from pymongo.errors import DuplicateKeyError

from agent_service.application.ports import StoredTurn
from agent_service.domain.conversations import (
    Conversation,
    ConversationStatus,
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
        return cls(**as_stored(conversation).model_dump())

    def to_domain(self) -> Conversation:
        return from_stored(self.model_dump() | {"_id": self.id})


def as_stored(conversation: Conversation) -> Conversation:
    """``conversation`` as a read gives it back: its instants in UTC, in whole milliseconds
    (BSON keeps no more); a message already so is kept as it is, not copied."""
    messages = tuple(
        message
        if _is_stored_instant(message.at)
        else message.model_copy(update={"at": stored_instant(message.at)})
        for message in conversation.messages
    )
    handed_off_at = conversation.handed_off_at
    return conversation.model_copy(
        update={
            "messages": messages,
            "created_at": stored_instant(conversation.created_at),
            "updated_at": stored_instant(conversation.updated_at),
            "handed_off_at": None if handed_off_at is None else stored_instant(handed_off_at),
        }
    )


def stored_fields(conversation: Conversation) -> dict[str, Any]:
    """The document of ``conversation`` (see :func:`as_stored`) in one ``model_dump``: the
    fields Beanie's encoder writes for a ``ConversationDocument`` of it (``get_dict(to_db=
    True)``: ``_id`` for ``id``, enums and tuples as BSON stores them), without building the
    document and walking every message and the engine's checkpoint value by value. A value
    BSON cannot encode as it is makes the caller fall back to Beanie's encoder."""
    fields = conversation.model_dump()
    fields["_id"] = fields.pop("id")
    return fields


def beanie_fields(conversation: Conversation) -> dict[str, Any]:
    """The same document through Beanie's encoder (any value it knows how to store)."""
    fields: dict[str, Any] = get_dict(ConversationDocument.from_domain(conversation), to_db=True)
    return fields


def from_stored(raw: dict[str, Any]) -> Conversation:
    """The conversation of a stored document (a read's raw BSON), validated once as the domain
    model (``ConversationDocument.to_domain`` validates it twice), instants in UTC."""
    fields = {key: value for key, value in raw.items() if key not in ("_id", "revision_id")}
    fields["id"] = raw["_id"]
    for key in ("created_at", "updated_at"):
        fields[key] = stored_instant(raw[key])
    fields["messages"] = [
        message | {"at": stored_instant(message["at"])} for message in raw.get("messages", ())
    ]
    return Conversation.model_validate(fields)


def _is_stored_instant(value: datetime) -> bool:
    return value.tzinfo is UTC and value.microsecond % 1000 == 0


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
    sender: str | None = None
    """Who sent it (``customer_ref``), apart from the digest so that a reuse of the id by
    another customer is told apart while the turn runs; None (absent) for claims written
    by older replicas, which ignore it when they read a newer claim."""
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
        return StoredTurn(self.turn_result(), failure, self.digest or "", self.sender or "")
