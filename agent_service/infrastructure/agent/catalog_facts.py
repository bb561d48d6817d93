"""The tenant's catalog as facts the truth check relates (``application/statements``): its
services as items of a result (names, price, length, who does each: a question pairs them as
they are paired) and the weekdays someone works (a question offers no other)."""

from __future__ import annotations

from agent_service.application.fact_spans import Kind
from agent_service.application.relations import ToldValue, name_words
from agent_service.domain.catalog import Professional, Service
from agent_service.infrastructure.agent.deps import AgentDeps

CATALOG_ITEMS = 1_000_000
"""The catalog's items are numbered after any tool result's (``told.told_values``)."""


async def catalog_facts(deps: AgentDeps) -> tuple[tuple[ToldValue, ...], frozenset[int] | None]:
    """The tenant's services as items (``application/relations``): each with its names, price,
    length and the professionals who do it; and the weekdays (Monday 0) some professional
    works, by their weekly hours (None without any)."""
    services = await deps.service_repository.list(deps.tenant_id)
    professionals = await deps.professional_repository.list(deps.tenant_id)
    found: list[ToldValue] = []
    for item, service in enumerate(services, start=CATALOG_ITEMS):
        minutes = service.duration_minutes
        found += [ToldValue("service", n, item) for n in (service.name, *service.words(None))]
        found.append(ToldValue("price", service.price_text(), item))
        found.append(ToldValue("duration", str(minutes), item, ((Kind.DURATION, minutes),)))
        for professional in (p for p in professionals if p.offers(service.id)):
            names = (professional.name, *professional.words(None))
            found += [ToldValue("professional", n, item) for n in names]
    days = {h.day_of_week - 1 for p in professionals for h in p.weekly_hours}
    return tuple(found), frozenset(days) if days else None


async def entity_words(deps: AgentDeps) -> frozenset[str]:
    """The folded words of the tenant's professional and service names and other words
    (aliases, every language's): "haircut" for "Corte e escova" is a mention of it."""
    services = await deps.service_repository.list(deps.tenant_id)
    professionals = await deps.professional_repository.list(deps.tenant_id)
    entries: list[Service | Professional] = [*services, *professionals]
    names = [e.name for e in entries] + [w for e in entries for w in e.words(None)]
    return frozenset(w for name in names for w in name_words(name))
