"""``AgentClient`` against a real agent gRPC server (port 0, in-memory repositories and
calendar, the offline model), plus a flaky fake server for retries and deadlines."""

from __future__ import annotations

import argparse
import importlib.util
import socket
import time
from collections.abc import AsyncIterator
from pathlib import Path
from types import ModuleType
from typing import Any

import grpc
import pytest

from agenda.agent.v1 import agent_service_pb2 as pb
from agenda.agent.v1 import agent_service_pb2_grpc as pb_grpc
from agenda.agent.v1 import types_pb2 as types
from agenda_kit.agent_client import AgentClient, AgentRpcError, RetryPolicy
from agenda_kit.settings import SharedSettings
from agent_service.bootstrap import AgentApp, Overrides, bootstrap
from agent_service.infrastructure.settings import AgentSettings
from tests.agent_service.conversation_fixtures import NOW, Salon, seed_salon
from tests.fakes.agent_repositories import in_memory_repositories
from tests.fakes.in_memory_calendar import InMemoryCalendar

TOKEN = "test-token-agent-client"
EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "examples" / "agent_client.py"
FAST = RetryPolicy(max_attempts=3, backoff_base=0.01, backoff_cap=0.02)


class Served:
    def __init__(self, app: AgentApp, salon: Salon) -> None:
        self.app = app
        self.salon = salon
        self.address = f"127.0.0.1:{app.port}"
        self.tenant_id = str(salon.tenant.id)


@pytest.fixture
async def served(tmp_path: Path) -> AsyncIterator[Served]:
    repos = in_memory_repositories()
    salon = await seed_salon(repos)
    settings = AgentSettings(grpc_port=0, metrics_port=0, auth_tokens=[TOKEN])
    app = await bootstrap(
        settings,
        SharedSettings(AGENDA_DATA_DIR=tmp_path),
        # a fixed Monday: "amanhã" (Tuesday) is a working day whatever today is
        Overrides(repos=repos, calendar=InMemoryCalendar(clock=lambda: NOW), clock=lambda: NOW),
    )
    await app.start()
    try:
        yield Served(app, salon)
    finally:
        await app.stop(0)


@pytest.fixture
async def client(served: Served) -> AsyncIterator[AgentClient]:
    async with AgentClient.connect(served.address, token=TOKEN, retry=FAST) as agent:
        yield agent


async def test_books_after_confirmation_and_redelivery_is_a_duplicate(
    served: Served, client: AgentClient
) -> None:
    tenant = served.tenant_id

    async def say(text: str, message_id: str | None = None) -> pb.SendMessageResponse:
        return await client.send_message(
            tenant, channel="whatsapp", external_id="55119111", text=text, message_id=message_id
        )

    asked = await say("Quero agendar uma barba com o Bruno amanhã às 15h")
    assert "Confirma" in asked.reply, asked.reply
    done = await say("sim", "wamid-1")
    again = await say("sim", "wamid-1")
    assert not done.duplicate and again.duplicate and again.reply == done.reply
    (action,) = done.actions
    assert action.kind == types.ACTION_KIND_APPOINTMENT_BOOKED
    assert action.appointment.service_name == "Barba"
    listed = [a async for a in client.iter_appointments(tenant, page_size=1)]
    assert [a.id for a in listed] == [action.appointment.id]
    appointment, cancelled = await client.cancel_appointment(tenant, action.appointment.id)
    assert cancelled and appointment.status == types.APPOINTMENT_STATUS_CANCELLED
    assert client.stats.retries == 0


async def test_stream_then_conversation_controls(served: Served, client: AgentClient) -> None:
    request = client.message_request(
        served.tenant_id, channel="webchat", external_id="c-1", text="Quais serviços vocês têm?"
    )
    events = [event async for event in client.stream_message(request)]
    kinds = [event.WhichOneof("event") for event in events]
    assert kinds[0] == "progress" and kinds[-1] == "final" and "text_delta" in kinds
    final = events[-1].final
    assert "Barba" in final.reply
    handed = await client.hand_off(served.tenant_id, final.conversation_id, "operator test")
    assert handed.status == types.CONVERSATION_STATUS_HANDED_OFF
    back = await client.hand_back(served.tenant_id, final.conversation_id, "resolved")
    assert back.status == types.CONVERSATION_STATUS_ACTIVE
    ended = await client.end_conversation(served.tenant_id, final.conversation_id)
    assert ended.status == types.CONVERSATION_STATUS_ENDED
    conversation = await client.get_conversation(served.tenant_id, final.conversation_id)
    assert [m.role for m in conversation.messages][:2] == ["customer", "assistant"]


async def test_catalog_reads(served: Served, client: AgentClient) -> None:
    tenants = [t async for t in client.iter_tenants(page_size=1)]
    assert [t.id for t in tenants] == [served.tenant_id]
    services = await client.list_services(served.tenant_id)
    assert sorted(s.name for s in services) == ["Barba", "Corte feminino"]
    people = await client.list_professionals(served.tenant_id, service_id=services[0].id)
    assert len(people) == 1
    (entry,) = await client.list_faq_entries(served.tenant_id)
    assert "Rua das Flores" in entry.answer


async def test_errors_carry_the_status_and_are_not_retried(
    served: Served, client: AgentClient
) -> None:
    with pytest.raises(AgentRpcError) as caught:
        await client.send_message(served.tenant_id, channel="BAD!", external_id="x", text="oi")
    assert caught.value.code is grpc.StatusCode.INVALID_ARGUMENT
    assert "customer.channel" in caught.value.details
    async with AgentClient.connect(served.address, token="wrong", retry=FAST) as stranger:
        with pytest.raises(AgentRpcError) as denied:
            await stranger.get_tenant(served.tenant_id)
    assert denied.value.code is grpc.StatusCode.UNAUTHENTICATED
    assert client.stats.retries == 0 and stranger.stats.attempts == 1


async def test_the_example_runs(served: Served) -> None:
    spec = importlib.util.spec_from_file_location("agent_client_example", EXAMPLE)
    assert spec is not None and spec.loader is not None
    example: ModuleType = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    args = example.parse_args(["--address", served.address, "--token", TOKEN])
    assert isinstance(args, argparse.Namespace)
    assert await example.main(args, None) == 0


class Flaky(pb_grpc.AgentServiceServicer):
    """UNAVAILABLE for the first ``failures`` SendMessage calls, then an answer; remembers
    what it was sent. (Only SendMessage is implemented: the other RPCs are never called.)"""

    def __init__(self, failures: int, code: grpc.StatusCode = grpc.StatusCode.UNAVAILABLE):
        self.failures = failures
        self.code = code
        self.seen: list[tuple[str, str]] = []

    async def SendMessage(  # noqa: N802 - gRPC method name
        self, request: pb.SendMessageRequest, context: grpc.aio.ServicerContext[Any, Any]
    ) -> pb.SendMessageResponse:
        metadata = dict(context.invocation_metadata() or ())
        self.seen.append((request.message_id, str(metadata.get("authorization"))))
        if len(self.seen) <= self.failures:
            await context.abort(self.code, "try again")
        return pb.SendMessageResponse(reply="ok", conversation_id="c")


async def _serve(servicer: Flaky) -> tuple[grpc.aio.Server, str]:
    server = grpc.aio.server()
    pb_grpc.add_AgentServiceServicer_to_server(servicer, server)
    port = server.add_insecure_port("127.0.0.1:0")
    await server.start()
    return server, f"127.0.0.1:{port}"


async def test_unavailable_is_retried_with_the_same_message_id_and_token() -> None:
    flaky = Flaky(failures=2)  # type: ignore[abstract]
    server, address = await _serve(flaky)
    try:
        async with AgentClient.connect(address, token="t0k", retry=FAST) as agent:
            reply = await agent.send_message("t", channel="web", external_id="x", text="oi")
        assert reply.reply == "ok" and agent.stats.retries == 2 and agent.stats.attempts == 3
        assert len({message_id for message_id, _ in flaky.seen}) == 1
        assert {auth for _, auth in flaky.seen} == {"Bearer t0k"}
    finally:
        await server.stop(0)


@pytest.mark.parametrize(
    ("failures", "code", "attempts"),
    [(5, grpc.StatusCode.UNAVAILABLE, 3), (1, grpc.StatusCode.RESOURCE_EXHAUSTED, 1)],
)
async def test_gives_up_after_max_attempts_or_on_other_codes(
    failures: int, code: grpc.StatusCode, attempts: int
) -> None:
    server, address = await _serve(Flaky(failures, code))  # type: ignore[abstract]
    try:
        async with AgentClient.connect(address, token="t", retry=FAST) as agent:
            with pytest.raises(AgentRpcError) as caught:
                await agent.send_message("t", channel="web", external_id="x", text="oi")
        assert caught.value.code is code and agent.stats.attempts == attempts
    finally:
        await server.stop(0)


async def test_an_unreachable_server_fails_within_the_deadline() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        address = f"127.0.0.1:{probe.getsockname()[1]}"  # closed again: nobody listens
    # Without the deadline, 1,000 attempts with at least 50 ms between them: over 50 s.
    retry = RetryPolicy(max_attempts=1000, backoff_base=0.05, backoff_cap=0.1)
    async with AgentClient.connect(address, token="t", retry=retry) as agent:
        started = time.monotonic()
        with pytest.raises(AgentRpcError) as caught:
            await agent.get_tenant("t", timeout_s=0.8)
    assert time.monotonic() - started < 25.0  # the 0.8 s deadline stopped the retries
    assert caught.value.code in (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED)
