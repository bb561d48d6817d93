"""``BeanieCustomerRepository``: customers known by (tenant, channel, external id)."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from beanie.odm.enums import SortDirection
from beanie.odm.utils.dump import get_dict
from pymongo import ReturnDocument
from pymongo.errors import DuplicateKeyError

from agent_service.application.customers import PROFILE_FIELDS, merge_profile
from agent_service.domain.catalog import Customer
from agent_service.domain.errors import ConflictError, NotFoundError
from agent_service.infrastructure.mongo.catalog_documents import CustomerDocument
from agent_service.infrastructure.mongo.errors import guarded
from agent_service.infrastructure.mongo.paging import (
    Cursor,
    check_page_size,
    decode_token,
    encode_token,
)
from agent_service.infrastructure.mongo.scoped_store import ScopedStore


class BeanieCustomerRepository:
    """Rules: one customer per (tenant, channel, external id), guaranteed by a unique index,
    so concurrent first messages of a new customer create exactly one; an upsert of a known
    identity keeps its id and merges the profile (``merge_profile``)."""

    def __init__(self) -> None:
        self._store: ScopedStore[CustomerDocument, Customer] = ScopedStore(
            CustomerDocument, "customer"
        )

    @guarded
    async def upsert(
        self, customer: Customer, *, likely_new: bool = False
    ) -> tuple[Customer, bool]:
        """``likely_new``: insert first (one write for a new customer; a known one costs the
        refused insert more)."""
        stored = None if likely_new else await self._by_identity(customer)
        if stored is None:
            document = CustomerDocument.from_domain(customer)
            try:
                await document.insert()
            except DuplicateKeyError:  # it exists, or a concurrent upsert created it first
                stored = await self._by_identity(customer)
                if stored is None:
                    raise ConflictError(f"customer id {customer.id} cannot be used") from None
            else:
                return document.to_domain(), True
        current = stored.to_domain()
        updated = merge_profile(current, customer)
        if updated == current:  # the usual turn: nothing new about the customer, no write
            return current, False
        # only the fields the merge changed: a concurrent merge of other fields is kept
        changed = {
            name: getattr(updated, name)
            for name in PROFILE_FIELDS
            if getattr(updated, name) != getattr(current, name)
        }
        body = get_dict(CustomerDocument.from_domain(updated), to_db=True)
        written = await CustomerDocument.get_pymongo_collection().find_one_and_update(
            self._store.mine(current.tenant_id, current.id),
            {"$set": {name: body[name] for name in changed}},
            return_document=ReturnDocument.AFTER,
        )
        if written is None:
            raise NotFoundError("customer", current.id)
        return CustomerDocument.model_validate(written).to_domain(), False

    @guarded
    async def get(self, tenant_id: UUID, customer_id: UUID) -> Customer:
        return await self._store.get(tenant_id, customer_id)

    @guarded
    async def update(self, customer: Customer) -> Customer:
        return await self._store.replace(CustomerDocument.from_domain(customer))

    @guarded
    async def list(
        self, tenant_id: UUID, *, page_size: int, page_token: str | None
    ) -> tuple[list[Customer], str | None]:
        check_page_size(page_size)
        query: dict[str, Any] = {"tenant_id": tenant_id}
        if page_token:
            query["_id"] = {"$gt": decode_token(page_token, keyed=False).id}
        documents = (
            await CustomerDocument.find(query)
            .sort([("_id", SortDirection.ASCENDING)])
            .limit(page_size + 1)
            .to_list()
        )
        customers = [document.to_domain() for document in documents[:page_size]]
        if len(documents) <= page_size:
            return customers, None
        return customers, encode_token(Cursor(None, customers[-1].id))

    async def _by_identity(self, customer: Customer) -> CustomerDocument | None:
        return await CustomerDocument.find_one(
            {
                "tenant_id": customer.tenant_id,
                "channel": customer.channel,
                "external_id": customer.external_id,
            }
        )
