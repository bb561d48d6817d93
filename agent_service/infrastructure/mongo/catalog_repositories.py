"""Beanie repositories of the catalog: tenants, services, professionals and FAQ entries."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from beanie.odm.enums import SortDirection
from beanie.odm.utils.dump import get_dict
from pymongo.errors import DuplicateKeyError

from agent_service.application.faq_ranking import rank, terms
from agent_service.domain.catalog import FaqEntry, Professional, Service, Tenant
from agent_service.domain.errors import ConflictError, NotFoundError
from agent_service.infrastructure.mongo.catalog_documents import (
    FaqDocument,
    ProfessionalDocument,
    ServiceDocument,
    TenantDocument,
)
from agent_service.infrastructure.mongo.errors import guarded
from agent_service.infrastructure.mongo.paging import (
    Cursor,
    check_page_size,
    decode_token,
    encode_token,
)
from agent_service.infrastructure.mongo.scoped_store import (
    ScopedStore,
    next_revision,
    revision_filter,
)

ASC = SortDirection.ASCENDING
_BY_NAME = [("name", ASC), ("_id", ASC)]


class BeanieTenantRepository:
    """Tenants by id; listed by creation time with keyset page tokens."""

    @guarded
    async def add(self, tenant: Tenant) -> Tenant:
        document = TenantDocument.from_domain(tenant)
        try:
            await document.insert()
        except DuplicateKeyError:
            return await self.get(tenant.id)
        return document.to_domain()

    @guarded
    async def get(self, tenant_id: UUID, *, fresh: bool = False) -> Tenant:
        document = await TenantDocument.get(tenant_id)
        if document is None:
            raise NotFoundError("tenant", tenant_id)
        return document.to_domain()

    @guarded
    async def update(self, tenant: Tenant) -> Tenant:
        """Conditional on ``tenant.revision``; the creation time never changes."""
        stored = await TenantDocument.get(tenant.id)
        if stored is None:
            raise NotFoundError("tenant", tenant.id)
        document = TenantDocument.from_domain(
            tenant.model_copy(update={"revision": tenant.revision + 1})
        )
        document.created_at = stored.created_at
        collection = TenantDocument.get_pymongo_collection()
        body = get_dict(document, to_db=True)
        written = await collection.replace_one(
            {"_id": tenant.id} | revision_filter(tenant.revision), body
        )
        if written.matched_count == 0:
            raise ConflictError(f"tenant {tenant.id} changed concurrently")
        return document.to_domain()

    @guarded
    async def list(
        self, *, page_size: int, page_token: str | None
    ) -> tuple[list[Tenant], str | None]:
        check_page_size(page_size)
        query: dict[str, Any] = {}
        if page_token:
            cursor = decode_token(page_token, keyed=True)
            query = {
                "$or": [
                    {"created_at": {"$gt": cursor.key}},
                    {"created_at": cursor.key, "_id": {"$gt": cursor.id}},
                ]
            }
        documents = (
            await TenantDocument.find(query)
            .sort([("created_at", ASC), ("_id", ASC)])
            .limit(page_size + 1)
            .to_list()
        )
        tenants = [document.to_domain() for document in documents[:page_size]]
        if len(documents) <= page_size:
            return tenants, None
        return tenants, encode_token(Cursor(tenants[-1].created_at, tenants[-1].id))


class BeanieServiceRepository:
    """A tenant's services, listed by name."""

    def __init__(self) -> None:
        self._store: ScopedStore[ServiceDocument, Service] = ScopedStore(ServiceDocument, "service")

    @guarded
    async def add(self, service: Service) -> Service:
        return await self._store.insert(ServiceDocument.from_domain(service))

    @guarded
    async def get(self, tenant_id: UUID, service_id: UUID, *, fresh: bool = False) -> Service:
        return await self._store.get(tenant_id, service_id)

    @guarded
    async def update(self, service: Service) -> Service:
        written = ServiceDocument.from_domain(next_revision(service))
        return await self._store.replace(written, expected_revision=service.revision)

    @guarded
    async def delete(self, tenant_id: UUID, service_id: UUID) -> bool:
        return await self._store.delete(tenant_id, service_id)

    @guarded
    async def list(self, tenant_id: UUID) -> list[Service]:
        return await self._store.list({"tenant_id": tenant_id}, _BY_NAME)


class BeanieProfessionalRepository:
    """A tenant's professionals, listed by name, optionally only those offering a service."""

    def __init__(self) -> None:
        self._store: ScopedStore[ProfessionalDocument, Professional] = ScopedStore(
            ProfessionalDocument, "professional"
        )

    @guarded
    async def add(self, professional: Professional) -> Professional:
        return await self._store.insert(ProfessionalDocument.from_domain(professional))

    @guarded
    async def get(
        self, tenant_id: UUID, professional_id: UUID, *, fresh: bool = False
    ) -> Professional:
        return await self._store.get(tenant_id, professional_id)

    @guarded
    async def update(self, professional: Professional) -> Professional:
        written = ProfessionalDocument.from_domain(next_revision(professional))
        return await self._store.replace(written, expected_revision=professional.revision)

    @guarded
    async def delete(self, tenant_id: UUID, professional_id: UUID) -> bool:
        return await self._store.delete(tenant_id, professional_id)

    @guarded
    async def list(self, tenant_id: UUID, *, service_id: UUID | None = None) -> list[Professional]:
        query: dict[str, Any] = {"tenant_id": tenant_id}
        if service_id is not None:
            query["service_ids"] = service_id
        return await self._store.list(query, _BY_NAME)


class BeanieFaqRepository:
    """A tenant's FAQ; ``search`` ranks by shared words (see ``faq_ranking``)."""

    def __init__(self) -> None:
        self._store: ScopedStore[FaqDocument, FaqEntry] = ScopedStore(FaqDocument, "faq entry")

    @guarded
    async def add(self, entry: FaqEntry) -> FaqEntry:
        return await self._store.insert(FaqDocument.from_domain(entry))

    @guarded
    async def get(self, tenant_id: UUID, entry_id: UUID, *, fresh: bool = False) -> FaqEntry:
        return await self._store.get(tenant_id, entry_id)

    @guarded
    async def update(self, entry: FaqEntry) -> FaqEntry:
        written = FaqDocument.from_domain(next_revision(entry))
        return await self._store.replace(written, expected_revision=entry.revision)

    @guarded
    async def delete(self, tenant_id: UUID, entry_id: UUID) -> bool:
        return await self._store.delete(tenant_id, entry_id)

    @guarded
    async def search(self, tenant_id: UUID, query: str, limit: int = 3) -> list[FaqEntry]:
        """``rank`` (BM25 with stemming) over the tenant's entries: stems can match words no
        stored term has, so every entry is a candidate (an FAQ is tens of entries)."""
        if not terms(query):
            return []
        candidates = await self._store.list({"tenant_id": tenant_id}, [("_id", ASC)])
        return rank(query, candidates, limit)

    @guarded
    async def list(self, tenant_id: UUID) -> list[FaqEntry]:
        return await self._store.list({"tenant_id": tenant_id}, [("question", ASC), ("_id", ASC)])
