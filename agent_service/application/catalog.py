"""Back-office use cases of the catalog: tenants, services, professionals and FAQ entries.

Each class is the CRUD facade of one kind of entity (create, get, update, delete, list), not
one class per operation: the operations share the rules below, and each is a repository call
or two (docs/architecture.md#use-cases-of-the-agent-service).

Rules:
- a create with an idempotency key derives the new id from (tenant, kind, key), so a retry
  returns the entity the first call stored instead of creating a second one; a tenant's key
  is scoped to the principal creating it (another principal's same key makes a new tenant);
- everything but a tenant belongs to a tenant that must exist (else ``NotFoundError``), and
  updates and deletes only see that tenant's ids;
- a professional offers only services of its own tenant; deleting a service takes it off
  every professional's list;
- an update is a change of the stored entity (``Change``: what the caller's field mask
  sets), written only if nobody wrote the entity since it was read (its ``revision``); with
  the caller's ``etag`` it must be the current one (``StaleEtagError``), without it a
  concurrent write makes the update read and change the entity again (a few tries), so no
  update ever drops another's fields; ids, tenant and creation time never change;
- lists page in their order (by name; FAQ by question) with short tokens bound to the
  request (``paging``).
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Awaitable, Callable
from typing import TypeVar
from uuid import UUID, uuid5

from agenda_kit.calendar.validation import calendar_id_problem
from agent_service.application.paging import bind, page, scope_of, unbind
from agent_service.application.ports import (
    FaqRepository,
    ProfessionalRepository,
    ServiceRepository,
    TenantRepository,
)
from agent_service.domain.catalog import Entity, FaqEntry, Professional, Service, Tenant
from agent_service.domain.errors import ConflictError, InvalidInputError, StaleEtagError

NAMESPACE = UUID("6f1d7c2e-3b0a-5d64-9a51-2f8e4c7b9d10")
_GLOBAL = "-"
E = TypeVar("E", bound=Entity)
V = TypeVar("V", Tenant, Service, Professional, FaqEntry)
Change = Callable[[V], V]
"""What an update makes of the stored entity (the caller's field mask applied)."""
UPDATE_TRIES = 3
Page = tuple[list[V], str | None]


def etag_of(entity: Tenant | Service | Professional | FaqEntry) -> str:
    """The opaque version of a stored entity (changes with every stored change)."""
    seed = f"{type(entity).__name__}/{entity.id}/{entity.revision}"
    return hashlib.sha256(seed.encode()).hexdigest()[:20]


async def changed(
    read: Callable[[], Awaitable[V]],
    write: Callable[[V], Awaitable[V]],
    change: Change[V],
    etag: str | None,
) -> V:
    """Read, check ``etag``, change, write if unchanged meanwhile (see the module's rules)."""
    for _ in range(UPDATE_TRIES):
        stored = await read()
        if etag and etag != etag_of(stored):
            raise StaleEtagError(type(stored).__name__.lower(), stored.id)
        kept = {"id": stored.id, "revision": stored.revision}
        kept |= {"created_at": stored.created_at} if isinstance(stored, Tenant) else {}
        kept |= {} if isinstance(stored, Tenant) else {"tenant_id": stored.tenant_id}
        try:
            return await write(change(stored).model_copy(update=kept))
        except ConflictError:
            if etag:
                raise StaleEtagError(type(stored).__name__.lower(), stored.id) from None
    raise ConflictError(f"{type(stored).__name__.lower()} {stored.id} changed concurrently; retry")


def entity_id_for(tenant_id: UUID | None, kind: str, idempotency_key: str) -> UUID:
    """The id a create with ``idempotency_key`` gives its entity, the same on every retry."""
    owner = _GLOBAL if tenant_id is None else str(tenant_id)
    return uuid5(NAMESPACE, f"{owner}:{kind}:{idempotency_key}")


def tenant_id_for(requester: str, idempotency_key: str) -> UUID:
    """The id ``CreateTenant`` by principal ``requester`` with ``idempotency_key`` gives."""
    return uuid5(NAMESPACE, f"principal:{requester}:tenant:{idempotency_key}")


def with_key_id(entity: E, tenant_id: UUID | None, kind: str, idempotency_key: str) -> E:
    """``entity`` with its deterministic id when a key is given (else its own random id)."""
    if not idempotency_key:
        return entity
    return entity.model_copy(update={"id": entity_id_for(tenant_id, kind, idempotency_key)})


class TenantCatalog:
    """Register, read, replace and page through businesses."""

    def __init__(self, tenants: TenantRepository) -> None:
        self._tenants = tenants

    async def create(self, tenant: Tenant, idempotency_key: str, requester: str) -> Tenant:
        """Register ``tenant``; a retry by the same ``requester`` with the same key returns
        the stored tenant."""
        if idempotency_key:
            tenant = tenant.model_copy(update={"id": tenant_id_for(requester, idempotency_key)})
        return await self._tenants.add(tenant)

    async def get(self, tenant_id: UUID) -> Tenant:
        return await self._tenants.get(tenant_id)

    async def update(
        self, tenant_id: UUID, change: Change[Tenant], etag: str | None = None
    ) -> Tenant:
        """Name, zone, locale and policy change; the creation time does not."""
        return await changed(
            lambda: self._tenants.get(tenant_id, fresh=True), self._tenants.update, change, etag
        )

    async def list(self, page_size: int, page_token: str | None) -> Page[Tenant]:
        scope = scope_of("tenants")
        inner = unbind(page_token, scope)
        tenants, token = await self._tenants.list(page_size=page_size, page_token=inner)
        return tenants, bind(token, scope)


class ServiceCatalog:
    """A tenant's menu of services."""

    def __init__(
        self,
        tenants: TenantRepository,
        services: ServiceRepository,
        professionals: ProfessionalRepository,
    ) -> None:
        self._tenants = tenants
        self._services = services
        self._professionals = professionals

    async def create(self, service: Service, idempotency_key: str) -> Service:
        await self._tenants.get(service.tenant_id)
        keyed = with_key_id(service, service.tenant_id, "service", idempotency_key)
        return await self._services.add(keyed)

    async def update(
        self, tenant_id: UUID, service_id: UUID, change: Change[Service], etag: str | None = None
    ) -> Service:
        return await changed(
            lambda: self._services.get(tenant_id, service_id, fresh=True),
            self._services.update,
            change,
            etag,
        )

    async def delete(self, tenant_id: UUID, service_id: UUID) -> bool:
        """Remove the service, then take it off professionals (also when already gone, so a
        retry after a partial failure finishes the job)."""
        deleted = await self._services.delete(tenant_id, service_id)

        def without_it(professional: Professional) -> Professional:
            remaining = tuple(sid for sid in professional.service_ids if sid != service_id)
            return professional.model_copy(update={"service_ids": remaining})

        for professional in await self._professionals.list(tenant_id, service_id=service_id):
            await changed(
                functools.partial(self._professionals.get, tenant_id, professional.id, fresh=True),
                self._professionals.update,
                without_it,
                None,
            )
        return deleted

    async def list(self, tenant_id: UUID, size: int, token: str | None) -> Page[Service]:
        await self._tenants.get(tenant_id)
        services = await self._services.list(tenant_id)
        return page(services, size, token, scope_of("services", tenant_id))


class ProfessionalCatalog:
    """A tenant's professionals; each offers only services of the same tenant."""

    def __init__(
        self,
        tenants: TenantRepository,
        services: ServiceRepository,
        professionals: ProfessionalRepository,
    ) -> None:
        self._tenants = tenants
        self._services = services
        self._professionals = professionals

    async def create(self, professional: Professional, idempotency_key: str) -> Professional:
        check_professional_calendar(professional)
        await self._tenants.get(professional.tenant_id)
        await self._check_services(professional)
        keyed = with_key_id(professional, professional.tenant_id, "professional", idempotency_key)
        return await self._professionals.add(keyed)

    async def update(
        self,
        tenant_id: UUID,
        professional_id: UUID,
        change: Change[Professional],
        etag: str | None = None,
    ) -> Professional:
        async def write(professional: Professional) -> Professional:
            check_professional_calendar(professional)
            await self._check_services(professional)
            return await self._professionals.update(professional)

        return await changed(
            lambda: self._professionals.get(tenant_id, professional_id, fresh=True),
            write,
            change,
            etag,
        )

    async def delete(self, tenant_id: UUID, professional_id: UUID) -> bool:
        return await self._professionals.delete(tenant_id, professional_id)

    async def list(
        self, tenant_id: UUID, service_id: UUID | None, size: int, token: str | None
    ) -> Page[Professional]:
        await self._tenants.get(tenant_id)
        team = await self._professionals.list(tenant_id, service_id=service_id)
        return page(team, size, token, scope_of("professionals", tenant_id, service_id))

    async def _check_services(self, professional: Professional) -> None:
        known = {service.id for service in await self._services.list(professional.tenant_id)}
        unknown = [str(sid) for sid in professional.service_ids if sid not in known]
        if unknown:
            raise InvalidInputError(
                "professional.service_ids", f"unknown service ids: {', '.join(unknown)}"
            )


def check_professional_calendar(professional: Professional) -> None:
    """The calendar service's own rule on calendar ids (``agenda_kit.calendar.validation``):
    a professional whose calendar the service would refuse is never stored."""
    problem = calendar_id_problem(professional.calendar_id)
    if problem is not None:
        raise InvalidInputError("professional.calendar_id", problem)


class FaqCatalog:
    """A tenant's questions and answers."""

    def __init__(self, tenants: TenantRepository, faq: FaqRepository) -> None:
        self._tenants = tenants
        self._faq = faq

    async def create(self, entry: FaqEntry, idempotency_key: str) -> FaqEntry:
        await self._tenants.get(entry.tenant_id)
        return await self._faq.add(with_key_id(entry, entry.tenant_id, "faq", idempotency_key))

    async def update(
        self, tenant_id: UUID, entry_id: UUID, change: Change[FaqEntry], etag: str | None = None
    ) -> FaqEntry:
        return await changed(
            lambda: self._faq.get(tenant_id, entry_id, fresh=True), self._faq.update, change, etag
        )

    async def delete(self, tenant_id: UUID, entry_id: UUID) -> bool:
        return await self._faq.delete(tenant_id, entry_id)

    async def list(self, tenant_id: UUID, size: int, token: str | None) -> Page[FaqEntry]:
        await self._tenants.get(tenant_id)
        entries = await self._faq.list(tenant_id)
        return page(entries, size, token, scope_of("faq", tenant_id))
