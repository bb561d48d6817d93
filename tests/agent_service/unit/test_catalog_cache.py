"""``CachedServices``/``CachedProfessionals``/``CachedFaq``: a turn's catalog reads are served
from memory for a short time; a change through the cache is seen at once."""

from __future__ import annotations

from typing import Any
from uuid import UUID

import pytest

from agent_service.application.catalog_cache import (
    CachedFaq,
    CachedProfessionals,
    CachedServices,
)
from agent_service.domain.catalog import FaqEntry, Professional, Service
from agent_service.domain.errors import NotFoundError
from tests.fakes.agent_repositories import (
    InMemoryFaqRepository,
    InMemoryProfessionalRepository,
    InMemoryServiceRepository,
)

TENANT = UUID("00000000-0000-4000-8000-000000000001")


class Counting:
    """Counts the reads of a fake's tenant entries (every list, search and get goes there)."""

    def __init__(self, store: Any) -> None:
        self.reads = 0
        self._of, self._get = store.of, store.get
        store.of, store.get = self.of, self.get

    def of(self, tenant_id: UUID) -> Any:
        self.reads += 1
        return self._of(tenant_id)

    def get(self, tenant_id: UUID, entity_id: UUID) -> Any:
        self.reads += 1
        return self._get(tenant_id, entity_id)


class _CountsReads:
    """Mixed into an in-memory catalog repository: ``reads`` counts its store's reads."""

    store: Any

    def __init__(self) -> None:
        super().__init__()
        self.counted = Counting(self.store)

    @property
    def reads(self) -> int:
        return self.counted.reads


class CountingServices(_CountsReads, InMemoryServiceRepository):
    pass


class CountingProfessionals(_CountsReads, InMemoryProfessionalRepository):
    pass


class CountingFaq(_CountsReads, InMemoryFaqRepository):
    pass


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def service(name: str) -> Service:
    return Service(tenant_id=TENANT, name=name, duration_minutes=30, price_minor=1000)


async def test_services_are_read_once_within_the_ttl_and_again_after_it() -> None:
    inner, clock = CountingServices(), Clock()
    cache = CachedServices(inner, ttl=2.0, clock=clock)
    cut = await cache.add(service("Corte"))
    await inner.add(service("Barba"))  # another replica's change: not seen within the ttl...
    assert [s.name for s in await cache.list(TENANT)] == ["Barba", "Corte"]
    clock.now += 1.9
    assert (await cache.get(TENANT, cut.id)).name == "Corte"
    assert len(await cache.list(TENANT)) == 2
    assert inner.reads == 1
    clock.now += 0.2  # ... and seen after it
    await inner.add(service("Escova"))
    assert len(await cache.list(TENANT)) == 3
    assert inner.reads == 2


async def test_a_change_through_the_cache_is_seen_at_once() -> None:
    inner, clock = CountingServices(), Clock()
    cache = CachedServices(inner, ttl=60.0, clock=clock)
    cut = await cache.add(service("Corte"))
    assert len(await cache.list(TENANT)) == 1
    await cache.add(service("Barba"))
    assert len(await cache.list(TENANT)) == 2
    await cache.update(cut.model_copy(update={"name": "Corte curto"}))
    assert "Corte curto" in [s.name for s in await cache.list(TENANT)]
    await cache.delete(TENANT, cut.id)
    assert [s.name for s in await cache.list(TENANT)] == ["Barba"]


async def test_an_unknown_id_is_read_from_the_store_and_not_found_passes_through() -> None:
    inner, clock = CountingServices(), Clock()
    cache = CachedServices(inner, ttl=60.0, clock=clock)
    await cache.list(TENANT)
    created = await inner.add(service("Nova"))  # created on another replica just now
    assert (await cache.get(TENANT, created.id)).name == "Nova"
    missing = service("never stored")
    try:
        await cache.get(TENANT, missing.id)
    except NotFoundError:
        pass
    else:
        raise AssertionError("a missing service must be NotFoundError")


async def test_a_read_racing_a_change_does_not_cache_the_old_list() -> None:
    inner, clock = CountingServices(), Clock()
    cache = CachedServices(inner, ttl=60.0, clock=clock)
    original_list = inner.list
    changed: list[Service] = []

    async def list_then_change(tenant_id: UUID) -> list[Service]:
        found = await original_list(tenant_id)
        if not changed:  # a change lands while the first read is on its way back
            changed.append(await cache.add(service("Barba")))
        return found

    inner.list = list_then_change  # type: ignore[method-assign]
    assert await cache.list(TENANT) == []
    assert [s.name for s in await cache.list(TENANT)] == ["Barba"]


async def test_professionals_of_a_service_are_filtered_from_the_cached_team() -> None:
    services, clock = InMemoryServiceRepository(), Clock()
    cut = await services.add(service("Corte"))
    inner = CountingProfessionals()
    cache = CachedProfessionals(inner, ttl=60.0, clock=clock)
    await cache.add(
        Professional(tenant_id=TENANT, name="Ana", calendar_id="a", service_ids=(cut.id,))
    )
    await cache.add(Professional(tenant_id=TENANT, name="Bia", calendar_id="b"))
    assert [p.name for p in await cache.list(TENANT)] == ["Ana", "Bia"]
    assert [p.name for p in await cache.list(TENANT, service_id=cut.id)] == ["Ana"]
    assert inner.reads == 1


async def test_faq_search_ranks_the_cached_entries() -> None:
    inner, clock = CountingFaq(), Clock()
    cache = CachedFaq(inner, ttl=60.0, clock=clock)
    await cache.add(FaqEntry(tenant_id=TENANT, question="Qual é o endereço?", answer="Rua A, 10"))
    await cache.add(FaqEntry(tenant_id=TENANT, question="Aceitam cartão?", answer="Sim"))
    first = await cache.search(TENANT, "onde fica o endereço", limit=2)
    second = await cache.search(TENANT, "endereço", limit=2)
    assert [e.answer for e in first] == [e.answer for e in second] == ["Rua A, 10"]
    assert await cache.search(TENANT, "e o", limit=2) == []
    assert inner.reads == 1


async def test_a_full_cache_evicts_the_least_recently_used_tenant_not_all(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("agent_service.application.catalog_cache.MAX_TENANTS", 2)
    inner = CountingServices()
    cache = CachedServices(inner, ttl=60.0, clock=Clock())
    tenants = [UUID(int=n + 1) for n in range(3)]
    for tenant in tenants:
        await inner.add(Service(tenant_id=tenant, name="Corte", duration_minutes=30))
    await cache.list(tenants[0])
    await cache.list(tenants[1])
    await cache.list(tenants[0])  # the first is now the most recently used
    await cache.list(tenants[2])  # full: the second goes, the first stays
    reads = inner.reads
    await cache.list(tenants[0])
    await cache.list(tenants[2])
    assert inner.reads == reads
    await cache.list(tenants[1])
    assert inner.reads == reads + 1
