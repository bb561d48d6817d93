"""Beanie repository of handled channel messages: the claims, their leases and outcomes."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any
from uuid import UUID, uuid4

from pymongo.asynchronous.collection import AsyncCollection
from pymongo.errors import DuplicateKeyError

from agent_service.application.ports import StoredTurn
from agent_service.domain.conversations import TurnFailure, TurnResult
from agent_service.infrastructure.mongo.claim_slots import SlotPolicy, SlotTaker, is_slot_taken
from agent_service.infrastructure.mongo.clock import DatabaseClock
from agent_service.infrastructure.mongo.conversation_documents import (
    ProcessedTurnDocument,
    is_lane_taken,
)
from agent_service.infrastructure.mongo.errors import guarded


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
    async def claim(
        self, tenant_id: UUID, channel: str, message_id: str, digest: str = "", sender: str = ""
    ) -> bool:
        claimed, _ = await self.insert_claim(
            _key(tenant_id, channel, message_id), digest, sender=sender
        )
        return claimed

    async def insert_claim(
        self,
        key: dict[str, Any],
        digest: str,
        fields: dict[str, Any] | None = None,
        running: str | None = None,
        sender: str = "",
    ) -> tuple[bool, bool]:
        """Claim ``key`` for ``digest`` and ``sender`` with ``fields`` (a lane's) and, if
        free, the lane ``running``: whether it was claimed and whether it holds that lane.
        One insert in the usual case: a slot or a lane found taken is left out of the next
        try (the slot is then taken from the free ones, or ``CapacityExceededError``)."""
        now = await self._clock.now()
        holder = uuid4().hex
        marker = key | {
            "claimed_at": now,
            "lease_until": now + self._lease,
            "holder": holder,
            "result": None,
            "failure": None,
            "digest": digest,
            "sender": sender,
            **(fields or {}),
        }
        optional: dict[str, dict[str, Any]] = {}
        if self._slots is not None:  # the usual turn: a free slot at the first try
            slot = self._slots.any_slot(key["tenant_id"])["slot"]
            optional["slot"] = self._slots.held(slot, now)
        if running is not None:
            optional["running"] = {"running": running, "running_until": now + self._lease}
        while True:
            try:
                if await self._insert(key, marker | _merged(optional)):
                    break
                return await self._claimed_before(key, holder, now, digest, sender), False
            except DuplicateKeyError as error:
                taken = _index_taken(error)
                if taken not in optional:  # the message's own claim: claimed before
                    return await self._claimed_before(key, holder, now, digest, sender), False
                del optional[taken]
        if "slot" not in optional:
            await self._hold_slot(key | {"holder": holder}, key["tenant_id"], now)
        return True, "running" in optional

    async def _insert(self, key: dict[str, Any], claim: dict[str, Any]) -> bool:
        """Insert ``claim`` unless ``key`` is claimed (False, or ``DuplicateKeyError``), with
        ``arrived_at`` the database server's own time of the insert and ``_id`` its own
        ObjectId: one order for every replica (a lane's). A stored claim never matches the
        filter (it has ``arrived_at``; a legacy one gets it), so it is never rewritten."""
        written = await self._claims().update_one(
            key | {"arrived_at": {"$exists": False}},
            {"$setOnInsert": claim, "$currentDate": {"arrived_at": True}},
            upsert=True,
        )
        return written.upserted_id is not None

    async def _claimed_before(
        self, key: dict[str, object], holder: str, now: datetime, digest: str, sender: str
    ) -> bool:
        # A retried insert whose first attempt was stored (its reply lost) meets itself.
        stored = await self._claims().find_one(key, {"holder": 1})
        if stored is not None and stored.get("holder") == holder:
            return True
        return await self._take_over(key, now, digest, sender)

    async def _take_over(
        self, key: dict[str, object], now: datetime, digest: str, sender: str
    ) -> bool:
        """A claim without a result whose turn failed or whose lease expired (a lease-less
        legacy claim counts as expired), claimed for the same content (or for none known).
        Its slot, if it still holds one, comes with it (renewed); else a free one is taken.
        The same digest is the same sender: ``sender`` is written for a claim that recorded
        none (an older replica's)."""
        holder = uuid4().hex
        free = {
            "$or": [
                {"failure": {"$ne": None}},
                {"lease_until": None},
                {"lease_until": {"$lt": now}},
            ]
        }
        same = {"$or": [{"digest": None}, {"digest": ""}, {"digest": digest}]}
        expired = {"result": None, "$and": [free, same]}
        fields: dict[str, Any] = {
            "claimed_at": now,
            "lease_until": now + self._lease,
            "holder": holder,
            "failure": None,
        }
        if digest:
            fields["digest"] = digest
        if sender:
            fields["sender"] = sender
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
            _key(tenant_id, channel, message_id) | {"result": None, "failure": None},
            {"$set": fields},
        )

    @guarded
    async def fail(
        self, tenant_id: UUID, channel: str, message_id: str, failure: TurnFailure
    ) -> None:
        """The failure stored, the lease ended and the slot freed, in one write."""
        await self._claims().update_one(
            _key(tenant_id, channel, message_id) | {"result": None},
            {
                "$set": {"failure": failure.model_dump(mode="json"), "lease_until": None},
                "$unset": {"slot": "", "slot_until": "", "lane_open": ""},
            },
        )

    @guarded
    async def stored(self, tenant_id: UUID, channel: str, message_id: str) -> StoredTurn | None:
        marker = await ProcessedTurnDocument.find_one(_key(tenant_id, channel, message_id))
        return None if marker is None else marker.stored()

    @guarded
    async def complete(
        self, tenant_id: UUID, channel: str, message_id: str, result: TurnResult
    ) -> None:
        """The result stored and the turn's slot freed, in one write."""
        await self._claims().update_one(
            _key(tenant_id, channel, message_id),
            {
                "$set": {"result": result.model_dump(mode="json"), "failure": None},
                "$unset": {"slot": "", "slot_until": "", "lane_open": ""},
                "$setOnInsert": {"claimed_at": datetime.now(UTC)},
            },
            upsert=True,
        )

    async def result(self, tenant_id: UUID, channel: str, message_id: str) -> TurnResult | None:
        stored = await self.stored(tenant_id, channel, message_id)
        return None if stored is None else stored.result

    @guarded
    async def release(self, tenant_id: UUID, channel: str, message_id: str) -> None:
        """A completed turn is kept: its reply must still answer redeliveries."""
        await self._claims().delete_one(_key(tenant_id, channel, message_id) | {"result": None})


def _key(tenant_id: UUID, channel: str, message_id: str) -> dict[str, Any]:
    return {"tenant_id": tenant_id, "channel": channel, "message_id": message_id}


def _merged(parts: dict[str, dict[str, Any]]) -> dict[str, Any]:
    merged: dict[str, Any] = {}
    for fields in parts.values():
        merged |= fields
    return merged


def _index_taken(error: DuplicateKeyError) -> str:
    """Which unique rule the insert broke: ``slot``, ``running`` or the message's own."""
    if is_slot_taken(error):
        return "slot"
    if is_lane_taken(error):
        return "running"
    return "message"
