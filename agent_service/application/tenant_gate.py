"""Per-tenant admission control: one tenant's flood cannot starve the others.

Rules: at most ``limit`` turns of one tenant run at the same time; an excess turn is refused at
once with ``CapacityExceededError`` (RESOURCE_EXHAUSTED at the edge, with a retry hint) rather
than queued, so it neither waits nor holds anything; tenants never share a budget, so another
tenant's turns are admitted regardless.

Two gates implement ``Admission``:

- ``TenantGate``: counts in this process only (one asyncio event loop; no awaits while the
  counters change, hence no lock). With N replicas it allows N x ``limit``; used when the
  service runs without MongoDB (tests with in-memory repositories).
- ``ClusterTenantGate``: the per-tenant message rate across every replica (``MessageRate``,
  a token bucket in the shared database); its refusal carries ``retry_after_seconds``. With
  MongoDB the concurrent-turn limit is kept on the message claims
  (``infrastructure/mongo/claim_slots``), taken and freed in the claim's own writes.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import Protocol
from uuid import UUID

from agent_service.domain.errors import CapacityExceededError

BUSY_RETRY_AFTER_SECONDS = 1.0
"""The hint given when every slot is busy: turns usually end within seconds."""


class Admission(Protocol):
    """Admits one turn of a tenant for the duration of a block, or refuses it."""

    def admit(self, tenant_id: UUID) -> AbstractAsyncContextManager[None]:
        """Hold one of the tenant's places for the block; ``CapacityExceededError`` if none."""
        ...


def too_many_turns(limit: int, retry_after: float = BUSY_RETRY_AFTER_SECONDS) -> Exception:
    return CapacityExceededError(
        f"too many messages of this business in flight (limit {limit}); retry shortly",
        retry_after_seconds=retry_after,
    )


class TenantGate:
    """Counts the turns in flight per tenant in this process and refuses the ones over
    ``limit``."""

    def __init__(self, limit: int) -> None:
        if limit < 1:
            raise ValueError("limit must be >= 1")
        self.limit = limit
        self._in_flight: dict[UUID, int] = {}

    def in_flight(self, tenant_id: UUID) -> int:
        return self._in_flight.get(tenant_id, 0)

    @asynccontextmanager
    async def admit(self, tenant_id: UUID) -> AsyncIterator[None]:
        current = self.in_flight(tenant_id)
        if current >= self.limit:
            raise too_many_turns(self.limit)
        self._in_flight[tenant_id] = current + 1
        try:
            yield
        finally:
            left = self._in_flight[tenant_id] - 1
            if left:
                self._in_flight[tenant_id] = left
            else:
                del self._in_flight[tenant_id]


class MessageRate(Protocol):
    """A per-tenant message rate shared by every replica (port)."""

    async def take(self, tenant_id: UUID) -> float | None:
        """Take one message's token: None when admitted, else the seconds until one is free."""
        ...


class ClusterTenantGate:
    """The per-tenant message rate across replicas: each message takes a token first."""

    def __init__(self, rate: MessageRate) -> None:
        self._rate = rate

    @asynccontextmanager
    async def admit(self, tenant_id: UUID) -> AsyncIterator[None]:
        wait = await self._rate.take(tenant_id)
        if wait is not None:
            raise CapacityExceededError(
                "too many messages of this business per minute; retry shortly",
                retry_after_seconds=wait,
            )
        yield
