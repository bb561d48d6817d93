"""The CatalogService on a real gRPC server (port 0): every RPC, its errors and its auth."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any
from uuid import uuid4

import grpc
import pytest

from agenda.agent.v1 import catalog_service_pb2 as pb
from agenda.agent.v1 import catalog_service_pb2_grpc as pb_grpc
from agenda.agent.v1 import types_pb2 as types
from agenda_kit.mongo import EmbeddedMongo
from agent_service.application.repositories import Repositories
from agent_service.domain.appointments import Appointment, AppointmentStatus
from agent_service.infrastructure.grpc.catalog_fields import timestamp
from tests.agent_service.integration.catalog_server import AUTH, catalog_stub
from tests.agent_service.integration.repository_fixtures import beanie_repositories
from tests.fakes.agent_repositories import in_memory_repositories

pytest_plugins = ["tests.kit.mongo_fixtures"]
if TYPE_CHECKING:
    Stub = pb_grpc.CatalogServiceAsyncStub
DAY = datetime(2031, 3, 10, 12, tzinfo=UTC)


@pytest.fixture
def repos() -> Repositories:
    return in_memory_repositories()


@pytest.fixture
async def stub(repos: Repositories) -> AsyncIterator[Stub]:
    async with catalog_stub(repos) as client:
        yield client


async def expect_code(call: Any, code: grpc.StatusCode) -> str:
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await call
    assert caught.value.code() == code, caught.value.details()
    return caught.value.details() or ""


async def new_tenant(stub: Stub, key: str = "", name: str = "Salão Bela") -> pb.Tenant:
    tenant = pb.Tenant(name=name, time_zone="America/Sao_Paulo", locale="pt-BR")
    reply = await stub.CreateTenant(
        pb.CreateTenantRequest(tenant=tenant, idempotency_key=key), metadata=AUTH
    )
    created: pb.Tenant = reply.tenant
    return created


async def new_service(stub: Stub, tenant_id: str, key: str = "", name: str = "Corte") -> pb.Service:
    service = pb.Service(tenant_id=tenant_id, name=name, duration_minutes=30, price_minor=5000)
    reply = await stub.CreateService(
        pb.CreateServiceRequest(service=service, idempotency_key=key), metadata=AUTH
    )
    created: pb.Service = reply.service
    return created


def professional(tenant_id: str, *service_ids: str, **changes: Any) -> pb.Professional:
    message = pb.Professional(
        tenant_id=tenant_id,
        name="Ana",
        specialty="Cabeleireira",
        calendar_id="ana@example.com",
        weekly_hours=[pb.WorkingHours(day_of_week=1, start_time="09:00", end_time="24:00")],
        exceptions=[
            pb.DateException(
                date="2031-12-24",
                hours=[pb.LocalWindow(start_time="09:00", end_time="12:00")],
                reason="Véspera",
            )
        ],
        service_ids=list(service_ids),
    )
    for key, value in changes.items():
        if isinstance(value, list):
            del getattr(message, key)[:]
            getattr(message, key).extend(value)
        else:
            setattr(message, key, value)
    return message


async def test_tenants_are_created_once_per_key_read_updated_and_listed(stub: Stub) -> None:
    first = await new_tenant(stub, key="signup-1")
    again = await new_tenant(stub, key="signup-1", name="Outro nome")
    assert again.id == first.id and again.name == "Salão Bela"
    assert first.policy.slot_step_minutes == 30 and first.created_at.seconds > 0
    other = await new_tenant(stub)
    assert other.id != first.id
    got = await stub.GetTenant(pb.GetTenantRequest(tenant_id=first.id), metadata=AUTH)
    assert got.tenant == first
    changed = pb.Tenant(
        id=first.id,
        name="Salão Bela Vista",
        time_zone="America/Recife",
        locale="en-US",
        policy=pb.BookingPolicy(minimum_notice_minutes=0, slot_step_minutes=15),
    )
    updated = await stub.UpdateTenant(pb.UpdateTenantRequest(tenant=changed), metadata=AUTH)
    assert updated.tenant.time_zone == "America/Recife"
    assert updated.tenant.policy.slot_step_minutes == 15
    assert updated.tenant.policy.booking_horizon_days == 60
    assert updated.tenant.created_at == first.created_at
    page = await stub.ListTenants(pb.ListTenantsRequest(page_size=1), metadata=AUTH)
    rest = await stub.ListTenants(
        pb.ListTenantsRequest(page_size=1, page_token=page.next_page_token), metadata=AUTH
    )
    assert {t.id for t in (*page.tenants, *rest.tenants)} == {first.id, other.id}
    assert rest.next_page_token == ""


async def test_services_and_professionals(stub: Stub) -> None:
    tenant = await new_tenant(stub)
    corte = await new_service(stub, tenant.id, key="corte")
    assert (await new_service(stub, tenant.id, key="corte", name="X")).id == corte.id
    barba = await new_service(stub, tenant.id, name="Barba")
    changed = pb.Service(
        id=corte.id, tenant_id=tenant.id, name="Corte feminino", duration_minutes=45, currency="BRL"
    )
    updated = await stub.UpdateService(pb.UpdateServiceRequest(service=changed), metadata=AUTH)
    assert updated.service.duration_minutes == 45
    listed = await stub.ListServices(pb.ListServicesRequest(tenant_id=tenant.id), metadata=AUTH)
    assert [s.name for s in listed.services] == ["Barba", "Corte feminino"]

    created = await stub.CreateProfessional(
        pb.CreateProfessionalRequest(
            professional=professional(tenant.id, corte.id, barba.id), idempotency_key="ana"
        ),
        metadata=AUTH,
    )
    ana = created.professional
    assert ana.weekly_hours[0].end_time == "24:00"
    assert ana.exceptions[0].date == "2031-12-24" and ana.exceptions[0].hours[0].end_time == "12:00"
    retried = await stub.CreateProfessional(
        pb.CreateProfessionalRequest(professional=professional(tenant.id), idempotency_key="ana"),
        metadata=AUTH,
    )
    assert retried.professional == ana
    bia = professional(tenant.id, barba.id, name="Bia")
    await stub.CreateProfessional(pb.CreateProfessionalRequest(professional=bia), metadata=AUTH)
    offering = await stub.ListProfessionals(
        pb.ListProfessionalsRequest(tenant_id=tenant.id, service_id=corte.id), metadata=AUTH
    )
    assert [p.name for p in offering.professionals] == ["Ana"]

    deleted = await stub.DeleteService(
        pb.DeleteServiceRequest(tenant_id=tenant.id, service_id=barba.id), metadata=AUTH
    )
    assert deleted.deleted
    everyone = await stub.ListProfessionals(
        pb.ListProfessionalsRequest(tenant_id=tenant.id), metadata=AUTH
    )
    assert all(barba.id not in p.service_ids for p in everyone.professionals)

    renamed = pb.Professional()
    renamed.CopyFrom(next(p for p in everyone.professionals if p.id == ana.id))
    assert list(renamed.service_ids) == [corte.id]
    renamed.name = "Ana Paula"
    reply = await stub.UpdateProfessional(
        pb.UpdateProfessionalRequest(professional=renamed), metadata=AUTH
    )
    assert reply.professional.name == "Ana Paula"
    gone = pb.DeleteProfessionalRequest(tenant_id=tenant.id, professional_id=ana.id)
    assert (await stub.DeleteProfessional(gone, metadata=AUTH)).deleted
    assert not (await stub.DeleteProfessional(gone, metadata=AUTH)).deleted


async def test_faq_entries(stub: Stub) -> None:
    tenant = await new_tenant(stub)
    entry = pb.FaqEntry(
        tenant_id=tenant.id, question="Tem estacionamento?", answer="Sim.", tags=["carro"]
    )
    created = await stub.CreateFaqEntry(
        pb.CreateFaqEntryRequest(entry=entry, idempotency_key="park"), metadata=AUTH
    )
    again = await stub.CreateFaqEntry(
        pb.CreateFaqEntryRequest(entry=entry, idempotency_key="park"), metadata=AUTH
    )
    assert again.entry == created.entry and list(created.entry.tags) == ["carro"]
    changed = pb.FaqEntry()
    changed.CopyFrom(created.entry)
    changed.answer = "Sim, gratuito."
    updated = await stub.UpdateFaqEntry(pb.UpdateFaqEntryRequest(entry=changed), metadata=AUTH)
    assert updated.entry.answer == "Sim, gratuito."
    listed = await stub.ListFaqEntries(pb.ListFaqEntriesRequest(tenant_id=tenant.id), metadata=AUTH)
    assert [e.id for e in listed.entries] == [created.entry.id]
    remove = pb.DeleteFaqEntryRequest(tenant_id=tenant.id, entry_id=created.entry.id)
    assert (await stub.DeleteFaqEntry(remove, metadata=AUTH)).deleted


async def test_customers(stub: Stub) -> None:
    tenant = await new_tenant(stub)
    customer = pb.Customer(tenant_id=tenant.id, channel="whatsapp", external_id="5511999")
    first = await stub.UpsertCustomer(pb.UpsertCustomerRequest(customer=customer), metadata=AUTH)
    customer.name = "Maria"
    second = await stub.UpsertCustomer(pb.UpsertCustomerRequest(customer=customer), metadata=AUTH)
    assert first.created and not second.created
    assert second.customer.id == first.customer.id and second.customer.name == "Maria"
    got = await stub.GetCustomer(
        pb.GetCustomerRequest(tenant_id=tenant.id, customer_id=first.customer.id), metadata=AUTH
    )
    assert got.customer == second.customer
    listed = await stub.ListCustomers(pb.ListCustomersRequest(tenant_id=tenant.id), metadata=AUTH)
    assert [c.id for c in listed.customers] == [first.customer.id]


async def test_appointments_are_listed_and_cancelled(stub: Stub, repos: Repositories) -> None:
    tenant = await new_tenant(stub)
    tenant_id = tenant.id
    ana = uuid4()
    stored = []
    for hour in range(3):
        appointment = Appointment.model_validate(
            {
                "tenant_id": tenant_id,
                "customer_id": uuid4(),
                "professional_id": ana,
                "service_id": uuid4(),
                "calendar_id": "ana",
                "start": DAY + timedelta(hours=hour),
                "end": DAY + timedelta(hours=hour, minutes=30),
            }
        )
        await repos.appointments.reserve(appointment)
        stored.append(
            await repos.appointments.save(
                appointment.moved_to(AppointmentStatus.CONFIRMED, external_event_id=f"ev{hour}")
            )
        )
    request = pb.ListAppointmentsRequest(
        tenant_id=tenant_id,
        professional_id=str(ana),
        statuses=[types.APPOINTMENT_STATUS_CONFIRMED],
        start_after=timestamp(DAY + timedelta(hours=1)),
        page_size=1,
    )
    page = await stub.ListAppointments(request, metadata=AUTH)
    request.page_token = page.next_page_token
    rest = await stub.ListAppointments(request, metadata=AUTH)
    assert [a.id for a in (*page.appointments, *rest.appointments)] == [
        str(a.id) for a in stored[1:]
    ]
    assert page.appointments[0].external_event_id == "ev1"
    cancel = pb.CancelAppointmentRequest(
        tenant_id=tenant_id, appointment_id=str(stored[0].id), reason="cliente pediu"
    )
    first = await stub.CancelAppointment(cancel, metadata=AUTH)
    again = await stub.CancelAppointment(cancel, metadata=AUTH)
    assert first.cancelled and not again.cancelled
    assert first.appointment.status == types.APPOINTMENT_STATUS_CANCELLED


def _bad_requests(tenant_id: str, service_id: str) -> list[tuple[str, str, Any]]:
    """(rpc, field the error must name, request)."""
    svc = pb.Service(tenant_id=tenant_id, name="Corte", duration_minutes=32)
    hours = [pb.WorkingHours(day_of_week=1, start_time="9:00", end_time="12:00")]
    days = [pb.DateException(date="2031-02-30")]
    return [
        ("GetTenant", "tenant_id: not a UUID", pb.GetTenantRequest(tenant_id="nope")),
        (
            "CreateTenant",
            "tenant.time_zone",
            pb.CreateTenantRequest(tenant=pb.Tenant(name="X", time_zone="Mars/Olympus")),
        ),
        (
            "CreateTenant",
            "tenant.locale",
            pb.CreateTenantRequest(tenant=pb.Tenant(name="X", locale="portuguese")),
        ),
        (
            "CreateService",
            "service.duration_minutes: Input should be a multiple of 5",
            pb.CreateServiceRequest(service=svc),
        ),
        (
            "CreateService",
            "service.tenant_id: not a UUID",
            pb.CreateServiceRequest(service=pb.Service(tenant_id="x", name="Y")),
        ),
        (
            "CreateProfessional",
            "professional.weekly_hours[0].start_time",
            pb.CreateProfessionalRequest(professional=professional(tenant_id, weekly_hours=hours)),
        ),
        (
            "CreateProfessional",
            "professional.exceptions[0].date",
            pb.CreateProfessionalRequest(professional=professional(tenant_id, exceptions=days)),
        ),
        (
            "CreateProfessional",
            "professional.service_ids",
            pb.CreateProfessionalRequest(professional=professional(tenant_id, str(uuid4()))),
        ),
        (
            "CreateProfessional",
            "professional.service_ids[1]: not a UUID",
            pb.CreateProfessionalRequest(professional=professional(tenant_id, service_id, "x")),
        ),
        (
            "ListAppointments",
            "page_token",
            pb.ListAppointmentsRequest(tenant_id=tenant_id, page_token="garbage"),
        ),
        ("ListCustomers", "page_size", pb.ListCustomersRequest(tenant_id=tenant_id, page_size=-1)),
    ]


async def test_bad_input_is_invalid_argument_naming_the_field(stub: Stub) -> None:
    tenant = await new_tenant(stub)
    service = await new_service(stub, tenant.id)
    for rpc, field, request in _bad_requests(tenant.id, service.id):
        details = await expect_code(
            getattr(stub, rpc)(request, metadata=AUTH), grpc.StatusCode.INVALID_ARGUMENT
        )
        assert field in details, (rpc, details)


async def test_another_tenants_ids_are_not_found(stub: Stub) -> None:
    mine, other = await new_tenant(stub), await new_tenant(stub, name="Outro")
    service = await new_service(stub, mine.id)
    customer = await stub.UpsertCustomer(
        pb.UpsertCustomerRequest(
            customer=pb.Customer(tenant_id=mine.id, channel="web", external_id="c1")
        ),
        metadata=AUTH,
    )
    foreign = pb.Service()
    foreign.CopyFrom(service)
    foreign.tenant_id = other.id
    calls = [
        stub.UpdateService(pb.UpdateServiceRequest(service=foreign), metadata=AUTH),
        stub.GetCustomer(
            pb.GetCustomerRequest(tenant_id=other.id, customer_id=customer.customer.id),
            metadata=AUTH,
        ),
        stub.GetTenant(pb.GetTenantRequest(tenant_id=str(uuid4())), metadata=AUTH),
        stub.ListServices(pb.ListServicesRequest(tenant_id=str(uuid4())), metadata=AUTH),
        stub.CancelAppointment(
            pb.CancelAppointmentRequest(tenant_id=other.id, appointment_id=str(uuid4())),
            metadata=AUTH,
        ),
    ]
    for call in calls:
        await expect_code(call, grpc.StatusCode.NOT_FOUND)
    delete = pb.DeleteServiceRequest(tenant_id=other.id, service_id=service.id)
    assert not (await stub.DeleteService(delete, metadata=AUTH)).deleted


@pytest.mark.parametrize("metadata", [(), (("authorization", "Bearer wrong"),)])
async def test_every_rpc_needs_a_token(stub: Stub, metadata: tuple[tuple[str, str], ...]) -> None:
    await expect_code(
        stub.ListTenants(pb.ListTenantsRequest(), metadata=metadata),
        grpc.StatusCode.UNAUTHENTICATED,
    )
    await expect_code(
        stub.CreateTenant(pb.CreateTenantRequest(tenant=pb.Tenant(name="X")), metadata=metadata),
        grpc.StatusCode.UNAUTHENTICATED,
    )


async def test_smoke_on_beanie(embedded_mongo: EmbeddedMongo) -> None:
    async for beanie_repos in beanie_repositories(embedded_mongo):
        async with catalog_stub(beanie_repos) as beanie_stub:
            tenant = await new_tenant(beanie_stub, key="k")
            assert (await new_tenant(beanie_stub, key="k")).id == tenant.id
            service = await new_service(beanie_stub, tenant.id)
            created = await beanie_stub.CreateProfessional(
                pb.CreateProfessionalRequest(professional=professional(tenant.id, service.id)),
                metadata=AUTH,
            )
            listed = await beanie_stub.ListProfessionals(
                pb.ListProfessionalsRequest(tenant_id=tenant.id, service_id=service.id),
                metadata=AUTH,
            )
            assert list(listed.professionals) == [created.professional]


def _localized_faq(tenant_id: str) -> pb.FaqEntry:
    return pb.FaqEntry(
        tenant_id=tenant_id,
        question="Posso levar meu cachorro?",
        answer="Não aceitamos animais.",
        tags=["pet"],
        localized=[
            pb.LocalizedFaq(language="EN", question="Can I bring my dog?", answer="No pets."),
            pb.LocalizedFaq(language="es", answer="No se admiten mascotas."),
        ],
    )


async def _faq_languages_round_trip(stub: Stub) -> None:
    tenant = await new_tenant(stub)
    created = await stub.CreateFaqEntry(
        pb.CreateFaqEntryRequest(entry=_localized_faq(tenant.id)), metadata=AUTH
    )
    assert [(e.language, e.question, e.answer) for e in created.entry.localized] == [
        ("en", "Can I bring my dog?", "No pets."),  # the language code is lowercased
        ("es", "", "No se admiten mascotas."),
    ]
    changed = pb.FaqEntry()
    changed.CopyFrom(created.entry)
    del changed.localized[1]
    changed.localized[0].answer = "Sorry, no pets."
    updated = await stub.UpdateFaqEntry(pb.UpdateFaqEntryRequest(entry=changed), metadata=AUTH)
    assert updated.entry.etag != changed.etag  # a new version
    changed.etag = updated.entry.etag
    assert updated.entry == changed
    listed = await stub.ListFaqEntries(pb.ListFaqEntriesRequest(tenant_id=tenant.id), metadata=AUTH)
    assert list(listed.entries) == [changed]


async def test_faq_answers_per_language_round_trip(stub: Stub) -> None:
    await _faq_languages_round_trip(stub)


async def test_faq_answers_per_language_round_trip_on_beanie(
    embedded_mongo: EmbeddedMongo,
) -> None:
    async for beanie_repos in beanie_repositories(embedded_mongo):
        async with catalog_stub(beanie_repos) as beanie_stub:
            await _faq_languages_round_trip(beanie_stub)


@pytest.mark.parametrize(
    ("localized", "field"),
    [
        ([pb.LocalizedFaq(language="english!", answer="x")], "entry.localized[0].language"),
        ([pb.LocalizedFaq(language="", answer="x")], "entry.localized[0].language"),
        ([pb.LocalizedFaq(language="en", answer="")], "entry.localized[0].answer"),
        (
            [pb.LocalizedFaq(language="en", question="q" * 501, answer="x")],
            "entry.localized[0].question",
        ),
        (
            [
                pb.LocalizedFaq(language="en", answer="a"),
                pb.LocalizedFaq(language="en", answer="b"),
            ],
            "entry.localized",
        ),
    ],
)
async def test_faq_answers_per_language_are_validated(
    stub: Stub, localized: list[pb.LocalizedFaq], field: str
) -> None:
    tenant = await new_tenant(stub)
    entry = pb.FaqEntry(tenant_id=tenant.id, question="Pets?", answer="Não.", localized=localized)
    details = await expect_code(
        stub.CreateFaqEntry(pb.CreateFaqEntryRequest(entry=entry), metadata=AUTH),
        grpc.StatusCode.INVALID_ARGUMENT,
    )
    assert details.startswith(f"{field}:"), details
