"""Hand-written in-memory repositories of the agent service, with the Beanie ones' rules.

The same contract tests run on both (``tests/agent_service/integration/test_repositories.py``):
tenant scoping, idempotent ``add``, unique slot holds, optimistic conversation versions,
one claim per channel message, keyset page tokens. Stored instants are kept as MongoDB keeps
them (UTC, whole milliseconds), so both return equal entities.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, TypeVar
from uuid import UUID

from pydantic import BaseModel

from agent_service.application.customers import merge_profile
from agent_service.application.faq_ranking import rank
from agent_service.application.ports import AppointmentFilter
from agent_service.application.repositories import Repositories
from agent_service.domain.appointments import Appointment, AppointmentStatus, hold_units
from agent_service.domain.catalog import Customer, FaqEntry, Professional, Service, Tenant
from agent_service.domain.conversations import Conversation, ConversationStatus, TurnResult
from agent_service.domain.errors import (
    ConflictError,
    NotFoundError,
    SlotUnavailableError,
)
from agent_service.infrastructure.mongo.appointment_repository import PREVIOUS_STATUSES
from agent_service.infrastructure.mongo.paging import (
    Cursor,
    check_page_size,
    decode_token,
    encode_token,
)

M = TypeVar("M", bound=BaseModel)


def _stored_value(value: Any) -> Any:
    if isinstance(value, datetime):
        utc = value.astimezone(UTC)
        return utc.replace(microsecond=utc.microsecond // 1000 * 1000)
    if isinstance(value, dict):
        return {key: _stored_value(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_stored_value(item) for item in value]
    return value


def as_stored(entity: M) -> M:
    """``entity`` as a database round trip returns it (UTC, millisecond instants)."""
    return type(entity).model_validate(_stored_value(entity.model_dump()))


def _page(items: list[M], page_size: int, key: str | None) -> tuple[list[M], str | None]:
    page = items[:page_size]
    if len(items) <= page_size:
        return page, None
    last = page[-1]
    return page, encode_token(Cursor(None if key is None else getattr(last, key), last.id))  # type: ignore[attr-defined]


def _after(items: list[M], token: str | None, key: str | None) -> list[M]:
    if not token:
        return items
    cursor = decode_token(token, keyed=key is not None)

    def later(item: M) -> bool:
        if key is None or cursor.key is None:
            return bool(item.id > cursor.id)  # type: ignore[attr-defined]
        value = getattr(item, key)
        return bool(value > cursor.key or (value == cursor.key and item.id > cursor.id))  # type: ignore[attr-defined]

    return [item for item in items if later(item)]


class _Scoped:
    """Entities by id, each visible only to its tenant."""

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self.items: dict[UUID, Any] = {}

    def add(self, entity: Any) -> Any:
        stored = self.items.get(entity.id)
        if stored is not None:
            if stored.tenant_id != entity.tenant_id:
                raise ConflictError(f"{self.kind} id {entity.id} cannot be used")
            return stored
        self.items[entity.id] = as_stored(entity)
        return self.items[entity.id]

    def get(self, tenant_id: UUID, entity_id: UUID) -> Any:
        stored = self.items.get(entity_id)
        if stored is None or stored.tenant_id != tenant_id:
            raise NotFoundError(self.kind, entity_id)
        return stored

    def update(self, entity: Any) -> Any:
        self.get(entity.tenant_id, entity.id)
        self.items[entity.id] = as_stored(entity)
        return self.items[entity.id]

    def delete(self, tenant_id: UUID, entity_id: UUID) -> bool:
        stored = self.items.get(entity_id)
        if stored is None or stored.tenant_id != tenant_id:
            return False
        del self.items[entity_id]
        return True

    def of(self, tenant_id: UUID) -> list[Any]:
        return [item for item in self.items.values() if item.tenant_id == tenant_id]


class InMemoryTenantRepository:
    def __init__(self) -> None:
        self.items: dict[UUID, Tenant] = {}

    async def add(self, tenant: Tenant) -> Tenant:
        return self.items.setdefault(tenant.id, as_stored(tenant))

    async def get(self, tenant_id: UUID) -> Tenant:
        if tenant_id not in self.items:
            raise NotFoundError("tenant", tenant_id)
        return self.items[tenant_id]

    async def update(self, tenant: Tenant) -> Tenant:
        stored = await self.get(tenant.id)
        self.items[tenant.id] = as_stored(
            tenant.model_copy(update={"created_at": stored.created_at})
        )
        return self.items[tenant.id]

    async def list(
        self, *, page_size: int, page_token: str | None
    ) -> tuple[list[Tenant], str | None]:
        check_page_size(page_size)
        ordered = sorted(self.items.values(), key=lambda t: (t.created_at, t.id))
        return _page(_after(ordered, page_token, "created_at"), page_size, "created_at")


class InMemoryServiceRepository:
    def __init__(self) -> None:
        self.store = _Scoped("service")

    async def add(self, service: Service) -> Service:
        result: Service = self.store.add(service)
        return result

    async def get(self, tenant_id: UUID, service_id: UUID) -> Service:
        result: Service = self.store.get(tenant_id, service_id)
        return result

    async def update(self, service: Service) -> Service:
        result: Service = self.store.update(service)
        return result

    async def delete(self, tenant_id: UUID, service_id: UUID) -> bool:
        return self.store.delete(tenant_id, service_id)

    async def list(self, tenant_id: UUID) -> list[Service]:
        return sorted(self.store.of(tenant_id), key=lambda s: (s.name, s.id))


class InMemoryProfessionalRepository:
    def __init__(self) -> None:
        self.store = _Scoped("professional")

    async def add(self, professional: Professional) -> Professional:
        result: Professional = self.store.add(professional)
        return result

    async def get(self, tenant_id: UUID, professional_id: UUID) -> Professional:
        result: Professional = self.store.get(tenant_id, professional_id)
        return result

    async def update(self, professional: Professional) -> Professional:
        result: Professional = self.store.update(professional)
        return result

    async def delete(self, tenant_id: UUID, professional_id: UUID) -> bool:
        return self.store.delete(tenant_id, professional_id)

    async def list(self, tenant_id: UUID, *, service_id: UUID | None = None) -> list[Professional]:
        found = [p for p in self.store.of(tenant_id) if service_id is None or p.offers(service_id)]
        return sorted(found, key=lambda p: (p.name, p.id))


class InMemoryFaqRepository:
    def __init__(self) -> None:
        self.store = _Scoped("faq entry")

    async def add(self, entry: FaqEntry) -> FaqEntry:
        result: FaqEntry = self.store.add(entry)
        return result

    async def get(self, tenant_id: UUID, entry_id: UUID) -> FaqEntry:
        result: FaqEntry = self.store.get(tenant_id, entry_id)
        return result

    async def update(self, entry: FaqEntry) -> FaqEntry:
        result: FaqEntry = self.store.update(entry)
        return result

    async def delete(self, tenant_id: UUID, entry_id: UUID) -> bool:
        return self.store.delete(tenant_id, entry_id)

    async def search(self, tenant_id: UUID, query: str, limit: int = 3) -> list[FaqEntry]:
        return rank(query, self.store.of(tenant_id), limit)

    async def list(self, tenant_id: UUID) -> list[FaqEntry]:
        return sorted(self.store.of(tenant_id), key=lambda e: (e.question, e.id))


class InMemoryCustomerRepository:
    def __init__(self) -> None:
        self.store = _Scoped("customer")

    async def upsert(self, customer: Customer) -> tuple[Customer, bool]:
        for stored in self.store.of(customer.tenant_id):
            if (stored.channel, stored.external_id) == (customer.channel, customer.external_id):
                return self.store.update(merge_profile(stored, customer)), False
        if customer.id in self.store.items:
            raise ConflictError(f"customer id {customer.id} cannot be used")
        return self.store.add(customer), True

    async def get(self, tenant_id: UUID, customer_id: UUID) -> Customer:
        result: Customer = self.store.get(tenant_id, customer_id)
        return result

    async def update(self, customer: Customer) -> Customer:
        result: Customer = self.store.update(customer)
        return result

    async def list(
        self, tenant_id: UUID, *, page_size: int, page_token: str | None
    ) -> tuple[list[Customer], str | None]:
        check_page_size(page_size)
        ordered = sorted(self.store.of(tenant_id), key=lambda c: c.id)
        return _page(_after(ordered, page_token, None), page_size, None)


HoldKey = tuple[UUID, UUID, datetime]


class InMemoryAppointmentRepository:
    """Holds are a dict keyed like the unique index; ``reserve`` is atomic (no await inside)."""

    def __init__(self) -> None:
        self.store = _Scoped("appointment")
        self.holds: dict[HoldKey, UUID] = {}

    async def reserve(self, appointment: Appointment) -> None:
        stored = self.store.items.get(appointment.id)
        if stored is not None and stored.tenant_id == appointment.tenant_id and stored.is_active:
            return
        keys = [
            (appointment.tenant_id, appointment.professional_id, unit)
            for unit in hold_units(appointment.start, appointment.end)
        ]
        if stored is not None or any(key in self.holds for key in keys):
            if stored is None:
                failed = appointment.model_copy(update={"status": AppointmentStatus.FAILED})
                self.store.items[appointment.id] = as_stored(failed)
            raise SlotUnavailableError(f"{appointment.start.isoformat()} is no longer free")
        self.store.items[appointment.id] = as_stored(appointment)
        self.holds.update(dict.fromkeys(keys, appointment.id))

    async def save(self, appointment: Appointment) -> Appointment:
        stored: Appointment = self.store.get(appointment.tenant_id, appointment.id)
        if stored.status not in PREVIOUS_STATUSES[appointment.status]:
            raise ConflictError(f"appointment {appointment.id} changed concurrently; reload it")
        self.store.items[appointment.id] = as_stored(appointment)
        if not appointment.is_active:
            self.holds = {k: v for k, v in self.holds.items() if v != appointment.id}
        result: Appointment = self.store.items[appointment.id]
        return result

    async def get(self, tenant_id: UUID, appointment_id: UUID) -> Appointment:
        result: Appointment = self.store.get(tenant_id, appointment_id)
        return result

    async def stale_pending(self, older_than: datetime, limit: int) -> list[Appointment]:
        stale = [
            a
            for a in self.store.items.values()
            if a.status is AppointmentStatus.PENDING and a.updated_at < older_than
        ]
        return sorted(stale, key=lambda a: a.updated_at)[:limit]

    async def list(
        self,
        tenant_id: UUID,
        selection: AppointmentFilter,
        *,
        page_size: int,
        page_token: str | None,
    ) -> tuple[list[Appointment], str | None]:
        check_page_size(page_size)
        found = [a for a in self.store.of(tenant_id) if _selected(a, selection)]
        ordered = sorted(found, key=lambda a: (a.start, a.id))
        return _page(_after(ordered, page_token, "start"), page_size, "start")


def _selected(appointment: Appointment, selection: AppointmentFilter) -> bool:
    checks = (
        selection.professional_id in (None, appointment.professional_id),
        selection.customer_id in (None, appointment.customer_id),
        not selection.statuses or appointment.status in selection.statuses,
        selection.start_after is None or appointment.start >= selection.start_after,
        selection.start_before is None or appointment.start < selection.start_before,
    )
    return all(checks)


class InMemoryConversationRepository:
    def __init__(self) -> None:
        self.store = _Scoped("conversation")

    async def add(self, conversation: Conversation) -> Conversation:
        result: Conversation = self.store.add(conversation)
        return result

    async def get(self, tenant_id: UUID, conversation_id: UUID) -> Conversation:
        result: Conversation = self.store.get(tenant_id, conversation_id)
        return result

    async def find_open(
        self, tenant_id: UUID, customer_id: UUID, channel: str
    ) -> Conversation | None:
        candidates = [
            c
            for c in self.store.of(tenant_id)
            if (c.customer_id, c.channel) == (customer_id, channel)
            and c.status is not ConversationStatus.ENDED
        ]
        return max(candidates, key=lambda c: (c.updated_at, c.id), default=None)

    async def save(self, conversation: Conversation) -> Conversation:
        stored: Conversation = self.store.get(conversation.tenant_id, conversation.id)
        if stored.version != conversation.version:
            raise ConflictError(f"conversation {conversation.id} was updated concurrently")
        saved = conversation.model_copy(update={"version": conversation.version + 1})
        result: Conversation = self.store.update(saved)
        return result


class InMemoryTurnRepository:
    def __init__(self) -> None:
        self.turns: dict[tuple[UUID, str, str], TurnResult | None] = {}

    async def claim(self, tenant_id: UUID, channel: str, message_id: str) -> bool:
        key = (tenant_id, channel, message_id)
        if key in self.turns:
            return False
        self.turns[key] = None
        return True

    async def complete(
        self, tenant_id: UUID, channel: str, message_id: str, result: TurnResult
    ) -> None:
        self.turns[(tenant_id, channel, message_id)] = as_stored(result)

    async def result(self, tenant_id: UUID, channel: str, message_id: str) -> TurnResult | None:
        return self.turns.get((tenant_id, channel, message_id))

    async def release(self, tenant_id: UUID, channel: str, message_id: str) -> None:
        """A completed turn is kept, as in MongoDB."""
        key = (tenant_id, channel, message_id)
        if key in self.turns and self.turns[key] is None:
            del self.turns[key]


def in_memory_repositories() -> Repositories:
    """Fresh, empty in-memory repositories."""
    return Repositories(
        tenants=InMemoryTenantRepository(),
        services=InMemoryServiceRepository(),
        professionals=InMemoryProfessionalRepository(),
        faq=InMemoryFaqRepository(),
        customers=InMemoryCustomerRepository(),
        appointments=InMemoryAppointmentRepository(),
        conversations=InMemoryConversationRepository(),
        turns=InMemoryTurnRepository(),
    )
