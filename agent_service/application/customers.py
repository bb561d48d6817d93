"""Back-office use cases of customers and of the appointments list."""

from __future__ import annotations

from uuid import UUID

from agent_service.application.paging import bind, scope_of, unbind
from agent_service.application.ports import (
    AppointmentFilter,
    AppointmentRepository,
    CustomerRepository,
    TenantRepository,
)
from agent_service.domain.appointments import Appointment
from agent_service.domain.catalog import Customer

PROFILE_FIELDS = ("name", "phone", "email", "preferences")
"""What a merge may change: the profile, never the identity."""


def merge_profile(stored: Customer, incoming: Customer) -> Customer:
    """The stored customer (same id) with every non-empty profile field of ``incoming``: a
    channel that only knows the identity never erases a name or phone learned before."""
    changes = {name: getattr(incoming, name) for name in PROFILE_FIELDS if getattr(incoming, name)}
    return stored.model_copy(update=changes)


class CustomerDirectory:
    """Customers known by (tenant, channel, external id)."""

    def __init__(self, tenants: TenantRepository, customers: CustomerRepository) -> None:
        self._tenants = tenants
        self._customers = customers

    async def upsert(self, customer: Customer) -> tuple[Customer, bool]:
        """Create the customer, or merge into the one with that identity; True when new."""
        await self._tenants.get(customer.tenant_id)
        return await self._customers.upsert(customer)

    async def get(self, tenant_id: UUID, customer_id: UUID) -> Customer:
        return await self._customers.get(tenant_id, customer_id)

    async def list(
        self, tenant_id: UUID, page_size: int, page_token: str | None
    ) -> tuple[list[Customer], str | None]:
        await self._tenants.get(tenant_id)
        scope = scope_of("customers", tenant_id)
        inner = unbind(page_token, scope)
        customers, token = await self._customers.list(
            tenant_id, page_size=page_size, page_token=inner
        )
        return customers, bind(token, scope)


class ListAppointments:
    """A tenant's appointments by start time, filtered and paged."""

    def __init__(self, tenants: TenantRepository, appointments: AppointmentRepository) -> None:
        self._tenants = tenants
        self._appointments = appointments

    async def execute(
        self,
        tenant_id: UUID,
        selection: AppointmentFilter,
        page_size: int,
        page_token: str | None,
    ) -> tuple[list[Appointment], str | None]:
        await self._tenants.get(tenant_id)
        scope = scope_of("appointments", tenant_id, selection)
        inner = unbind(page_token, scope)
        found, token = await self._appointments.list(
            tenant_id, selection, page_size=page_size, page_token=inner
        )
        return found, bind(token, scope)
