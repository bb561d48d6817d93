"""``CachedTenants``: a turn reads its tenant from memory instead of the database.

Rules: ``get`` answers from a per-process entry younger than ``ttl`` seconds (monotonic
clock, injectable); ``add``/``update`` through this repository drop the entry at once, so
this replica sees its own changes immediately; another replica's change is seen within
``ttl``; a read that raced such a change is not kept (the kit's ``FencedCache``). At most
``MAX_ENTRIES`` tenants, the least recently used going first. A missing tenant is never cached
(``NotFoundError`` passes through every time).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from uuid import UUID

from agenda_kit.cache import FencedCache
from agent_service.application.ports import TenantRepository
from agent_service.domain.catalog import Tenant

DEFAULT_TTL_SECONDS = 2.0
"""Long enough to spare the read for a busy tenant's turns; short enough that a change made
on another replica (time zone, business hours) is seen within a couple of seconds."""
MAX_ENTRIES = 10_000
"""Bounds the cache's memory however many tenants a replica serves (least recently used out)."""


def _tenant_tag(tenant_id: UUID) -> tuple[str]:
    return (str(tenant_id),)


class CachedTenants:
    """A ``TenantRepository`` that caches ``get`` for ``ttl`` seconds (see the module)."""

    def __init__(
        self,
        inner: TenantRepository,
        *,
        ttl: float = DEFAULT_TTL_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._inner = inner
        self._entries: FencedCache[UUID, Tenant] = FencedCache(
            ttl, _tenant_tag, max_entries=MAX_ENTRIES, clock=clock
        )

    async def get(self, tenant_id: UUID, *, fresh: bool = False) -> Tenant:
        """``fresh`` (what an update reads) goes past the cache to the store."""
        if fresh:
            return await self._inner.get(tenant_id, fresh=True)
        return await self._entries.read_through(tenant_id, lambda: self._inner.get(tenant_id))

    async def add(self, tenant: Tenant) -> Tenant:
        self._entries.invalidate(str(tenant.id))
        return await self._inner.add(tenant)

    async def update(self, tenant: Tenant) -> Tenant:
        self._entries.invalidate(str(tenant.id))
        try:
            return await self._inner.update(tenant)
        finally:
            self._entries.invalidate(str(tenant.id))

    async def list(
        self, *, page_size: int, page_token: str | None
    ) -> tuple[list[Tenant], str | None]:
        return await self._inner.list(page_size=page_size, page_token=page_token)
