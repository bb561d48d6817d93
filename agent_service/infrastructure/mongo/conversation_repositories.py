"""Beanie repositories of conversations (optimistic versions) and handled channel messages."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from uuid import UUID, uuid4

import structlog
from beanie.odm.utils.dump import get_dict
from pymongo.errors import DocumentTooLarge, DuplicateKeyError

from agent_service.domain.conversations import Conversation, ConversationStatus, TurnResult
from agent_service.domain.errors import ConflictError, NotFoundError
from agent_service.infrastructure.mongo.clock import DatabaseClock
from agent_service.infrastructure.mongo.conversation_documents import (
    ConversationDocument,
    ProcessedTurnDocument,
)
from agent_service.infrastructure.mongo.errors import guarded
from agent_service.infrastructure.mongo.scoped_store import ScopedStore

log = structlog.get_logger("agenda.agent.storage")
SHRUNK_MESSAGES = 20


class BeanieConversationRepository:
    """Rules: ``save`` succeeds only if the stored ``version`` is the one the caller read, and
    stores ``version + 1``; otherwise another replica wrote first: ``ConflictError``."""

    def __init__(self) -> None:
        self._store: ScopedStore[ConversationDocument, Conversation] = ScopedStore(
            ConversationDocument, "conversation"
        )

    @guarded
    async def add(self, conversation: Conversation) -> Conversation:
        return await self._store.insert(ConversationDocument.from_domain(conversation))

    @guarded
    async def get(self, tenant_id: UUID, conversation_id: UUID) -> Conversation:
        return await self._store.get(tenant_id, conversation_id)

    @guarded
    async def find_open(
        self, tenant_id: UUID, customer_id: UUID, channel: str
    ) -> Conversation | None:
        document = await ConversationDocument.find_one(
            {
                "tenant_id": tenant_id,
                "customer_id": customer_id,
                "channel": channel,
                "status": {"$ne": ConversationStatus.ENDED.value},
            },
            sort=[("updated_at", -1), ("_id", -1)],
        )
        return None if document is None else document.to_domain()

    @guarded
    async def save(self, conversation: Conversation) -> Conversation:
        document = ConversationDocument.from_domain(
            conversation.model_copy(update={"version": conversation.version + 1})
        )
        mine = self._store.mine(conversation.tenant_id, conversation.id)
        collection = ConversationDocument.get_pymongo_collection()
        try:
            result = await collection.replace_one(
                mine | {"version": conversation.version}, get_dict(document, to_db=True)
            )
        except DocumentTooLarge:
            # The engine bounds what it keeps; should a document still grow too large, keep
            # the transcript's tail and drop the assistant's checkpoint rather than fail.
            log.warning("conversation_too_large", conversation_id=str(conversation.id))
            document = ConversationDocument.from_domain(_shrunk(conversation))
            result = await collection.replace_one(
                mine | {"version": conversation.version}, get_dict(document, to_db=True)
            )
        if result.matched_count == 1:
            return document.to_domain()
        if await ConversationDocument.find_one(mine) is None:
            raise NotFoundError("conversation", conversation.id)
        raise ConflictError(f"conversation {conversation.id} was updated concurrently")


def _shrunk(conversation: Conversation) -> Conversation:
    return conversation.model_copy(
        update={
            "messages": conversation.messages[-SHRUNK_MESSAGES:],
            "engine_state": {},
            "summary": conversation.summary[:2000],
            "version": conversation.version + 1,
        }
    )


class BeanieTurnRepository:
    """Rules: a unique (tenant, channel, message id) marker makes exactly one delivery of a
    channel message handle it; redeliveries read its stored result. A claim is a LEASE
    (``lease``, database clock): its holder renews it while the turn runs; a claim whose holder
    died expires without a result and the next delivery takes it over."""

    def __init__(self, clock: DatabaseClock, lease: timedelta) -> None:
        self._clock = clock
        self._lease = lease

    @guarded
    async def claim(self, tenant_id: UUID, channel: str, message_id: str) -> bool:
        now = await self._clock.now()
        holder = uuid4().hex
        marker = ProcessedTurnDocument(
            tenant_id=tenant_id,
            channel=channel,
            message_id=message_id,
            claimed_at=now,
            lease_until=now + self._lease,
            holder=holder,
        )
        key = _key(tenant_id, channel, message_id)
        try:
            await marker.insert()
        except DuplicateKeyError:
            # A retried insert whose first attempt was stored (its reply lost) meets itself.
            stored = await ProcessedTurnDocument.find_one(key)
            if stored is not None and stored.holder == holder:
                return True
            return await self._take_over(key, now)
        return True

    async def _take_over(self, key: dict[str, object], now: datetime) -> bool:
        """An expired claim without a result (a lease-less legacy claim counts as expired)."""
        collection = ProcessedTurnDocument.get_pymongo_collection()
        expired = {"result": None, "$or": [{"lease_until": None}, {"lease_until": {"$lt": now}}]}
        taken = await collection.update_one(
            key | expired,
            {
                "$set": {
                    "claimed_at": now,
                    "lease_until": now + self._lease,
                    "holder": uuid4().hex,
                }
            },
        )
        return bool(taken.modified_count == 1)

    @guarded
    async def renew(self, tenant_id: UUID, channel: str, message_id: str) -> None:
        now = await self._clock.now()
        collection = ProcessedTurnDocument.get_pymongo_collection()
        await collection.update_one(
            _key(tenant_id, channel, message_id) | {"result": None},
            {"$set": {"lease_until": now + self._lease}},
        )

    @guarded
    async def complete(
        self, tenant_id: UUID, channel: str, message_id: str, result: TurnResult
    ) -> None:
        collection = ProcessedTurnDocument.get_pymongo_collection()
        await collection.update_one(
            _key(tenant_id, channel, message_id),
            {
                "$set": {"result": result.model_dump(mode="json")},
                "$setOnInsert": {"claimed_at": datetime.now(UTC)},
            },
            upsert=True,
        )

    @guarded
    async def result(self, tenant_id: UUID, channel: str, message_id: str) -> TurnResult | None:
        marker = await ProcessedTurnDocument.find_one(_key(tenant_id, channel, message_id))
        return None if marker is None else marker.turn_result()

    @guarded
    async def release(self, tenant_id: UUID, channel: str, message_id: str) -> None:
        """A completed turn is kept: its reply must still answer redeliveries."""
        collection = ProcessedTurnDocument.get_pymongo_collection()
        await collection.delete_one(_key(tenant_id, channel, message_id) | {"result": None})


def _key(tenant_id: UUID, channel: str, message_id: str) -> dict[str, object]:
    return {"tenant_id": tenant_id, "channel": channel, "message_id": message_id}
