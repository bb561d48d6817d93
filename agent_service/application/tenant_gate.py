"""Per-tenant admission control: one tenant's flood cannot starve the others.

Rules: at most ``limit`` turns of one tenant run at the same time; an excess turn is refused at
once with ``CapacityExceededError`` (RESOURCE_EXHAUSTED at the edge, with a retry hint) rather
than queued, so it neither waits nor holds anything; tenants never share a budget, so another
tenant's turns are admitted regardless.

Two gates implement ``Admission``:

- ``TenantGate``: counts in this process only (one asyncio event loop; no awaits while the
  counters change, hence no lock). With N replicas it allows N x ``limit``; used when the
  service runs without MongoDB (tests with in-memory repositories).
- ``ClusterTenantGate``: the limit across every replica, through ``TurnSlots`` (leased slots
  in the shared database, renewed while the turn runs, so a crashed replica's slots free
  themselves within one lease) and, optionally, a per-tenant message rate (``MessageRate``,
  a token bucket in the database). Both refusals carry ``retry_after_seconds``. Without
  ``TurnSlots`` it keeps the rate only: the service keeps its slots on the message claims
  (``infrastructure/mongo/claim_slots``), taken and freed in the claim's own writes.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass
from typing import Protocol
from uuid import UUID

import structlog

from agent_service.domain.errors import CapacityExceededError, StorageUnavailableError

log = structlog.get_logger("agenda.tenant_gate")

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


@dataclass(frozen=True, slots=True)
class SlotLease:
    """One of a tenant's turn slots, held by one turn (``holder``) until released or expired."""

    tenant_id: UUID
    slot: int
    holder: str


class TurnSlots(Protocol):
    """Leased turn slots shared by every replica (port; MongoDB in infrastructure)."""

    async def acquire(self, tenant_id: UUID, limit: int) -> SlotLease | None:
        """A free (absent or expired) slot among ``0..limit-1`` taken for a new lease, or None
        when all are held by live leases."""
        ...

    async def renew(self, lease: SlotLease) -> bool:
        """Extend the lease; False when it was lost (it expired and another turn took it)."""
        ...

    async def release(self, lease: SlotLease) -> None:
        """Free the slot (only if this lease still holds it)."""
        ...


class MessageRate(Protocol):
    """A per-tenant message rate shared by every replica (port)."""

    async def take(self, tenant_id: UUID) -> float | None:
        """Take one message's token: None when admitted, else the seconds until one is free."""
        ...


class ClusterTenantGate:
    """The per-tenant limits across replicas: a message token, then a leased turn slot.

    The lease is renewed every ``renew_every`` seconds while the turn runs (choose a third of
    the lease or less); a renewal that finds the lease lost is logged and the turn goes on
    (stopping a turn mid-way is worse than briefly exceeding the limit by one).
    """

    def __init__(
        self,
        slots: TurnSlots | None,
        limit: int,
        *,
        renew_every: float,
        rate: MessageRate | None = None,
    ) -> None:
        if limit < 1 or renew_every <= 0:
            raise ValueError("limit must be >= 1 and renew_every positive")
        self.limit = limit
        self._slots = slots
        self._rate = rate
        self._renew_every = renew_every

    @asynccontextmanager
    async def admit(self, tenant_id: UUID) -> AsyncIterator[None]:
        if self._rate is not None:
            wait = await self._rate.take(tenant_id)
            if wait is not None:
                raise CapacityExceededError(
                    "too many messages of this business per minute; retry shortly",
                    retry_after_seconds=wait,
                )
        slots = self._slots
        if slots is None:  # the slots are kept elsewhere (on the message claims)
            yield
            return
        lease = await slots.acquire(tenant_id, self.limit)
        if lease is None:
            raise too_many_turns(self.limit)
        renewing = asyncio.ensure_future(self._keep_renewing(slots, lease))
        try:
            yield
        finally:
            renewing.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await renewing
            await self._release(slots, lease)

    async def _release(self, slots: TurnSlots, lease: SlotLease) -> None:
        """Free the slot; if the database cannot answer now, the lease frees it instead (the
        turn's outcome must not turn into an error after the fact)."""
        try:
            await asyncio.shield(slots.release(lease))
        except StorageUnavailableError:
            log.warning("turn_slot_release_failed", tenant_id=str(lease.tenant_id))

    async def _keep_renewing(self, slots: TurnSlots, lease: SlotLease) -> None:
        """Renew until cancelled; a database blip is retried at the next period (a lease
        spans three), a lost lease ends the renewals."""
        while True:
            await asyncio.sleep(self._renew_every)
            try:
                renewed = await slots.renew(lease)
            except StorageUnavailableError:
                log.warning("turn_slot_renewal_failed", tenant_id=str(lease.tenant_id))
                continue
            if not renewed:
                log.warning("turn_slot_lost", tenant_id=str(lease.tenant_id), slot=lease.slot)
                return
