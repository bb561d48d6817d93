"""``MongoTurnContextReader``: a turn's customer, conversation and upcoming appointments in one
``aggregate`` on ``customers`` with three ``$lookup`` stages (the queries the repositories would
run one by one: ``find_open``/``get`` of conversations, the customer's confirmed appointments
from now on by start time, and their pending ones)."""

from __future__ import annotations

from datetime import datetime
from typing import Any
from uuid import UUID

from agent_service.application.bursts import LaneKey
from agent_service.application.turn_context import (
    PENDING_READ,
    UPCOMING_READ,
    SavingTurn,
    TurnContext,
    Upcoming,
)
from agent_service.domain.appointments import AppointmentStatus
from agent_service.domain.conversations import ConversationStatus
from agent_service.infrastructure.mongo.base import stored_instant
from agent_service.infrastructure.mongo.booking_documents import AppointmentDocument
from agent_service.infrastructure.mongo.catalog_documents import CustomerDocument
from agent_service.infrastructure.mongo.claim_lanes import lane_name
from agent_service.infrastructure.mongo.clock import DatabaseClock
from agent_service.infrastructure.mongo.conversation_documents import (
    ConversationDocument,
    ProcessedTurnDocument,
    from_stored,
)
from agent_service.infrastructure.mongo.errors import guarded


class MongoTurnContextReader:
    """``TurnContextReader`` on the agent's Beanie collections (see the module); a lane's
    saving turn is a fourth ``$lookup``, on the claims (``claim_lanes``), in the database's
    clock, and its waiting messages a fifth."""

    def __init__(self, clock: DatabaseClock) -> None:
        self._clock = clock

    @guarded
    async def read(
        self,
        tenant_id: UUID,
        channel: str,
        external_id: str,
        conversation_id: UUID | None,
        upcoming_after: datetime,
        lane: str | None = None,
    ) -> TurnContext:
        after = stored_instant(upcoming_after)
        customers = CustomerDocument.get_pymongo_collection()
        pipeline: list[dict[str, Any]] = [
            {"$match": {"tenant_id": tenant_id, "channel": channel, "external_id": external_id}},
            {"$limit": 1},
            _conversation_lookup(tenant_id, channel, conversation_id),
            _upcoming_lookup(tenant_id, after),
            _pending_lookup(tenant_id),
        ]
        if lane is not None:
            named = lane_name(LaneKey(tenant_id, channel, lane))
            pipeline.append(_saving_lookup(tenant_id, named, await self._clock.now()))
            pipeline.append(_waiting_lookup(tenant_id, named))
        found = await (await customers.aggregate(pipeline)).to_list(1)
        if not found:
            return TurnContext(customer=None, conversation=None, upcoming=None)
        raw = found[0]
        conversations, upcoming = raw.pop("conversation"), raw.pop("upcoming")
        pending = tuple(
            AppointmentDocument.model_validate(a).to_domain() for a in raw.pop("pending")
        )
        customer = CustomerDocument.model_validate(raw)
        conversation = from_stored(conversations[0]) if conversations else None
        appointments = tuple(AppointmentDocument.model_validate(a).to_domain() for a in upcoming)
        saving = raw.pop("saving", None)
        waiting = raw.pop("waiting", None)
        return TurnContext(
            customer=customer.to_domain(),
            conversation=conversation,
            upcoming=Upcoming(after, UPCOMING_READ, appointments, pending=pending),
            saving=(
                SavingTurn(saving[0]["message_id"], saving[0]["saving_in"]) if saving else None
            ),
            waiting=None if waiting is None else tuple(w["message_id"] for w in waiting),
        )


def _conversation_lookup(
    tenant_id: UUID, channel: str, conversation_id: UUID | None
) -> dict[str, Any]:
    if conversation_id is not None:  # the named one, whoever's it is (the caller checks)
        stages: list[dict[str, Any]] = [
            {"$match": {"_id": conversation_id, "tenant_id": tenant_id}},
        ]
    else:
        stages = [
            {
                "$match": {
                    "$expr": {"$eq": ["$customer_id", "$$customer"]},
                    "tenant_id": tenant_id,
                    "channel": channel,
                    "status": {"$ne": ConversationStatus.ENDED.value},
                }
            },
            {"$sort": {"updated_at": -1, "_id": -1}},
        ]
    return {
        "$lookup": {
            "from": ConversationDocument.get_collection_name(),
            "let": {"customer": "$_id"},
            "pipeline": [*stages, {"$limit": 1}],
            "as": "conversation",
        }
    }


def _saving_lookup(tenant_id: UUID, lane: str, now: datetime) -> dict[str, Any]:
    """The lane's latest claim that gave the lane up before its save, within its lease."""
    return {
        "$lookup": {
            "from": ProcessedTurnDocument.get_collection_name(),
            "pipeline": [
                {
                    "$match": {
                        "tenant_id": tenant_id,
                        "lane": lane,
                        "saving_until": {"$gt": now},
                    }
                },
                {"$sort": {"arrived_at": -1, "_id": -1}},
                {"$limit": 1},
                {"$project": {"_id": 0, "message_id": 1, "saving_in": 1}},
            ],
            "as": "saving",
        }
    }


def _waiting_lookup(tenant_id: UUID, lane: str) -> dict[str, Any]:
    """The lane's messages with no outcome yet, in arrival order (``claim_lanes.waiting``)."""
    return {
        "$lookup": {
            "from": ProcessedTurnDocument.get_collection_name(),
            "pipeline": [
                {"$match": {"tenant_id": tenant_id, "lane_open": lane}},
                {"$sort": {"arrived_at": 1, "_id": 1}},
                {"$project": {"_id": 0, "message_id": 1}},
            ],
            "as": "waiting",
        }
    }


def _upcoming_lookup(tenant_id: UUID, after: datetime) -> dict[str, Any]:
    """The customer's next confirmed appointments from ``after`` (the assistant's memory)."""
    confirmed = {"status": AppointmentStatus.CONFIRMED.value, "start": {"$gte": after}}
    return _appointments_lookup(tenant_id, confirmed, UPCOMING_READ, "upcoming")


def _pending_lookup(tenant_id: UUID) -> dict[str, Any]:
    """The customer's bookings still being confirmed (what ``_also_pending`` of the booking
    tools would list: status pending, any start)."""
    pending = {"status": AppointmentStatus.PENDING.value}
    return _appointments_lookup(tenant_id, pending, PENDING_READ, "pending")


def _appointments_lookup(
    tenant_id: UUID, match: dict[str, Any], limit: int, into: str
) -> dict[str, Any]:
    """The customer's first ``limit`` appointments matching ``match``, by start time."""
    return {
        "$lookup": {
            "from": AppointmentDocument.get_collection_name(),
            "let": {"customer": "$_id"},
            "pipeline": [
                {
                    "$match": {
                        "$expr": {"$eq": ["$customer_id", "$$customer"]},
                        "tenant_id": tenant_id,
                        **match,
                    }
                },
                {"$sort": {"start": 1, "_id": 1}},
                {"$limit": limit},
            ],
            "as": into,
        }
    }
