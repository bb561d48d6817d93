"""``CachedServices``, ``CachedProfessionals``, ``CachedFaq``: a turn's catalog reads come from
memory instead of one database round trip per tool call.

Rules (those of ``CachedTenants``): each tenant's whole list is kept per process for ``ttl``
seconds (monotonic clock, injectable); every ``add``/``update``/``delete`` through the cache
drops the tenant's entry at once, so this replica sees its own changes (the CatalogService's)
immediately, and another replica's change is seen within ``ttl``. A list read that raced a
change through the cache is returned but not kept. ``get`` answers from the kept list and reads
the store for an id it does not hold (a just-created entry; ``NotFoundError`` passes through)
or when asked ``fresh`` (what an update reads).
``list(service_id=...)`` and ``search`` filter and rank the kept list exactly as the stores do.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from typing import Generic, Protocol, TypeVar
from uuid import UUID

from agenda_kit.cache import FencedCache
from agent_service.application.faq_ranking import rank, terms
from agent_service.domain.catalog import FaqEntry, Professional, Service

DEFAULT_TTL_SECONDS = 2.0
"""As the tenant's: spares a conversation's tool reads, sees another replica's change soon."""
MAX_TENANTS = 10_000
"""Bounds the cache's memory however many tenants a replica serves (least recently used out)."""

_E = TypeVar("_E", Service, Professional, FaqEntry)


def _tenant_tag(tenant_id: UUID) -> tuple[str]:
    return (str(tenant_id),)


class _PerTenant(Generic[_E]):
    """One list per tenant in the kit's fenced cache: kept for ``ttl`` seconds, at most
    ``MAX_TENANTS`` lists (the least recently used goes first); ``forget`` drops the tenant's
    list and makes reads that started before it not keep what they read."""

    def __init__(self, ttl: float, clock: Callable[[], float]) -> None:
        self._lists: FencedCache[UUID, tuple[_E, ...]] = FencedCache(
            ttl, _tenant_tag, max_entries=MAX_TENANTS, clock=clock
        )

    async def read(self, tenant_id: UUID, load: Callable[[], Awaitable[list[_E]]]) -> list[_E]:
        async def loaded() -> tuple[_E, ...]:
            return tuple(await load())

        return list(await self._lists.read_through(tenant_id, loaded))

    def forget(self, tenant_id: UUID) -> None:
        self._lists.invalidate(str(tenant_id))


class _CatalogStore(Protocol[_E]):
    """What the three catalog repositories share (their ports in ``application.ports``)."""

    async def get(self, tenant_id: UUID, entry_id: UUID, /, *, fresh: bool = False) -> _E: ...

    async def add(self, entry: _E, /) -> _E: ...

    async def update(self, entry: _E, /) -> _E: ...

    async def delete(self, tenant_id: UUID, entry_id: UUID, /) -> bool: ...

    async def list(self, tenant_id: UUID) -> list[_E]: ...


class _CachedCatalog(Generic[_E]):
    """A catalog repository caching each tenant's whole list (see the module): reads from
    the kept list, every change through it forgets the tenant's list."""

    def __init__(
        self,
        inner: _CatalogStore[_E],
        *,
        ttl: float = DEFAULT_TTL_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._inner: _CatalogStore[_E] = inner
        self._kept: _PerTenant[_E] = _PerTenant(ttl, clock)

    async def _all(self, tenant_id: UUID) -> list[_E]:
        return await self._kept.read(tenant_id, lambda: self._inner.list(tenant_id))

    async def get(self, tenant_id: UUID, entry_id: UUID, *, fresh: bool = False) -> _E:
        if fresh:
            return await self._inner.get(tenant_id, entry_id, fresh=True)
        for entry in await self._all(tenant_id):
            if entry.id == entry_id:
                return entry
        return await self._inner.get(tenant_id, entry_id)

    async def add(self, entry: _E) -> _E:
        try:
            return await self._inner.add(entry)
        finally:
            self._kept.forget(entry.tenant_id)

    async def update(self, entry: _E) -> _E:
        try:
            return await self._inner.update(entry)
        finally:
            self._kept.forget(entry.tenant_id)

    async def delete(self, tenant_id: UUID, entry_id: UUID) -> bool:
        try:
            return await self._inner.delete(tenant_id, entry_id)
        finally:
            self._kept.forget(tenant_id)


class CachedServices(_CachedCatalog[Service]):
    """A ``ServiceRepository`` caching each tenant's services (see the module)."""

    async def list(self, tenant_id: UUID) -> list[Service]:
        return await self._all(tenant_id)


class CachedProfessionals(_CachedCatalog[Professional]):
    """A ``ProfessionalRepository`` caching each tenant's team (see the module)."""

    async def list(self, tenant_id: UUID, *, service_id: UUID | None = None) -> list[Professional]:
        team = await self._all(tenant_id)
        return team if service_id is None else [p for p in team if p.offers(service_id)]


class CachedFaq(_CachedCatalog[FaqEntry]):
    """A ``FaqRepository`` caching each tenant's FAQ and ranking it in memory (see the module)."""

    async def search(self, tenant_id: UUID, query: str, limit: int = 3) -> list[FaqEntry]:
        if not terms(query):
            return []
        return rank(query, await self._all(tenant_id), limit)

    async def list(self, tenant_id: UUID) -> list[FaqEntry]:
        return await self._all(tenant_id)
