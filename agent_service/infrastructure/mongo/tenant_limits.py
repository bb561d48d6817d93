"""The per-tenant limits in MongoDB, shared by every agent replica.

**Turn slots** (``tenant_turn_slots``): one document per (tenant, slot number) while a turn
holds it, ``{_id: "<tenant>/<n>", tenant_id, slot, holder, expires_at}``. Taking a slot is one
read of the tenant's slot documents, then a conditional write on a free one: ``insert_one``
for an absent slot (a duplicate ``_id`` means another turn won it) or ``update_one`` matching
the expired lease exactly (holder and expiry; no match means another turn won it). Two turns
can never hold one slot, so never more than ``limit`` live leases exist for a tenant. A lease
lasts ``lease`` from the moment it is taken or renewed; a replica that dies stops renewing and
its slots are free again once ``expires_at`` passes.

**Message rate** (``tenant_message_rate``): a token bucket per tenant — ``per_minute`` tokens
a minute, at most ``burst`` saved up — stored in its GCRA form: one number per tenant,
``{_id: tenant_id, tat}``, the "theoretical arrival time" (epoch ms) at which the bucket is full
again. A message is admitted iff ``tat <= now + (burst - 1) * interval``, and then
``tat = max(tat, now) + interval``, both in ONE conditional pipeline update, so concurrent
replicas never over-admit and never retry under contention; a refused message is told the
wait until ``tat`` drops below that bound.

Time comes from the injected ``clock`` (UTC), so tests decide when leases expire. Replicas'
clocks must agree to well within a lease (NTP); a replica whose clock runs ahead sees other
leases expire early by that much.
"""

from __future__ import annotations

import random
import uuid
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any
from uuid import UUID

from pymongo import ASCENDING, AsyncMongoClient, IndexModel
from pymongo.asynchronous.collection import AsyncCollection
from pymongo.errors import DuplicateKeyError

from agent_service.application.tenant_gate import SlotLease
from agent_service.infrastructure.mongo.base import stored_instant
from agent_service.infrastructure.mongo.errors import guarded

Clock = Callable[[], datetime]
SLOTS_COLLECTION = "tenant_turn_slots"
RATE_COLLECTION = "tenant_message_rate"
SLOT_INDEXES = [IndexModel([("tenant_id", ASCENDING)], name="tenant")]
RATE_INDEXES: list[IndexModel] = []
_CAS_ATTEMPTS = 8


def _slot_id(tenant_id: UUID, slot: int) -> str:
    return f"{tenant_id}/{slot}"


class MongoTurnSlots:
    """``TurnSlots`` on a MongoDB collection (see the module's rules)."""

    def __init__(
        self, collection: AsyncCollection[dict[str, Any]], *, lease: timedelta, clock: Clock
    ):
        if lease <= timedelta(0):
            raise ValueError("lease must be positive")
        self._slots = collection
        self._lease = lease
        self._clock = clock

    @guarded
    async def acquire(self, tenant_id: UUID, limit: int) -> SlotLease | None:
        now = stored_instant(self._clock())
        holder = uuid.uuid4().hex
        # A released slot is deleted, so a free one is usually absent: one insert, no read.
        first = random.randrange(limit)  # noqa: S311 - spreads load, not a secret
        if await self._take(tenant_id, first, None, holder, now):
            return SlotLease(tenant_id, first, holder)
        held = {doc["slot"]: doc async for doc in self._slots.find({"tenant_id": tenant_id})}
        live = sum(1 for doc in held.values() if doc["expires_at"] > now)
        if live >= limit:
            return None
        free = [n for n in range(limit) if n not in held or held[n]["expires_at"] <= now]
        random.shuffle(free)  # replicas racing for a tenant's last places spread out
        for slot in free:
            if await self._take(tenant_id, slot, held.get(slot), holder, now):
                return SlotLease(tenant_id, slot, holder)
        return None

    async def _take(
        self,
        tenant_id: UUID,
        slot: int,
        expired: dict[str, Any] | None,
        holder: str,
        now: datetime,
    ) -> bool:
        fields = {"holder": holder, "expires_at": now + self._lease}
        if expired is None:
            try:
                await self._slots.insert_one(
                    {"_id": _slot_id(tenant_id, slot), "tenant_id": tenant_id, "slot": slot}
                    | fields
                )
            except DuplicateKeyError:
                return False
            return True
        taken = await self._slots.update_one(
            {
                "_id": expired["_id"],
                "holder": expired["holder"],
                "expires_at": expired["expires_at"],
            },
            {"$set": fields},
        )
        return taken.matched_count == 1

    @guarded
    async def renew(self, lease: SlotLease) -> bool:
        now = stored_instant(self._clock())
        renewed = await self._slots.update_one(
            {"_id": _slot_id(lease.tenant_id, lease.slot), "holder": lease.holder},
            {"$set": {"expires_at": now + self._lease}},
        )
        return renewed.matched_count == 1

    @guarded
    async def release(self, lease: SlotLease) -> None:
        await self._slots.delete_one(
            {"_id": _slot_id(lease.tenant_id, lease.slot), "holder": lease.holder}
        )

    @guarded
    async def live(self, tenant_id: UUID) -> int:
        """How many of the tenant's slots are held by unexpired leases now."""
        now = stored_instant(self._clock())
        return await self._slots.count_documents(
            {"tenant_id": tenant_id, "expires_at": {"$gt": now}}
        )


class MongoMessageRate:
    """``MessageRate``: a token bucket per tenant, kept as GCRA's single timestamp (see the
    module's rules) so that one message costs one atomic update."""

    def __init__(
        self,
        collection: AsyncCollection[dict[str, Any]],
        *,
        per_minute: float,
        burst: int,
        clock: Clock,
    ) -> None:
        if per_minute <= 0 or burst < 1:
            raise ValueError("per_minute must be positive and burst >= 1")
        self._buckets = collection
        self._interval_ms = 60_000.0 / per_minute
        self._tolerance_ms = burst * self._interval_ms
        self._clock = clock

    @guarded
    async def take(self, tenant_id: UUID) -> float | None:
        for _ in range(_CAS_ATTEMPTS):
            now_ms = self._clock().timestamp() * 1000.0
            latest = now_ms + self._tolerance_ms - self._interval_ms  # the fullest bucket's tat
            taken = await self._buckets.update_one(
                {"_id": tenant_id, "tat": {"$lte": latest}},
                [{"$set": {"tat": {"$add": [{"$max": ["$tat", now_ms]}, self._interval_ms]}}}],
            )
            if taken.matched_count == 1:
                return None
            bucket = await self._buckets.find_one({"_id": tenant_id})
            if bucket is None:
                if await self._create(tenant_id, now_ms + self._interval_ms):
                    return None
                continue
            wait_ms = float(bucket["tat"]) - latest
            if wait_ms > 0:
                return wait_ms / 1000.0
        return self._interval_ms / 1000.0

    async def _create(self, tenant_id: UUID, tat: float) -> bool:
        try:
            await self._buckets.insert_one({"_id": tenant_id, "tat": tat})
        except DuplicateKeyError:
            return False
        return True


async def open_tenant_limits(
    client: AsyncMongoClient[Any],
    database: str,
    *,
    lease: timedelta,
    per_minute: float,
    burst: int,
    clock: Clock,
) -> tuple[MongoTurnSlots, MongoMessageRate | None]:
    """The two limits on ``database`` (indexes created; idempotent). No rate when
    ``per_minute`` is 0."""
    db = client[database]
    slots = db[SLOTS_COLLECTION]
    await slots.create_indexes(SLOT_INDEXES)
    rate = None
    if per_minute > 0:
        rate = MongoMessageRate(
            db[RATE_COLLECTION], per_minute=per_minute, burst=burst, clock=clock
        )
    return MongoTurnSlots(slots, lease=lease, clock=clock), rate
