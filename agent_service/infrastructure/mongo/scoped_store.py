"""The CRUD every tenant-scoped document shares: tenant filter, idempotent insert, replace."""

from __future__ import annotations

from typing import Any, Generic, TypeVar
from uuid import UUID

from beanie.odm.enums import SortDirection
from beanie.odm.utils.dump import get_dict
from pydantic import BaseModel
from pymongo.errors import DuplicateKeyError

from agent_service.domain.errors import ConflictError, NotFoundError
from agent_service.infrastructure.mongo.base import ScopedDocument

E = TypeVar("E")
D = TypeVar("D", bound=ScopedDocument)


class ScopedStore(Generic[D, E]):
    """Rules: every filter carries ``tenant_id``, so another tenant's id is ``NotFoundError``;
    inserting an id that exists returns the stored entity (idempotent ``add``)."""

    def __init__(self, document: type[D], kind: str) -> None:
        self.document = document
        self.kind = kind

    @staticmethod
    def mine(tenant_id: UUID, entity_id: UUID) -> dict[str, Any]:
        return {"_id": entity_id, "tenant_id": tenant_id}

    async def insert(self, document: D) -> E:
        """Insert, or return what is stored under that id (another tenant's id: conflict)."""
        try:
            await document.insert()
        except DuplicateKeyError:
            stored = await self.find(document.tenant_id, document.id)
            if stored is None:
                raise conflict_on_foreign_id(self.kind, document.id) from None
            document = stored
        entity: E = document.to_domain()
        return entity

    async def find(self, tenant_id: UUID, entity_id: UUID) -> D | None:
        return await self.document.find_one(self.mine(tenant_id, entity_id))

    async def get(self, tenant_id: UUID, entity_id: UUID) -> E:
        document = await self.find(tenant_id, entity_id)
        if document is None:
            raise NotFoundError(self.kind, entity_id)
        entity: E = document.to_domain()
        return entity

    async def replace(self, document: D, *, expected_revision: int | None = None) -> E:
        """Replace a stored entity of the same tenant (at ``expected_revision``, when given);
        ``NotFoundError`` if there is none, ``ConflictError`` if it is at another revision."""
        body = get_dict(document, to_db=True)
        collection = self.document.get_pymongo_collection()
        mine = self.mine(document.tenant_id, document.id)
        condition = {} if expected_revision is None else revision_filter(expected_revision)
        result = await collection.replace_one(mine | condition, body)
        if result.matched_count == 0:
            if condition and await collection.find_one(mine, {"_id": 1}) is not None:
                raise ConflictError(f"{self.kind} {document.id} changed concurrently")
            raise NotFoundError(self.kind, document.id)
        entity: E = document.to_domain()
        return entity

    async def delete(self, tenant_id: UUID, entity_id: UUID) -> bool:
        collection = self.document.get_pymongo_collection()
        result = await collection.delete_one(self.mine(tenant_id, entity_id))
        return result.deleted_count == 1

    async def list(self, query: dict[str, Any], order: list[tuple[str, SortDirection]]) -> list[E]:
        documents = await self.document.find(query).sort(order).to_list()
        return [document.to_domain() for document in documents]


R = TypeVar("R", bound=BaseModel)


def next_revision(entity: R) -> R:
    """``entity`` as its update stores it: one revision on."""
    return entity.model_copy(update={"revision": getattr(entity, "revision") + 1})  # noqa: B009


def revision_filter(revision: int) -> dict[str, Any]:
    """Documents at ``revision`` (those written before revisions count as 0)."""
    if revision == 0:
        return {"$or": [{"revision": 0}, {"revision": {"$exists": False}}]}
    return {"revision": revision}


def conflict_on_foreign_id(kind: str, entity_id: UUID) -> ConflictError:
    """An id taken by another tenant: never reveal it, never overwrite it."""
    return ConflictError(f"{kind} id {entity_id} cannot be used")
