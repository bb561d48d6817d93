"""Per-tenant admission control: one tenant's flood cannot starve the others.

Rules: at most ``limit`` turns of one tenant run at the same time in this process; an excess
turn is refused at once with ``CapacityExceededError`` (RESOURCE_EXHAUSTED at the edge) rather
than queued, so it neither waits nor holds anything; tenants never share a budget, so another
tenant's turns are admitted regardless. Meant for one asyncio event loop (no awaits while the
counters change, hence no lock).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from uuid import UUID

from agent_service.domain.errors import CapacityExceededError


class TenantGate:
    """Counts the turns in flight per tenant and refuses the ones over ``limit``."""

    def __init__(self, limit: int) -> None:
        if limit < 1:
            raise ValueError("limit must be >= 1")
        self.limit = limit
        self._in_flight: dict[UUID, int] = {}

    def in_flight(self, tenant_id: UUID) -> int:
        return self._in_flight.get(tenant_id, 0)

    @contextmanager
    def admit(self, tenant_id: UUID) -> Iterator[None]:
        """Hold one of the tenant's places for the block; ``CapacityExceededError`` if none."""
        current = self.in_flight(tenant_id)
        if current >= self.limit:
            raise CapacityExceededError(
                f"too many messages of this business in flight (limit {self.limit}); retry shortly"
            )
        self._in_flight[tenant_id] = current + 1
        try:
            yield
        finally:
            left = self._in_flight[tenant_id] - 1
            if left:
                self._in_flight[tenant_id] = left
            else:
                del self._in_flight[tenant_id]
