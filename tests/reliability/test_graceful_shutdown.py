"""Issue 4, property 10: SIGTERM to the agent process under load — health turns NOT_SERVING,
every RPC that had started finishes successfully, new ones are refused, the process exits 0.

To have RPCs surely in flight at SIGTERM, the calendar process is frozen (SIGSTOP) while
booking requests that need it arrive, and thawed (SIGCONT) after the SIGTERM."""

from __future__ import annotations

import asyncio
import os
import signal
import time
from uuid import UUID

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from agenda.agent.v1 import agent_service_pb2_grpc as pb_grpc
from agenda_kit.mongo import make_client
from tests.agent_service.integration.agent_fixtures import (
    Customer,
    agent_stub,
    booking_request_text,
    channel_to,
    seed_demo_salon,
)
from tests.figures import record
from tests.reliability.processes import Cluster
from tests.reliability.scale import size
from tests.reliability.stacks import working_days
from tests.waiting import until, until_checked

pytest_plugins = ["tests.kit.mongo_fixtures"]
pytestmark = pytest.mark.reliability

IN_FLIGHT = size(16, 40)
BACKGROUND = size(8, 24)
NAMES = health_pb2.HealthCheckResponse.ServingStatus


async def watch_health(channel: grpc.aio.Channel, seen: list[int]) -> None:
    stub = health_pb2_grpc.HealthStub(channel)
    try:
        async for update in stub.Watch(health_pb2.HealthCheckRequest(service="")):
            seen.append(update.status)
    except grpc.aio.AioRpcError:
        return


async def claimed(cluster: Cluster, tenant_id: str, message_ids: list[str]) -> bool:
    """Whether the agent claimed (started handling) every one of ``message_ids``."""
    client = make_client(cluster.mongo_uri)
    try:
        turns = client[cluster.agent_database]["processed_turns"]
        found = await turns.count_documents(
            {"tenant_id": UUID(tenant_id), "message_id": {"$in": message_ids}}
        )
    finally:
        await client.close()
    return found == len(message_ids)


async def refused(stub: pb_grpc.AgentServiceAsyncStub, tenant_id: str) -> bool:
    try:
        await Customer(stub, tenant_id).say("Olá!")
    except grpc.aio.AioRpcError:
        return True
    return False


async def test_sigterm_under_load_finishes_what_started(cluster: Cluster) -> None:
    calendar = cluster.start_calendar()
    agent = cluster.start_agent(
        AGENT_SHUTDOWN_GRACE_SECONDS="15",
        AGENT_TENANT_MAX_CONCURRENT_TURNS="200",
        AGENT_TENANT_MESSAGES_PER_MINUTE="0",  # one tenant's chatter loop: no rate limit
    )
    async with channel_to(agent.port) as channel:
        tenant_id = await seed_demo_salon(channel)
        stub = agent_stub(channel)
        statuses: list[int] = []
        watcher = asyncio.create_task(watch_health(channel, statuses))
        issuing = True
        background_ok = 0

        async def chatter() -> None:
            nonlocal background_ok
            customer = Customer(stub, tenant_id)
            while issuing:
                await customer.say("Olá!")
                background_ok += 1

        loops = [asyncio.create_task(chatter()) for _ in range(BACKGROUND)]
        await until(lambda: background_ok >= BACKGROUND, what="the chatter is under way")
        os.kill(calendar.process.pid, signal.SIGSTOP)
        days = working_days(IN_FLIGHT)
        ids = [f"blocked-{i}" for i in range(IN_FLIGHT)]
        blocked = [
            asyncio.create_task(Customer(stub, tenant_id).say(booking_request_text(day), key))
            for day, key in zip(days, ids, strict=True)
        ]
        issuing = False
        # In flight means the agent is handling them: each one's message is claimed.
        await until_checked(
            lambda: claimed(cluster, tenant_id, ids), what="every blocked booking was claimed"
        )
        assert not any(task.done() for task in blocked), "no RPC was in flight"
        agent.process.send_signal(signal.SIGTERM)
        sent_term = time.perf_counter()
        # New calls are refused once the server stops (a call just before still finishes).
        await until_checked(lambda: refused(stub, tenant_id), what="a new call is refused")
        os.kill(calendar.process.pid, signal.SIGCONT)
        results = await asyncio.gather(*blocked, *loops, return_exceptions=True)
        drained = time.perf_counter() - sent_term
        watcher.cancel()
    failed = [r for r in results if isinstance(r, BaseException)]
    assert failed == [], failed[:3]
    assert health_pb2.HealthCheckResponse.NOT_SERVING in statuses, statuses
    assert agent.process.wait(timeout=30) == 0
    print(
        f"\nproperty 10: SIGTERM with {IN_FLIGHT} blocked + {BACKGROUND} chatting RPCs in flight "
        f"({background_ok} background calls before); 0 of {len(results)} failed, drained in "
        f"{drained:.1f}s, health saw {[NAMES.Name(s) for s in statuses]}, exit code 0"
    )
    record(
        "properties",
        {
            "10 SIGTERM under load: in flight (blocked + chatting)": f"{IN_FLIGHT} + {BACKGROUND}",
            "10 SIGTERM under load: failed": len(failed),
            "10 SIGTERM under load: drained in (s)": round(drained, 1),
            "10 SIGTERM under load: health": " → ".join(
                dict.fromkeys(NAMES.Name(s) for s in statuses)
            ),
        },
    )
