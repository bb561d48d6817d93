"""``AgentClient``'s CatalogService methods (tenants, services, professionals, FAQ, customers,
appointments); list RPCs also come as ``iter_*`` async iterators that follow page tokens."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Sequence

from agenda.agent.v1 import catalog_service_pb2 as catalog_pb
from agenda.agent.v1 import types_pb2 as types_pb
from agenda_kit.agent_calls import AgentCalls, pages


class CatalogMethods(AgentCalls):
    """CatalogService, one method an RPC."""

    async def create_tenant(
        self, tenant: catalog_pb.Tenant, *, idempotency_key: str, timeout_s: float | None = None
    ) -> catalog_pb.Tenant:
        request = catalog_pb.CreateTenantRequest(tenant=tenant, idempotency_key=idempotency_key)
        return (await self._unary(self._catalog.CreateTenant, request, timeout_s)).tenant

    async def get_tenant(
        self, tenant_id: str, *, timeout_s: float | None = None
    ) -> catalog_pb.Tenant:
        request = catalog_pb.GetTenantRequest(tenant_id=tenant_id)
        return (await self._unary(self._catalog.GetTenant, request, timeout_s)).tenant

    async def list_tenants(
        self, *, page_size: int = 0, page_token: str = "", timeout_s: float | None = None
    ) -> catalog_pb.ListTenantsResponse:
        request = catalog_pb.ListTenantsRequest(page_size=page_size, page_token=page_token)
        return await self._unary(self._catalog.ListTenants, request, timeout_s)

    def iter_tenants(self, *, page_size: int = 0) -> AsyncIterator[catalog_pb.Tenant]:
        """Every tenant, following page tokens."""
        return pages(
            lambda token: self.list_tenants(page_size=page_size, page_token=token),
            lambda page: (page.tenants, page.next_page_token),
        )

    async def create_service(
        self, service: catalog_pb.Service, *, idempotency_key: str, timeout_s: float | None = None
    ) -> catalog_pb.Service:
        request = catalog_pb.CreateServiceRequest(service=service, idempotency_key=idempotency_key)
        return (await self._unary(self._catalog.CreateService, request, timeout_s)).service

    async def list_services(
        self, tenant_id: str, *, timeout_s: float | None = None
    ) -> list[catalog_pb.Service]:
        request = catalog_pb.ListServicesRequest(tenant_id=tenant_id)
        response = await self._unary(self._catalog.ListServices, request, timeout_s)
        return list(response.services)

    async def create_professional(
        self,
        professional: catalog_pb.Professional,
        *,
        idempotency_key: str,
        timeout_s: float | None = None,
    ) -> catalog_pb.Professional:
        request = catalog_pb.CreateProfessionalRequest(
            professional=professional, idempotency_key=idempotency_key
        )
        response = await self._unary(self._catalog.CreateProfessional, request, timeout_s)
        return response.professional

    async def list_professionals(
        self, tenant_id: str, *, service_id: str = "", timeout_s: float | None = None
    ) -> list[catalog_pb.Professional]:
        request = catalog_pb.ListProfessionalsRequest(tenant_id=tenant_id, service_id=service_id)
        response = await self._unary(self._catalog.ListProfessionals, request, timeout_s)
        return list(response.professionals)

    async def create_faq_entry(
        self, entry: catalog_pb.FaqEntry, *, idempotency_key: str, timeout_s: float | None = None
    ) -> catalog_pb.FaqEntry:
        request = catalog_pb.CreateFaqEntryRequest(entry=entry, idempotency_key=idempotency_key)
        return (await self._unary(self._catalog.CreateFaqEntry, request, timeout_s)).entry

    async def list_faq_entries(
        self, tenant_id: str, *, timeout_s: float | None = None
    ) -> list[catalog_pb.FaqEntry]:
        request = catalog_pb.ListFaqEntriesRequest(tenant_id=tenant_id)
        response = await self._unary(self._catalog.ListFaqEntries, request, timeout_s)
        return list(response.entries)

    async def upsert_customer(
        self, customer: catalog_pb.Customer, *, timeout_s: float | None = None
    ) -> tuple[catalog_pb.Customer, bool]:
        """The stored customer and whether it was new."""
        request = catalog_pb.UpsertCustomerRequest(customer=customer)
        response = await self._unary(self._catalog.UpsertCustomer, request, timeout_s)
        return response.customer, response.created

    async def get_customer(
        self, tenant_id: str, customer_id: str, *, timeout_s: float | None = None
    ) -> catalog_pb.Customer:
        request = catalog_pb.GetCustomerRequest(tenant_id=tenant_id, customer_id=customer_id)
        return (await self._unary(self._catalog.GetCustomer, request, timeout_s)).customer

    async def list_appointments(
        self,
        request: catalog_pb.ListAppointmentsRequest,
        *,
        timeout_s: float | None = None,
    ) -> catalog_pb.ListAppointmentsResponse:
        """One page of a tenant's appointments (filters as in the request)."""
        return await self._unary(self._catalog.ListAppointments, request, timeout_s)

    def iter_appointments(
        self,
        tenant_id: str,
        *,
        customer_id: str = "",
        professional_id: str = "",
        statuses: Sequence[types_pb.AppointmentStatus.ValueType] = (),
        page_size: int = 0,
    ) -> AsyncIterator[types_pb.Appointment]:
        """Every matching appointment, by start time, following page tokens."""

        def page(token: str) -> Awaitable[catalog_pb.ListAppointmentsResponse]:
            return self.list_appointments(
                catalog_pb.ListAppointmentsRequest(
                    tenant_id=tenant_id,
                    customer_id=customer_id,
                    professional_id=professional_id,
                    statuses=list(statuses),
                    page_size=page_size,
                    page_token=token,
                )
            )

        return pages(page, lambda response: (response.appointments, response.next_page_token))

    async def cancel_appointment(
        self,
        tenant_id: str,
        appointment_id: str,
        reason: str = "",
        *,
        timeout_s: float | None = None,
    ) -> tuple[types_pb.Appointment, bool]:
        """The appointment and whether this call cancelled it (False: it already was)."""
        request = catalog_pb.CancelAppointmentRequest(
            tenant_id=tenant_id, appointment_id=appointment_id, reason=reason
        )
        response = await self._unary(self._catalog.CancelAppointment, request, timeout_s)
        return response.appointment, response.cancelled
