"""A tenant's turn slots kept ON the message claims (``processed_turns``), so that claiming a
message and taking a slot is one write, and completing the turn frees it in the same write.

Rules: a claim of a turn that runs holds ``slot`` = ``"<tenant>/<n>"`` (``n`` in
``0..limit-1``) with its own lease ``slot_until`` (database clock); a unique index on
``(tenant_id, slot)`` over the claims that have a ``slot`` makes two claims never hold one
slot, so never more than ``limit`` turns of a tenant hold live slots. The first try is one
insert with a random slot; when that slot is taken the tenant's slot holders are read and a
free one (absent, or held by a claim whose slot lease expired: taken back with a conditional
``$unset``) is set on the claim, or, with none free, the claim is dropped and
``CapacityExceededError`` raised (the message stays unclaimed). Completing the turn (its
result) or releasing the claim frees the slot in the same write; a replica that dies stops
renewing and its slots are free again once ``slot_until`` passes.
A duplicate delivery never takes a slot: it only finds the message claimed.
"""

from __future__ import annotations

import functools
import random
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any
from uuid import UUID

from pymongo.asynchronous.collection import AsyncCollection
from pymongo.errors import DuplicateKeyError

from agent_service.application.tenant_gate import too_many_turns

SLOT_INDEX = "one_turn_per_slot"
_TRIES = 4
"""Rounds of (read the holders, set a free slot) before giving up as if all were taken: a
round fails only when another turn took the chosen free slot between the read and the write."""


@dataclass(frozen=True, slots=True)
class SlotPolicy:
    """``limit`` turns of one tenant at once, each slot a lease of ``lease``."""

    limit: int
    lease: timedelta

    def __post_init__(self) -> None:
        if self.limit < 1 or self.lease <= timedelta(0):
            raise ValueError("limit must be >= 1 and lease positive")

    def name(self, tenant_id: UUID, slot: int) -> str:
        return f"{tenant_id}/{slot}"

    def names(self, tenant_id: UUID) -> tuple[str, ...]:
        """Every slot's name of ``tenant_id``, in slot order (spelled once per tenant)."""
        return _slot_names(self, tenant_id)

    def any_slot(self, tenant_id: UUID) -> dict[str, Any]:
        """A random slot's fields for a claim's first try (spreads turns over the slots)."""
        return {"slot": self.names(tenant_id)[random.randrange(self.limit)]}  # noqa: S311

    def held(self, slot: str, now: datetime) -> dict[str, Any]:
        return {"slot": slot, "slot_until": now + self.lease}


@functools.lru_cache(maxsize=1024)
def _slot_names(policy: SlotPolicy, tenant_id: UUID) -> tuple[str, ...]:
    return tuple(policy.name(tenant_id, slot) for slot in range(policy.limit))


def is_slot_taken(error: DuplicateKeyError) -> bool:
    """The duplicate was the slot (another turn holds it), not the message's claim."""
    details = error.details or {}
    return "slot" in (details.get("keyPattern") or {}) or SLOT_INDEX in str(error)


class SlotTaker:
    """Sets a free slot of ``tenant_id`` on an existing claim (see the module's rules)."""

    def __init__(self, claims: AsyncCollection[dict[str, Any]], policy: SlotPolicy) -> None:
        self._claims = claims
        self._policy = policy

    async def take(self, claim: dict[str, Any], tenant_id: UUID, now: datetime) -> None:
        """Hold a free slot for ``claim`` (a filter matching exactly the caller's claim); with
        none free, delete the claim and raise ``CapacityExceededError``."""
        for _ in range(_TRIES):
            slot = await self._free(tenant_id, now)
            if slot is None:
                break
            try:
                await self._claims.update_one(claim, {"$set": self._policy.held(slot, now)})
            except DuplicateKeyError:
                continue  # another turn took it meanwhile: read again
            return
        await self._claims.delete_one(claim | {"result": None})
        raise too_many_turns(self._policy.limit)

    async def _free(self, tenant_id: UUID, now: datetime) -> str | None:
        """A slot nobody holds now (an expired holder's slot is taken back first), or None."""
        holders = {
            doc["slot"]: doc
            async for doc in self._claims.find(
                {"tenant_id": tenant_id, "slot": {"$exists": True}}, {"slot": 1, "slot_until": 1}
            )
        }
        live = {slot for slot, doc in holders.items() if _live(doc, now)}
        free = [name for name in self._policy.names(tenant_id) if name not in live]
        if not free:
            return None
        slot = random.choice(free)  # noqa: S311 - replicas racing for the last places spread out
        expired = holders.get(slot)
        if expired is not None:
            await self._claims.update_one(
                {"_id": expired["_id"], "slot": slot, "slot_until": expired.get("slot_until")},
                {"$unset": {"slot": "", "slot_until": ""}},
            )
        return slot


def _live(doc: dict[str, Any], now: datetime) -> bool:
    until = doc.get("slot_until")
    return until is not None and bool(until > now)  # the client reads aware datetimes
