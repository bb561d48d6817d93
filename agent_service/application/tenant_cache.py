"""``CachedTenants``: a turn reads its tenant from memory instead of the database.

Rules: ``get`` answers from a per-process entry younger than ``ttl`` seconds (monotonic
clock, injectable); ``add``/``update`` through this repository drop the entry at once, so
this replica sees its own changes immediately; another replica's change is seen within
``ttl``. A missing tenant is never cached (``NotFoundError`` passes through every time).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from uuid import UUID

from agent_service.application.ports import TenantRepository
from agent_service.domain.catalog import Tenant

DEFAULT_TTL_SECONDS = 2.0
"""Long enough to spare the read for a busy tenant's turns; short enough that a change made
on another replica (time zone, business hours) is seen within a couple of seconds."""
MAX_ENTRIES = 10_000
"""Bounds the cache's memory however many tenants a replica serves."""


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
        self._ttl = ttl
        self._clock = clock
        self._entries: dict[UUID, tuple[float, Tenant]] = {}

    async def get(self, tenant_id: UUID, *, fresh: bool = False) -> Tenant:
        now = self._clock()
        entry = self._entries.get(tenant_id)
        if entry is not None and now - entry[0] < self._ttl and not fresh:
            return entry[1]
        tenant = await self._inner.get(tenant_id)
        if len(self._entries) >= MAX_ENTRIES:
            self._entries.clear()
        self._entries[tenant_id] = (now, tenant)
        return tenant

    async def add(self, tenant: Tenant) -> Tenant:
        self._entries.pop(tenant.id, None)
        return await self._inner.add(tenant)

    async def update(self, tenant: Tenant) -> Tenant:
        self._entries.pop(tenant.id, None)
        try:
            return await self._inner.update(tenant)
        finally:
            self._entries.pop(tenant.id, None)

    async def list(
        self, *, page_size: int, page_token: str | None
    ) -> tuple[list[Tenant], str | None]:
        return await self._inner.list(page_size=page_size, page_token=page_token)
