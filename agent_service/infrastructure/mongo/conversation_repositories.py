"""Beanie repositories of conversations (optimistic versions) and handled channel messages."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any
from uuid import UUID, uuid4

import structlog
from beanie.odm.utils.dump import get_dict
from pymongo.asynchronous.collection import AsyncCollection
from pymongo.errors import DocumentTooLarge, DuplicateKeyError

from agent_service.domain.conversations import Conversation, ConversationStatus, TurnResult
from agent_service.domain.errors import ConflictError, NotFoundError
from agent_service.infrastructure.mongo.claim_slots import SlotPolicy, SlotTaker, is_slot_taken
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
        document = ConversationDocument.from_domain(
            conversation.model_copy(update={"version": conversation.version + 1})
        )
        mine = self._store.mine(conversation.tenant_id, conversation.id)
        collection = ConversationDocument.get_pymongo_collection()
        expected = mine | {"version": conversation.version}
        first = conversation.version == 0
        try:
            try:
                result = await collection.replace_one(
                    expected, get_dict(document, to_db=True), upsert=first
                )
            except DocumentTooLarge:
                # The engine bounds what it keeps; should a document still grow too large,
                # keep the transcript's tail and drop the assistant's checkpoint rather than fail.
                log.warning("conversation_too_large", conversation_id=str(conversation.id))
                document = ConversationDocument.from_domain(_shrunk(conversation))
                result = await collection.replace_one(
                    expected, get_dict(document, to_db=True), upsert=first
                )
        except DuplicateKeyError:  # a first save met a later version (or another tenant's id)
            raise ConflictError(
                f"conversation {conversation.id} was updated concurrently"
            ) from None
        if result.matched_count == 1 or result.upserted_id is not None:
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
    died expires without a result and the next delivery takes it over.

    With ``slots``, the claim of a turn also holds one of its tenant's turn slots (see
    ``claim_slots``): claiming takes it in the same write, completing or releasing frees it,
    and a claim with no free slot raises ``CapacityExceededError`` and is not kept."""

    def __init__(
        self, clock: DatabaseClock, lease: timedelta, slots: SlotPolicy | None = None
    ) -> None:
        self._clock = clock
        self._lease = lease
        self._slots = slots

    def _claims(self) -> AsyncCollection[dict[str, Any]]:
        collection: AsyncCollection[dict[str, Any]] = ProcessedTurnDocument.get_pymongo_collection()
        return collection

    @guarded
    async def claim(self, tenant_id: UUID, channel: str, message_id: str) -> bool:
        now = await self._clock.now()
        holder = uuid4().hex
        key = _key(tenant_id, channel, message_id)
        marker = key | {
            "claimed_at": now,
            "lease_until": now + self._lease,
            "holder": holder,
            "result": None,
        }
        mine = key | {"holder": holder}
        if self._slots is not None:
            slot = self._slots.any_slot(tenant_id)["slot"]
            try:  # the usual turn: a free slot at the first try, one write
                await self._claims().insert_one(marker | self._slots.held(slot, now))
                return True
            except DuplicateKeyError as error:
                if not is_slot_taken(error):
                    return await self._claimed_before(key, holder, now)
        try:
            await self._claims().insert_one(marker)
        except DuplicateKeyError:
            return await self._claimed_before(key, holder, now)
        await self._hold_slot(mine, tenant_id, now)
        return True

    async def _claimed_before(self, key: dict[str, object], holder: str, now: datetime) -> bool:
        # A retried insert whose first attempt was stored (its reply lost) meets itself.
        stored = await self._claims().find_one(key, {"holder": 1})
        if stored is not None and stored.get("holder") == holder:
            return True
        return await self._take_over(key, now)

    async def _take_over(self, key: dict[str, object], now: datetime) -> bool:
        """An expired claim without a result (a lease-less legacy claim counts as expired).
        Its slot, if it still holds one, comes with it (renewed); else a free one is taken."""
        holder = uuid4().hex
        expired = {"result": None, "$or": [{"lease_until": None}, {"lease_until": {"$lt": now}}]}
        fields: dict[str, Any] = {
            "claimed_at": now,
            "lease_until": now + self._lease,
            "holder": holder,
        }
        if self._slots is not None:  # renews the slot it may still hold, in the same write
            fields["slot_until"] = now + self._slots.lease
        taken = await self._claims().find_one_and_update(
            key | expired, {"$set": fields}, projection={"slot": 1, "tenant_id": 1}
        )
        if taken is None:
            return False
        if "slot" not in taken:
            await self._hold_slot(key | {"holder": holder}, taken["tenant_id"], now)
        return True

    async def _hold_slot(self, mine: dict[str, object], tenant_id: UUID, now: datetime) -> None:
        if self._slots is not None:
            await SlotTaker(self._claims(), self._slots).take(mine, tenant_id, now)

    @guarded
    async def renew(self, tenant_id: UUID, channel: str, message_id: str) -> None:
        now = await self._clock.now()
        fields: dict[str, Any] = {"lease_until": now + self._lease}
        if self._slots is not None:
            fields["slot_until"] = now + self._slots.lease
        await self._claims().update_one(
            _key(tenant_id, channel, message_id) | {"result": None}, {"$set": fields}
        )

    @guarded
    async def complete(
        self, tenant_id: UUID, channel: str, message_id: str, result: TurnResult
    ) -> None:
        """The result stored and the turn's slot freed, in one write."""
        await self._claims().update_one(
            _key(tenant_id, channel, message_id),
            {
                "$set": {"result": result.model_dump(mode="json")},
                "$unset": {"slot": "", "slot_until": ""},
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
        await self._claims().delete_one(_key(tenant_id, channel, message_id) | {"result": None})


def _key(tenant_id: UUID, channel: str, message_id: str) -> dict[str, object]:
    return {"tenant_id": tenant_id, "channel": channel, "message_id": message_id}
