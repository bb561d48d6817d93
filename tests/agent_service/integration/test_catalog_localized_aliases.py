"""Aliases per language through CatalogService on a real gRPC server (in memory and on the
embedded MongoDB): stored, returned, replaced, validated field by field; the flat list keeps
working next to them; the tools list the conversation's language first."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import TYPE_CHECKING
from uuid import uuid4

import grpc
import pytest

from agenda.agent.v1 import catalog_service_pb2 as pb
from agenda.agent.v1 import catalog_service_pb2_grpc as pb_grpc
from agenda_kit.mongo import EmbeddedMongo
from agent_service.domain.catalog import LocalizedAliases, Service
from agent_service.infrastructure.agent.tools.formatting import service_item
from tests.agent_service.integration.catalog_server import AUTH, catalog_stub
from tests.agent_service.integration.repository_fixtures import beanie_repositories
from tests.fakes.agent_repositories import in_memory_repositories

pytest_plugins = ["tests.kit.mongo_fixtures"]

if TYPE_CHECKING:
    Stub = pb_grpc.CatalogServiceAsyncStub

WORDS = [
    pb.LocalizedAliases(language="en", aliases=["haircut", "women's haircut"]),
    pb.LocalizedAliases(language="pt", aliases=["corte de cabelo"]),
]


@pytest.fixture
async def stub() -> AsyncIterator[Stub]:
    async with catalog_stub(in_memory_repositories()) as client:
        yield client


async def _tenant(stub: Stub) -> str:
    tenant = pb.Tenant(name="Salão", time_zone="America/Sao_Paulo", locale="pt-BR")
    reply = await stub.CreateTenant(pb.CreateTenantRequest(tenant=tenant), metadata=AUTH)
    return str(reply.tenant.id)


def _service(tenant_id: str, **fields: object) -> pb.Service:
    return pb.Service(
        tenant_id=tenant_id, name="Corte feminino", duration_minutes=45, price_minor=8000,
        **fields,  # type: ignore[arg-type]
    )  # fmt: skip


async def _round_trip(stub: Stub) -> None:
    tenant_id = await _tenant(stub)
    created = (
        await stub.CreateService(
            pb.CreateServiceRequest(
                service=_service(tenant_id, aliases=["cabelo"], localized_aliases=WORDS)
            ),
            metadata=AUTH,
        )
    ).service
    assert list(created.localized_aliases) == WORDS and list(created.aliases) == ["cabelo"]
    got = await stub.ListServices(pb.ListServicesRequest(tenant_id=tenant_id), metadata=AUTH)
    assert list(got.services) == [created]
    del created.localized_aliases[:]
    created.localized_aliases.append(pb.LocalizedAliases(language="es", aliases=["corte"]))
    updated = await stub.UpdateService(pb.UpdateServiceRequest(service=created), metadata=AUTH)
    assert [e.language for e in updated.service.localized_aliases] == ["es"]
    person = pb.Professional(
        tenant_id=tenant_id, name="Ana Souza", calendar_id="ana", service_ids=[created.id],
        localized_aliases=[pb.LocalizedAliases(language="pt", aliases=["Aninha"])],
    )  # fmt: skip
    made = await stub.CreateProfessional(
        pb.CreateProfessionalRequest(professional=person), metadata=AUTH
    )
    listed = await stub.ListProfessionals(
        pb.ListProfessionalsRequest(tenant_id=tenant_id), metadata=AUTH
    )
    assert list(listed.professionals) == [made.professional]
    assert list(made.professional.localized_aliases[0].aliases) == ["Aninha"]


async def test_localized_aliases_round_trip_in_memory(stub: Stub) -> None:
    await _round_trip(stub)


async def test_localized_aliases_round_trip_on_mongo(embedded_mongo: EmbeddedMongo) -> None:
    async for repos in beanie_repositories(embedded_mongo):
        async with catalog_stub(repos) as beanie_stub:
            await _round_trip(beanie_stub)


@pytest.mark.parametrize(
    ("words", "field"),
    [
        ([pb.LocalizedAliases(language="português", aliases=["x"])], "localized_aliases[0]"),
        ([pb.LocalizedAliases(language="", aliases=["x"])], "localized_aliases[0]"),
        ([pb.LocalizedAliases(language="en", aliases=["  "])], "localized_aliases[0]"),
        ([pb.LocalizedAliases(language="en", aliases=["x" * 101])], "localized_aliases[0]"),
        (
            [pb.LocalizedAliases(language="en"), pb.LocalizedAliases(language="EN")],
            "localized_aliases",
        ),
    ],
)
async def test_bad_localized_aliases_are_invalid_argument(
    stub: Stub, words: list[pb.LocalizedAliases], field: str
) -> None:
    tenant_id = await _tenant(stub)
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await stub.CreateService(
            pb.CreateServiceRequest(service=_service(tenant_id, localized_aliases=words)),
            metadata=AUTH,
        )
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT, caught.value.details()
    assert field in (caught.value.details() or "")


def test_the_tools_list_the_conversations_language_first() -> None:
    service = Service(
        tenant_id=uuid4(), name="Corte feminino", duration_minutes=45, aliases=("cabelo",),
        localized_aliases=(
            LocalizedAliases(language="en", aliases=("haircut",)),
            LocalizedAliases(language="pt-BR", aliases=("corte de cabelo", "Cabelo")),
        ),
    )  # fmt: skip
    assert service.words("pt") == ("corte de cabelo", "Cabelo", "haircut")
    assert service.words("en") == ("haircut", "cabelo", "corte de cabelo")
    assert service.localized_aliases[1].language == "pt-br"
    assert service_item(service, "en").aliases[:3] == ["haircut", "cabelo", "corte de cabelo"]
