"""``CachedTenants``: a turn's tenant read is served from memory for a short time only."""

from __future__ import annotations

from uuid import UUID, uuid4

import pytest

from agent_service.application.tenant_cache import CachedTenants
from agent_service.domain.catalog import Tenant
from agent_service.domain.errors import NotFoundError
from tests.fakes.agent_repositories import InMemoryTenantRepository


class CountingTenants(InMemoryTenantRepository):
    def __init__(self) -> None:
        super().__init__()
        self.reads = 0

    async def get(self, tenant_id: UUID, *, fresh: bool = False) -> Tenant:
        self.reads += 1
        return await super().get(tenant_id)


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


async def test_reads_once_within_the_ttl_and_again_after_it() -> None:
    inner, clock = CountingTenants(), Clock()
    cache = CachedTenants(inner, ttl=2.0, clock=clock)
    tenant = await cache.add(Tenant(name="Salon"))
    assert (await cache.get(tenant.id)).name == "Salon"
    clock.now += 1.9
    await cache.get(tenant.id)
    assert inner.reads == 1
    clock.now += 0.2
    await cache.get(tenant.id)
    assert inner.reads == 2


async def test_an_update_here_is_seen_at_once() -> None:
    inner, clock = CountingTenants(), Clock()
    cache = CachedTenants(inner, ttl=60.0, clock=clock)
    tenant = await cache.add(Tenant(name="Salon"))
    await cache.get(tenant.id)
    await cache.update(tenant.model_copy(update={"time_zone": "America/Sao_Paulo"}))
    assert (await cache.get(tenant.id)).time_zone == "America/Sao_Paulo"


async def test_an_update_on_another_replica_is_seen_after_the_ttl() -> None:
    inner, clock = CountingTenants(), Clock()
    here = CachedTenants(inner, ttl=2.0, clock=clock)
    tenant = await inner.add(Tenant(name="Salon"))
    await here.get(tenant.id)
    await inner.update(tenant.model_copy(update={"name": "Salon 2"}))
    assert (await here.get(tenant.id)).name == "Salon"
    clock.now += 2.0
    assert (await here.get(tenant.id)).name == "Salon 2"


async def test_a_missing_tenant_is_not_cached() -> None:
    inner = CountingTenants()
    cache = CachedTenants(inner, ttl=60.0, clock=Clock())
    missing = uuid4()
    for _ in range(2):
        with pytest.raises(NotFoundError):
            await cache.get(missing)
    assert inner.reads == 2


async def test_a_full_cache_evicts_the_least_recently_used_tenant_not_all(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("agent_service.application.tenant_cache.MAX_ENTRIES", 3)
    inner = CountingTenants()
    cache = CachedTenants(inner, ttl=60.0, clock=Clock())
    tenants = [await inner.add(Tenant(name=f"Salon {n}")) for n in range(4)]
    for tenant in tenants[:3]:
        await cache.get(tenant.id)
    await cache.get(tenants[0].id)  # the first is now the most recently used
    await cache.get(tenants[3].id)  # full: the least recently used (the second) goes
    reads = inner.reads
    for tenant in (tenants[0], tenants[2], tenants[3]):
        await cache.get(tenant.id)
    assert inner.reads == reads
    await cache.get(tenants[1].id)
    assert inner.reads == reads + 1


class RacingTenants(CountingTenants):
    """A store whose next read lets an update through the cache land while it runs."""

    def __init__(self) -> None:
        super().__init__()
        self.during_read: list[object] = []

    async def get(self, tenant_id: UUID, *, fresh: bool = False) -> Tenant:
        tenant = await super().get(tenant_id, fresh=fresh)
        while self.during_read:
            await self.during_read.pop()  # type: ignore[misc]
        return tenant


async def test_a_read_that_raced_an_update_is_returned_but_not_kept() -> None:
    inner = RacingTenants()
    cache = CachedTenants(inner, ttl=60.0, clock=Clock())
    tenant = await inner.add(Tenant(name="Salon"))
    inner.during_read.append(cache.update(tenant.model_copy(update={"name": "Salon 2"})))
    assert (await cache.get(tenant.id)).name == "Salon"  # read before the update landed
    assert (await cache.get(tenant.id)).name == "Salon 2"  # not served from the stale read


async def test_a_fresh_read_goes_past_the_cache_and_leaves_it_as_it_was() -> None:
    inner = CountingTenants()
    cache = CachedTenants(inner, ttl=60.0, clock=Clock())
    tenant = await inner.add(Tenant(name="Salon"))
    await cache.get(tenant.id)
    await inner.update(tenant.model_copy(update={"name": "Salon 2"}))  # behind the cache
    reads = inner.reads
    assert (await cache.get(tenant.id, fresh=True)).name == "Salon 2"  # what an update reads
    assert inner.reads == reads + 1
    assert (await cache.get(tenant.id)).name == "Salon"  # the TTL still serves the kept one
