"""CatalogService contracts (issue 23, item 7) on a real gRPC server over both stores (Beanie on
the embedded MongoDB, and the in-memory fakes): every List pages (AIP-158) with tokens bound to
their request, Updates take an ``update_mask`` (AIP-134) and an etag precondition (AIP-154:
stale → ABORTED), errors carry ``google.rpc`` details a client can act on."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import TYPE_CHECKING, Any

import grpc
import pytest
from google.protobuf.field_mask_pb2 import FieldMask

from agenda.agent.v1 import catalog_service_pb2 as pb
from agenda.agent.v1 import catalog_service_pb2_grpc as pb_grpc
from agenda_kit.errors import details_of
from agent_service.application.repositories import Repositories
from tests.agent_service.integration.catalog_server import AUTH, catalog_stub
from tests.agent_service.integration.repository_fixtures import repos

pytest_plugins = ["tests.kit.mongo_fixtures"]
__all__ = ["repos"]
if TYPE_CHECKING:
    Stub = pb_grpc.CatalogServiceAsyncStub
Code = grpc.StatusCode
NAMES = ["Ana", "Bruno", "Carla", "Davi", "Elis", "Fábio", "Gil"]


@pytest.fixture
async def stub(repos: Repositories) -> AsyncIterator[Stub]:
    async with catalog_stub(repos) as client:
        yield client


async def refused(call: Awaitable[Any], code: grpc.StatusCode) -> grpc.aio.AioRpcError:
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await call
    assert caught.value.code() is code, caught.value.details()
    return caught.value


async def tenant(stub: Stub, name: str = "Salão") -> pb.Tenant:
    created = await stub.CreateTenant(
        pb.CreateTenantRequest(tenant=pb.Tenant(name=name, time_zone="UTC")), metadata=AUTH
    )
    return created.tenant


async def service(stub: Stub, tenant_id: str, name: str) -> pb.Service:
    created = await stub.CreateService(
        pb.CreateServiceRequest(
            service=pb.Service(
                tenant_id=tenant_id, name=name, duration_minutes=30, price_minor=5000
            )
        ),
        metadata=AUTH,
    )
    return created.service


async def professional(stub: Stub, tenant_id: str, name: str) -> pb.Professional:
    created = await stub.CreateProfessional(
        pb.CreateProfessionalRequest(
            professional=pb.Professional(tenant_id=tenant_id, name=name, calendar_id=name)
        ),
        metadata=AUTH,
    )
    return created.professional


async def faq(stub: Stub, tenant_id: str, name: str) -> pb.FaqEntry:
    created = await stub.CreateFaqEntry(
        pb.CreateFaqEntryRequest(
            entry=pb.FaqEntry(tenant_id=tenant_id, question=f"{name}?", answer="Sim.")
        ),
        metadata=AUTH,
    )
    return created.entry


Lister = Callable[["Stub", str, int, str], Awaitable[tuple[list[str], str]]]


async def list_services(stub: Stub, tenant_id: str, size: int, token: str) -> tuple[list[str], str]:
    page = await stub.ListServices(
        pb.ListServicesRequest(tenant_id=tenant_id, page_size=size, page_token=token),
        metadata=AUTH,
    )
    return [s.name for s in page.services], page.next_page_token


async def list_professionals(
    stub: Stub, tenant_id: str, size: int, token: str
) -> tuple[list[str], str]:
    page = await stub.ListProfessionals(
        pb.ListProfessionalsRequest(tenant_id=tenant_id, page_size=size, page_token=token),
        metadata=AUTH,
    )
    return [p.name for p in page.professionals], page.next_page_token


async def list_faq(stub: Stub, tenant_id: str, size: int, token: str) -> tuple[list[str], str]:
    page = await stub.ListFaqEntries(
        pb.ListFaqEntriesRequest(tenant_id=tenant_id, page_size=size, page_token=token),
        metadata=AUTH,
    )
    return [e.question.rstrip("?") for e in page.entries], page.next_page_token


async def all_pages(
    lister: Lister, stub: Stub, tenant_id: str, size: int, token: str = ""
) -> list[str]:
    """Every page from ``token`` to the last one (the only one with no next token)."""
    seen: list[str] = []
    while True:
        chunk, token = await lister(stub, tenant_id, size, token)
        assert size == 0 or len(chunk) <= size
        seen += chunk
        if not token:
            return seen


KINDS: list[tuple[Callable[..., Awaitable[Any]], Lister]] = [
    (service, list_services),
    (professional, list_professionals),
    (faq, list_faq),
]


@pytest.mark.parametrize(("create", "lister"), KINDS, ids=["services", "professionals", "faq"])
async def test_every_list_pages_in_order_and_each_token_is_bound_to_its_request(
    stub: Stub, create: Callable[..., Awaitable[Any]], lister: Lister
) -> None:
    mine, other = (await tenant(stub)).id, (await tenant(stub, "Outro")).id
    names = NAMES[:]
    random.Random(7).shuffle(names)
    for name in names[:-1]:
        await create(stub, mine, name)
    for size in (1, 2, 3, 0, 501):  # 0: the default; more than the maximum: the maximum
        assert await all_pages(lister, stub, mine, size) == sorted(names[:-1])
    first, token = await lister(stub, mine, 2, "")
    await create(stub, mine, names[-1])  # added while a client pages: nothing shifts
    rest = await all_pages(lister, stub, mine, 2, token)
    assert first + rest == first + [n for n in sorted(NAMES) if n > first[-1]]
    _, token = await lister(stub, mine, 1, "")
    wrong = await refused(lister(stub, other, 1, token), Code.INVALID_ARGUMENT)
    assert [field for field, _ in details_of(wrong).violations] == ["page_token"]
    await refused(lister(stub, mine, 1, "not-a-token"), Code.INVALID_ARGUMENT)
    negative = await refused(lister(stub, mine, -1, ""), Code.INVALID_ARGUMENT)
    assert [field for field, _ in details_of(negative).violations] == ["page_size"]


async def test_appointment_and_customer_tokens_are_bound_to_their_request(stub: Stub) -> None:
    mine, other = (await tenant(stub)).id, (await tenant(stub, "Outro")).id
    for n in range(3):
        await stub.UpsertCustomer(
            pb.UpsertCustomerRequest(
                customer=pb.Customer(tenant_id=mine, channel="whatsapp", external_id=f"55{n}")
            ),
            metadata=AUTH,
        )
    page = await stub.ListCustomers(
        pb.ListCustomersRequest(tenant_id=mine, page_size=1), metadata=AUTH
    )
    assert page.next_page_token
    await refused(
        stub.ListCustomers(
            pb.ListCustomersRequest(tenant_id=other, page_size=1, page_token=page.next_page_token),
            metadata=AUTH,
        ),
        Code.INVALID_ARGUMENT,
    )
    rest = await stub.ListCustomers(
        pb.ListCustomersRequest(tenant_id=mine, page_size=5, page_token=page.next_page_token),
        metadata=AUTH,
    )
    assert len(rest.customers) == 2 and not rest.next_page_token


async def test_an_update_mask_changes_only_the_fields_it_names(stub: Stub) -> None:
    mine = await tenant(stub)
    stored = await service(stub, mine.id, "Corte")
    patch = pb.Service(id=stored.id, tenant_id=mine.id, name="ignored", price_minor=7000)
    updated = await stub.UpdateService(
        pb.UpdateServiceRequest(service=patch, update_mask=FieldMask(paths=["price_minor"])),
        metadata=AUTH,
    )
    assert (updated.service.name, updated.service.price_minor) == ("Corte", 7000)
    assert updated.service.duration_minutes == 30 and updated.service.etag != stored.etag
    policy = pb.Tenant(id=mine.id, policy=pb.BookingPolicy(slot_step_minutes=15))
    moved = await stub.UpdateTenant(
        pb.UpdateTenantRequest(
            tenant=policy, update_mask=FieldMask(paths=["policy.slot_step_minutes"])
        ),
        metadata=AUTH,
    )
    assert moved.tenant.policy.slot_step_minutes == 15 and moved.tenant.name == "Salão"
    assert moved.tenant.policy.minimum_notice_minutes == mine.policy.minimum_notice_minutes
    for paths, where in (
        (["nope"], "update_mask.paths[0]"),
        (["name", "id"], "update_mask.paths[1]"),
    ):
        bad = await refused(
            stub.UpdateService(
                pb.UpdateServiceRequest(service=patch, update_mask=FieldMask(paths=paths)),
                metadata=AUTH,
            ),
            Code.INVALID_ARGUMENT,
        )
        assert [field for field, _ in details_of(bad).violations] == [where]
        assert details_of(bad).reason == "INVALID_FIELD"


async def test_a_stale_etag_is_aborted_and_the_current_one_updates(stub: Stub) -> None:
    mine = await tenant(stub)
    stored = await professional(stub, mine.id, "Ana")
    first = pb.Professional()
    first.CopyFrom(stored)
    first.specialty = "Cabeleireira"
    changed = await stub.UpdateProfessional(
        pb.UpdateProfessionalRequest(professional=first), metadata=AUTH
    )
    assert changed.professional.etag != stored.etag
    stale = pb.Professional()
    stale.CopyFrom(stored)  # still the etag it was read with
    stale.specialty = "Manicure"
    aborted = await refused(
        stub.UpdateProfessional(pb.UpdateProfessionalRequest(professional=stale), metadata=AUTH),
        Code.ABORTED,
    )
    details = details_of(aborted)
    assert details.reason == "ETAG_MISMATCH" and details.metadata["resourceId"] == stored.id
    stale.etag = changed.professional.etag
    current = await stub.UpdateProfessional(
        pb.UpdateProfessionalRequest(professional=stale), metadata=AUTH
    )
    assert current.professional.specialty == "Manicure"


async def test_concurrent_masked_updates_without_etags_lose_nothing(stub: Stub) -> None:
    mine = await tenant(stub)
    stored = await service(stub, mine.id, "Corte")
    changes = [
        ("description", pb.Service(id=stored.id, tenant_id=mine.id, description="Com lavagem")),
        ("price_minor", pb.Service(id=stored.id, tenant_id=mine.id, price_minor=9000)),
        ("aliases", pb.Service(id=stored.id, tenant_id=mine.id, aliases=["haircut"])),
    ]
    await asyncio.gather(
        *(
            stub.UpdateService(
                pb.UpdateServiceRequest(service=patch, update_mask=FieldMask(paths=[path])),
                metadata=AUTH,
            )
            for path, patch in changes
        )
    )
    (listed,) = (
        await stub.ListServices(pb.ListServicesRequest(tenant_id=mine.id), metadata=AUTH)
    ).services
    assert (listed.description, listed.price_minor, list(listed.aliases)) == (
        "Com lavagem",
        9000,
        ["haircut"],
    )


async def test_errors_carry_details_a_client_can_act_on(stub: Stub) -> None:
    mine = await tenant(stub)
    missing = "00000000-0000-4000-8000-000000000001"
    gone = await refused(
        stub.UpdateFaqEntry(
            pb.UpdateFaqEntryRequest(
                entry=pb.FaqEntry(id=missing, tenant_id=mine.id, question="q", answer="a")
            ),
            metadata=AUTH,
        ),
        Code.NOT_FOUND,
    )
    details = details_of(gone)
    assert details.domain == "agent.agenda" and details.reason == "NOT_FOUND"
    assert details.metadata == {"resourceType": "faq entry"}
    bad = await refused(
        stub.CreateService(
            pb.CreateServiceRequest(
                service=pb.Service(tenant_id=mine.id, name="x", duration_minutes=7)
            ),
            metadata=AUTH,
        ),
        Code.INVALID_ARGUMENT,
    )
    assert details_of(bad).violations[0][0] == "service.duration_minutes"
