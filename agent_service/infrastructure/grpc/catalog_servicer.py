"""``agenda.agent.v1.CatalogService``: proto → use case → proto, nothing more."""

from __future__ import annotations

from dataclasses import dataclass
from uuid import UUID

from agenda.agent.v1 import catalog_service_pb2 as pb
from agenda.agent.v1 import catalog_service_pb2_grpc as pb_grpc
from agenda_kit.auth.context import current_principal
from agenda_kit.grpc.handlers import Context
from agent_service.application.catalog import (
    FaqCatalog,
    ProfessionalCatalog,
    ServiceCatalog,
    TenantCatalog,
)
from agent_service.application.customers import CustomerDirectory, ListAppointments
from agent_service.application.ports import AppointmentCanceller
from agent_service.infrastructure.grpc import catalog_mappers as m
from agent_service.infrastructure.grpc.catalog_fields import optional_uuid, page_size, parse_uuid
from agent_service.infrastructure.grpc.catalog_updates import mask_change

SERVICE_NAME = pb.DESCRIPTOR.services_by_name["CatalogService"].full_name


@dataclass(frozen=True, slots=True)
class CatalogUseCases:
    """Every use case the catalog servicer needs (built by ``bootstrap.catalog_registration``)."""

    tenants: TenantCatalog
    services: ServiceCatalog
    professionals: ProfessionalCatalog
    faq: FaqCatalog
    customers: CustomerDirectory
    appointments: ListAppointments
    canceller: AppointmentCanceller


class CatalogServicer(pb_grpc.CatalogServiceServicer):
    """Thin servicer; errors become status codes through ``AGENT_ERRORS``."""

    def __init__(self, cases: CatalogUseCases) -> None:
        self._cases = cases

    async def CreateTenant(
        self, request: pb.CreateTenantRequest, context: Context
    ) -> pb.CreateTenantResponse:
        tenant = m.to_tenant(request.tenant, with_id=False)
        requester = current_principal().name
        stored = await self._cases.tenants.create(tenant, request.idempotency_key, requester)
        return pb.CreateTenantResponse(tenant=m.tenant_message(stored))

    async def GetTenant(
        self, request: pb.GetTenantRequest, context: Context
    ) -> pb.GetTenantResponse:
        tenant = await self._cases.tenants.get(parse_uuid("tenant_id", request.tenant_id))
        return pb.GetTenantResponse(tenant=m.tenant_message(tenant))

    async def UpdateTenant(
        self, request: pb.UpdateTenantRequest, context: Context
    ) -> pb.UpdateTenantResponse:
        patch = request.tenant
        change = mask_change(
            patch,
            request.update_mask,
            owner="tenant",
            to_message=m.tenant_message,
            to_entity=lambda merged: m.to_tenant(merged, with_id=True),
        )
        tenant_id = parse_uuid("tenant.id", patch.id)
        tenant = await self._cases.tenants.update(tenant_id, change, patch.etag or None)
        return pb.UpdateTenantResponse(tenant=m.tenant_message(tenant))

    async def ListTenants(
        self, request: pb.ListTenantsRequest, context: Context
    ) -> pb.ListTenantsResponse:
        size = page_size(request.page_size)
        tenants, token = await self._cases.tenants.list(size, request.page_token or None)
        return pb.ListTenantsResponse(
            tenants=[m.tenant_message(t) for t in tenants], next_page_token=token or ""
        )

    async def CreateService(
        self, request: pb.CreateServiceRequest, context: Context
    ) -> pb.CreateServiceResponse:
        service = m.to_service(request.service, with_id=False)
        stored = await self._cases.services.create(service, request.idempotency_key)
        return pb.CreateServiceResponse(service=m.service_message(stored))

    async def UpdateService(
        self, request: pb.UpdateServiceRequest, context: Context
    ) -> pb.UpdateServiceResponse:
        patch = request.service
        change = mask_change(
            patch,
            request.update_mask,
            owner="service",
            to_message=m.service_message,
            to_entity=lambda merged: m.to_service(merged, with_id=True),
        )
        service = await self._cases.services.update(
            *_owned("service", patch.tenant_id, patch.id), change, patch.etag or None
        )
        return pb.UpdateServiceResponse(service=m.service_message(service))

    async def DeleteService(
        self, request: pb.DeleteServiceRequest, context: Context
    ) -> pb.DeleteServiceResponse:
        deleted = await self._cases.services.delete(
            parse_uuid("tenant_id", request.tenant_id), parse_uuid("service_id", request.service_id)
        )
        return pb.DeleteServiceResponse(deleted=deleted)

    async def ListServices(
        self, request: pb.ListServicesRequest, context: Context
    ) -> pb.ListServicesResponse:
        services, token = await self._cases.services.list(
            parse_uuid("tenant_id", request.tenant_id),
            page_size(request.page_size),
            request.page_token or None,
        )
        return pb.ListServicesResponse(
            services=[m.service_message(s) for s in services], next_page_token=token or ""
        )

    async def CreateProfessional(
        self, request: pb.CreateProfessionalRequest, context: Context
    ) -> pb.CreateProfessionalResponse:
        professional = m.to_professional(request.professional, with_id=False)
        stored = await self._cases.professionals.create(professional, request.idempotency_key)
        return pb.CreateProfessionalResponse(professional=m.professional_message(stored))

    async def UpdateProfessional(
        self, request: pb.UpdateProfessionalRequest, context: Context
    ) -> pb.UpdateProfessionalResponse:
        patch = request.professional
        change = mask_change(
            patch,
            request.update_mask,
            owner="professional",
            to_message=m.professional_message,
            to_entity=lambda merged: m.to_professional(merged, with_id=True),
        )
        stored = await self._cases.professionals.update(
            *_owned("professional", patch.tenant_id, patch.id), change, patch.etag or None
        )
        return pb.UpdateProfessionalResponse(professional=m.professional_message(stored))

    async def DeleteProfessional(
        self, request: pb.DeleteProfessionalRequest, context: Context
    ) -> pb.DeleteProfessionalResponse:
        deleted = await self._cases.professionals.delete(
            parse_uuid("tenant_id", request.tenant_id),
            parse_uuid("professional_id", request.professional_id),
        )
        return pb.DeleteProfessionalResponse(deleted=deleted)

    async def ListProfessionals(
        self, request: pb.ListProfessionalsRequest, context: Context
    ) -> pb.ListProfessionalsResponse:
        professionals, token = await self._cases.professionals.list(
            parse_uuid("tenant_id", request.tenant_id),
            optional_uuid("service_id", request.service_id),
            page_size(request.page_size),
            request.page_token or None,
        )
        return pb.ListProfessionalsResponse(
            professionals=[m.professional_message(p) for p in professionals],
            next_page_token=token or "",
        )

    async def CreateFaqEntry(
        self, request: pb.CreateFaqEntryRequest, context: Context
    ) -> pb.CreateFaqEntryResponse:
        entry = m.to_faq_entry(request.entry, with_id=False)
        stored = await self._cases.faq.create(entry, request.idempotency_key)
        return pb.CreateFaqEntryResponse(entry=m.faq_message(stored))

    async def UpdateFaqEntry(
        self, request: pb.UpdateFaqEntryRequest, context: Context
    ) -> pb.UpdateFaqEntryResponse:
        patch = request.entry
        change = mask_change(
            patch,
            request.update_mask,
            owner="entry",
            to_message=m.faq_message,
            to_entity=lambda merged: m.to_faq_entry(merged, with_id=True),
        )
        entry = await self._cases.faq.update(
            *_owned("entry", patch.tenant_id, patch.id), change, patch.etag or None
        )
        return pb.UpdateFaqEntryResponse(entry=m.faq_message(entry))

    async def DeleteFaqEntry(
        self, request: pb.DeleteFaqEntryRequest, context: Context
    ) -> pb.DeleteFaqEntryResponse:
        deleted = await self._cases.faq.delete(
            parse_uuid("tenant_id", request.tenant_id), parse_uuid("entry_id", request.entry_id)
        )
        return pb.DeleteFaqEntryResponse(deleted=deleted)

    async def ListFaqEntries(
        self, request: pb.ListFaqEntriesRequest, context: Context
    ) -> pb.ListFaqEntriesResponse:
        entries, token = await self._cases.faq.list(
            parse_uuid("tenant_id", request.tenant_id),
            page_size(request.page_size),
            request.page_token or None,
        )
        return pb.ListFaqEntriesResponse(
            entries=[m.faq_message(e) for e in entries], next_page_token=token or ""
        )

    async def UpsertCustomer(
        self, request: pb.UpsertCustomerRequest, context: Context
    ) -> pb.UpsertCustomerResponse:
        customer, created = await self._cases.customers.upsert(m.to_customer(request.customer))
        return pb.UpsertCustomerResponse(customer=m.customer_message(customer), created=created)

    async def GetCustomer(
        self, request: pb.GetCustomerRequest, context: Context
    ) -> pb.GetCustomerResponse:
        customer = await self._cases.customers.get(
            parse_uuid("tenant_id", request.tenant_id),
            parse_uuid("customer_id", request.customer_id),
        )
        return pb.GetCustomerResponse(customer=m.customer_message(customer))

    async def ListCustomers(
        self, request: pb.ListCustomersRequest, context: Context
    ) -> pb.ListCustomersResponse:
        customers, token = await self._cases.customers.list(
            parse_uuid("tenant_id", request.tenant_id),
            page_size(request.page_size),
            request.page_token or None,
        )
        return pb.ListCustomersResponse(
            customers=[m.customer_message(c) for c in customers], next_page_token=token or ""
        )

    async def ListAppointments(
        self, request: pb.ListAppointmentsRequest, context: Context
    ) -> pb.ListAppointmentsResponse:
        appointments, token = await self._cases.appointments.execute(
            parse_uuid("tenant_id", request.tenant_id),
            m.to_appointment_filter(request),
            page_size(request.page_size),
            request.page_token or None,
        )
        return pb.ListAppointmentsResponse(
            appointments=[m.appointment_message(a) for a in appointments],
            next_page_token=token or "",
        )

    async def CancelAppointment(
        self, request: pb.CancelAppointmentRequest, context: Context
    ) -> pb.CancelAppointmentResponse:
        """The back office cancels regardless of the customers' cancellation window."""
        appointment, cancelled = await self._cases.canceller.execute(
            parse_uuid("tenant_id", request.tenant_id),
            parse_uuid("appointment_id", request.appointment_id),
            reason=request.reason,
            enforce_window=False,
        )
        return pb.CancelAppointmentResponse(
            appointment=m.appointment_message(appointment), cancelled=cancelled
        )


def _owned(owner: str, tenant_id: str, entity_id: str) -> tuple[UUID, UUID]:
    """The (tenant, id) an update names in its resource."""
    return parse_uuid(f"{owner}.tenant_id", tenant_id), parse_uuid(f"{owner}.id", entity_id)
