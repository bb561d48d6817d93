"""The per-tenant message rate in MongoDB, shared by every agent replica (the concurrent-turn
limit is kept on the message claims: ``claim_slots``).

**Message rate** (``tenant_message_rate``): a token bucket per tenant — ``per_minute`` tokens
a minute, at most ``burst`` saved up — stored in its GCRA form: one number per tenant,
``{_id: tenant_id, tat}``, the "theoretical arrival time" (epoch ms) at which the bucket is full
again. A message is admitted iff ``tat <= now + (burst - 1) * interval``, and then
``tat = max(tat, now) + interval``, both in ONE conditional pipeline update, so concurrent
replicas never over-admit and never retry under contention; a refused message is told the
wait until ``tat`` drops below that bound.

Time comes from the injected ``clock`` (UTC), so tests decide when tokens come back. Replicas'
clocks must agree to well within a token's interval (NTP).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any
from uuid import UUID

from pymongo import AsyncMongoClient
from pymongo.asynchronous.collection import AsyncCollection
from pymongo.errors import DuplicateKeyError

from agent_service.infrastructure.mongo.errors import guarded

Clock = Callable[[], datetime]
RATE_COLLECTION = "tenant_message_rate"
_CAS_ATTEMPTS = 8


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


def open_message_rate(
    client: AsyncMongoClient[Any],
    database: str,
    *,
    per_minute: float,
    burst: int,
    clock: Clock,
) -> MongoMessageRate | None:
    """The message rate on ``database``; None when ``per_minute`` is 0 (no limit)."""
    if per_minute <= 0:
        return None
    return MongoMessageRate(
        client[database][RATE_COLLECTION], per_minute=per_minute, burst=burst, clock=clock
    )
