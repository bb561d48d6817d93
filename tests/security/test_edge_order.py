"""Issue 24 items 5 and 7: the edge answers in one order — who you are, what you may call,
whether the body is well-formed, what it names, how much you hold open — before any handler.

- A body that does not decode, or a field over its bound, from an anonymous caller is
  UNAUTHENTICATED on every RPC of both services (on main 6d0b5e0: INVALID_ARGUMENT, the body
  was judged before the caller). With a credential it is INVALID_ARGUMENT naming the field.
- A channel with a trailing newline is INVALID_ARGUMENT, whoever sends it (on main it passed
  ``$`` and made a second dedup key for the same message).
- Open streams per principal are capped: RESOURCE_EXHAUSTED ``TOO_MANY_STREAMS`` with a retry
  hint; another principal is not affected; a closed stream frees its place.
"""

from __future__ import annotations

import uuid
from pathlib import Path

import grpc
import pytest

from agenda.agent.v1 import agent_service_pb2 as agent_pb
from agenda_kit.errors import PUSHBACK_KEY, details_of
from tests.security.principals import Principals, principal_stack
from tests.security.rpcs import discover, invoke
from tests.security.stack import AGENT_AUTH, CALENDAR_AUTH, SecurityStack

pytest_plugins = ["tests.security.matrix_setup"]
Code = grpc.StatusCode
UNDECODABLE = b"\x0a\xff\xff\xff\xff\x0f"  # field 1, a length no message can have


async def test_anonymous_bodies_are_never_judged(
    matrix_stack: tuple[SecurityStack, Principals],
) -> None:
    stack, _ = matrix_stack
    outcomes: dict[str, tuple[str, str, str]] = {}
    servers = ((stack.agent_channel, AGENT_AUTH), (stack.calendar_channel, CALENDAR_AUTH))
    for channel, auth in servers:
        for rpc in await discover(channel):
            oversized = rpc.request_type()
            _fill_first_string(oversized, "x" * 100_000)
            anonymous = (await invoke(channel, rpc, UNDECODABLE)).code
            big = (await invoke(channel, rpc, oversized)).code
            known = await invoke(channel, rpc, UNDECODABLE, auth)
            outcomes[str(rpc)] = (anonymous.name, big.name, known.code.name)
            known_big = await invoke(channel, rpc, oversized, auth)  # AGENT_/CALENDAR_BOUNDS
            assert known_big.code is Code.INVALID_ARGUMENT, (str(rpc), known_big.details)
    assert {v[:2] for v in outcomes.values()} == {("UNAUTHENTICATED", "UNAUTHENTICATED")}
    assert {v[2] for v in outcomes.values()} == {"INVALID_ARGUMENT"}, outcomes


def _fill_first_string(message: object, value: str) -> None:
    for field in message.DESCRIPTOR.fields:  # type: ignore[attr-defined]
        if field.type == field.TYPE_STRING and not field.is_repeated:
            setattr(message, field.name, value)
            return


def _message(tenant: str, channel: str, message_id: str) -> agent_pb.SendMessageRequest:
    return agent_pb.SendMessageRequest(
        tenant_id=tenant,
        customer=agent_pb.CustomerIdentity(channel=channel, external_id="5511900000001"),
        message_id=message_id,
        text="quais serviços vocês têm?",
    )


async def test_one_spelling_of_a_channel(matrix_stack: tuple[SecurityStack, Principals]) -> None:
    stack, principals = matrix_stack
    a = stack.tenants["A"].id
    message_id = uuid.uuid4().hex
    first = await stack.agent.SendMessage(_message(a, "whatsapp", message_id), metadata=AGENT_AUTH)
    assert not first.duplicate
    for auth in (AGENT_AUTH, principals.metadata("gateway-a-whatsapp")):
        for spelling in ("whatsapp\n", "whatsapp ", " whatsapp", "WhatsApp", "whatsapp\x00"):
            with pytest.raises(grpc.aio.AioRpcError) as refused:
                await stack.agent.SendMessage(_message(a, spelling, message_id), metadata=auth)
            assert refused.value.code() is Code.INVALID_ARGUMENT, spelling
            assert details_of(refused.value).violations[0][0] == "customer.channel"


async def _first_of(call: object) -> None:
    async for _ in call:  # type: ignore[attr-defined]
        return  # the stream is open: it delivered tenant A's seeded outbox message


async def test_open_streams_are_capped_per_principal(tmp_path: Path) -> None:
    async with principal_stack(tmp_path, max_streams_per_principal=2) as (stack, principals):
        tenant = stack.tenants["A"].id
        long_poll = agent_pb.StreamOutboxRequest(tenant_id=tenant, wait_seconds=20)
        gateway = principals.metadata("gateway-a")
        first = stack.agent.StreamOutbox(long_poll, metadata=gateway)
        await _first_of(first)
        short = agent_pb.StreamOutboxRequest(tenant_id=tenant)  # ends after the due messages
        assert len([r async for r in stack.agent.StreamOutbox(short, metadata=gateway)]) == 1
        second = stack.agent.StreamOutbox(long_poll, metadata=gateway)  # the short one left
        await _first_of(second)
        with pytest.raises(grpc.aio.AioRpcError) as refused:
            await _first_of(stack.agent.StreamOutbox(long_poll, metadata=gateway))
        assert refused.value.code() is Code.RESOURCE_EXHAUSTED
        details = details_of(refused.value)
        assert details.reason == "TOO_MANY_STREAMS" and details.retry_delay
        assert PUSHBACK_KEY in dict(refused.value.trailing_metadata() or ())
        whatsapp = principals.metadata("gateway-a-whatsapp")
        other = stack.agent.StreamOutbox(long_poll, metadata=whatsapp)
        await _first_of(other)  # another principal has its own budget
        for call in (first, second, other):
            call.cancel()
