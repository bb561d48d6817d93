"""Beanie repository of conversations (optimistic versions)."""

from __future__ import annotations

from uuid import UUID

import structlog
from bson.errors import InvalidDocument
from pymongo.errors import DocumentTooLarge, DuplicateKeyError
from pymongo.results import UpdateResult

from agent_service.domain.conversations import (
    Conversation,
    ConversationStatus,
)
from agent_service.domain.errors import ConflictError, NotFoundError
from agent_service.infrastructure.mongo.conversation_documents import (
    ConversationDocument,
    as_stored,
    beanie_fields,
    stored_fields,
)
from agent_service.infrastructure.mongo.errors import guarded
from agent_service.infrastructure.mongo.scoped_store import ScopedStore

log = structlog.get_logger("agenda.agent.storage")
SHRUNK_MESSAGES = 20


class BeanieConversationRepository:
    """Rules: ``save`` succeeds only if the stored ``version`` is the one the caller read, and
    stores ``version + 1``; otherwise another replica wrote first: ``ConflictError``. A
    conversation at version 0 may not be stored yet: its first save creates it (an upsert on
    ``_id`` and version 0, so one stored meanwhile at a later version is a conflict)."""

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
        stored = as_stored(conversation.model_copy(update={"version": conversation.version + 1}))
        mine = self._store.mine(conversation.tenant_id, conversation.id)
        collection = ConversationDocument.get_pymongo_collection()
        expected = mine | {"version": conversation.version}
        first = conversation.version == 0

        async def replace(document: Conversation) -> UpdateResult:
            try:
                return await collection.replace_one(expected, stored_fields(document), upsert=first)
            except DocumentTooLarge:  # an InvalidDocument too, that no encoder can help
                raise
            except InvalidDocument:  # a value only Beanie's encoder knows how to store
                return await collection.replace_one(expected, beanie_fields(document), upsert=first)

        try:
            try:
                result = await replace(stored)
            except DocumentTooLarge:
                # The engine bounds what it keeps; should a document still grow too large,
                # keep the transcript's tail and drop the assistant's checkpoint rather than fail.
                log.warning("conversation_too_large", conversation_id=str(conversation.id))
                stored = as_stored(_shrunk(conversation))
                result = await replace(stored)
        except DuplicateKeyError:  # a first save met a later version (or another tenant's id)
            raise ConflictError(
                f"conversation {conversation.id} was updated concurrently"
            ) from None
        if result.matched_count == 1 or result.upserted_id is not None:
            return stored
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
