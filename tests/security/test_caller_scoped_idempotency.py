"""Issue 9, idempotency scoped to the caller: a ``CreateTenant`` key belongs to the principal
that used it (another principal's same key creates its own tenant and never reads or writes
the first); a channel ``message_id`` reused by another customer is ALREADY_EXISTS, never the
first customer's stored reply, and changes nothing."""

from __future__ import annotations

import secrets
from collections.abc import AsyncIterator
from pathlib import Path

import grpc
import pytest

from agenda.agent.v1 import agent_service_pb2 as agent_pb
from agenda.agent.v1 import catalog_service_pb2 as catalog_pb
from agenda_kit.auth.directory import token_hash
from tests.security.principals import bearer
from tests.security.stack import SecurityStack, security_stack

NAMES = ("operator-1", "operator-2", "gateway-a")


@pytest.fixture
async def scoped(tmp_path: Path) -> AsyncIterator[tuple[SecurityStack, dict[str, str]]]:
    path = tmp_path / "principals.toml"
    path.write_text("")
    async with security_stack(tmp_path, principals_file=path) as stack:
        tokens = {name: secrets.token_urlsafe(24) for name in NAMES}
        a = stack.tenants["A"].id
        scopes = {"operator-1": 'role = "operator"', "operator-2": 'role = "operator"'}
        scopes["gateway-a"] = f'role = "gateway"\ntenants = ["{a}"]'
        path.write_text(
            "".join(
                f'[[principal]]\nname = "{name}"\n{scopes[name]}\n'
                f'token_sha256 = ["{token_hash(tokens[name])}"]\n'
                for name in NAMES
            )
        )
        yield stack, tokens


async def test_create_tenant_keys_belong_to_their_principal(
    scoped: tuple[SecurityStack, dict[str, str]],
) -> None:
    stack, tokens = scoped

    async def create(who: str, name: str) -> catalog_pb.Tenant:
        reply = await stack.catalog.CreateTenant(
            catalog_pb.CreateTenantRequest(
                tenant=catalog_pb.Tenant(name=name, time_zone="UTC"), idempotency_key="same-key"
            ),
            metadata=bearer(tokens[who]),
        )
        return reply.tenant

    first = await create("operator-1", "First")
    assert (await create("operator-1", "First")).id == first.id  # a retry: the same tenant
    second = await create("operator-2", "Second")
    assert second.id != first.id and second.name == "Second"
    stored = await stack.catalog.GetTenant(
        catalog_pb.GetTenantRequest(tenant_id=first.id), metadata=bearer(tokens["operator-1"])
    )
    assert stored.tenant.name == "First"


async def test_a_message_id_reused_by_another_customer_is_already_exists(
    scoped: tuple[SecurityStack, dict[str, str]],
) -> None:
    stack, tokens = scoped
    a = stack.tenants["A"]
    gateway = bearer(tokens["gateway-a"])

    def message(external_id: str, text: str) -> agent_pb.SendMessageRequest:
        return agent_pb.SendMessageRequest(
            tenant_id=a.id,
            customer=agent_pb.CustomerIdentity(channel="whatsapp", external_id=external_id),
            message_id="channel-msg-1",
            text=text,
        )

    first = await stack.agent.SendMessage(
        message("5511900000001", "Oi, quais serviços?"), metadata=gateway
    )
    again = await stack.agent.SendMessage(
        message("5511900000001", "Oi, quais serviços?"), metadata=gateway
    )
    assert again.duplicate and again.reply == first.reply
    before = await stack.snapshot(a)
    requests = stack.model.requests
    with pytest.raises(grpc.aio.AioRpcError) as raised:
        await stack.agent.SendMessage(message("5511900000002", "Quero cancelar"), metadata=gateway)
    assert raised.value.code() is grpc.StatusCode.ALREADY_EXISTS
    assert first.reply not in (raised.value.details() or "")
    assert await stack.snapshot(a) == before and stack.model.requests == requests
