"""``BeanieOutboxRepository``: durable proactive messages, streamed and acknowledged by tenant
(and by the caller's channels).

Ordering and resumption: messages are read in (deliver_at, id) order and only once they have
been due for ``settle`` (database clock), so a write still in flight — stamped before a reader's
cursor moved on but committed after — is never skipped by a stream resuming from a cursor.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any
from uuid import UUID

from beanie.odm.enums import SortDirection
from pymongo.errors import DuplicateKeyError

from agent_service.domain.outbox import OutboxCursor, OutboxKind, OutboxMessage
from agent_service.infrastructure.mongo.base import ScopedDocument, index, stored_instant
from agent_service.infrastructure.mongo.clock import DatabaseClock
from agent_service.infrastructure.mongo.errors import guarded

SETTLE = timedelta(seconds=2)


class OutboxDocument(ScopedDocument):
    kind: OutboxKind
    customer_id: UUID
    channel: str
    external_id: str
    text: str
    appointment_id: UUID | None
    conversation_id: UUID | None
    deliver_at: datetime
    created_at: datetime
    acked_at: datetime | None
    attributes: dict[str, str]

    class Settings:
        name = "outbox"
        indexes = [  # noqa: RUF012
            index("tenant_id", "acked_at", "deliver_at", "_id", name="tenant_due"),
        ]

    @classmethod
    def from_domain(cls, message: OutboxMessage) -> OutboxDocument:
        fields = message.model_dump()
        for name in ("deliver_at", "created_at", "acked_at"):
            if fields[name] is not None:
                fields[name] = stored_instant(fields[name])
        return cls(**fields)

    def to_domain(self) -> OutboxMessage:
        fields = self.model_dump(exclude={"revision_id"})
        for name in ("deliver_at", "created_at", "acked_at"):
            if fields[name] is not None:
                fields[name] = stored_instant(fields[name])
        return OutboxMessage.model_validate(fields)


class BeanieOutboxRepository:
    """Rules: every read and ack filters by tenant; adding an existing id changes nothing."""

    def __init__(self, clock: DatabaseClock, *, settle: timedelta = SETTLE) -> None:
        self._clock = clock
        self._settle = settle

    @guarded
    async def add(self, message: OutboxMessage) -> bool:
        now = await self._clock.now()
        message = message.model_copy(
            update={"created_at": now, "deliver_at": message.deliver_at or now}
        )
        try:
            await OutboxDocument.from_domain(message).insert()
        except DuplicateKeyError:
            return False
        return True

    @guarded
    async def due(
        self,
        tenant_id: UUID,
        after: OutboxCursor | None,
        limit: int,
        *,
        channels: frozenset[str] | None = None,
    ) -> list[OutboxMessage]:
        horizon = await self._clock.now() - self._settle
        query: dict[str, Any] = {
            "tenant_id": tenant_id,
            "acked_at": None,
            "deliver_at": {"$lte": horizon},
            **_on(channels),
        }
        if after is not None:
            key = stored_instant(after.deliver_at)
            query["$or"] = [
                {"deliver_at": {"$gt": key}},
                {"deliver_at": key, "_id": {"$gt": after.message_id}},
            ]
        order = [("deliver_at", SortDirection.ASCENDING), ("_id", SortDirection.ASCENDING)]
        documents = await OutboxDocument.find(query).sort(order).limit(limit).to_list()
        return [document.to_domain() for document in documents]

    @guarded
    async def ack(
        self, tenant_id: UUID, message_ids: list[UUID], *, channels: frozenset[str] | None = None
    ) -> int:
        now = stored_instant(await self._clock.now())
        result = await OutboxDocument.get_pymongo_collection().update_many(
            {
                "tenant_id": tenant_id,
                "_id": {"$in": message_ids},
                "acked_at": None,
                **_on(channels),
            },
            {"$set": {"acked_at": now}},
        )
        return int(result.modified_count)


def _on(channels: frozenset[str] | None) -> dict[str, Any]:
    """The filter of messages on ``channels`` (None: no filter)."""
    return {} if channels is None else {"channel": {"$in": sorted(channels)}}
