"""Issue 14 §5: the typed clients over several replicas — round_robin per call across real
servers on two ports, a stopped replica skipped, and a replica answering UNAVAILABLE retried
on the other one (never twice in a row on the same one)."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import grpc
import pytest

from agenda.agent.v1 import catalog_service_pb2 as catalog_pb
from agenda_kit.agent_client import AgentClient
from agenda_kit.calendar.grpc_client import GrpcCalendarAdapter
from agenda_kit.calendar.port import EventPage
from agenda_kit.grpc.balancing import channel_target
from agenda_kit.settings import SharedSettings
from calendar_service.bootstrap import CalendarApp, bootstrap
from calendar_service.infrastructure.settings import CalendarSettings
from tests.conftest import TOKEN
from tests.fakes.in_memory_calendar import InMemoryCalendar
from tests.fakes.in_memory_holds import InMemoryHolds

MONDAY = datetime(2030, 1, 7, tzinfo=UTC)
CALLS = 40


class CountingCalendar(InMemoryCalendar):
    """An in-memory backend that counts the ListEvents it serves (one per replica)."""

    def __init__(self) -> None:
        super().__init__()
        self.listed = 0

    async def list_events(self, *args: Any, **kwargs: Any) -> EventPage:
        self.listed += 1
        return await super().list_events(*args, **kwargs)


@pytest.fixture
async def replicas(tmp_path: Path) -> AsyncIterator[list[tuple[CalendarApp, CountingCalendar]]]:
    started = []
    for n in range(2):
        backend = CountingCalendar()
        settings = CalendarSettings(grpc_port=0, auth_tokens=[TOKEN], metrics_port=0)
        app = await bootstrap(
            settings,
            SharedSettings(AGENDA_DATA_DIR=tmp_path / str(n)),
            backend=backend,
            holds=InMemoryHolds(),
        )
        await app.start()
        started.append((app, backend))
    yield started
    for app, _ in started:
        await app.stop(0)


async def list_once(client: GrpcCalendarAdapter) -> None:
    await client.list_events("ana", MONDAY, MONDAY + timedelta(days=1))


async def test_calls_spread_over_both_replicas_and_a_stopped_one_is_skipped(
    replicas: list[tuple[CalendarApp, CountingCalendar]],
) -> None:
    addresses = [f"127.0.0.1:{app.port}" for app, _ in replicas]
    async with GrpcCalendarAdapter.connect(addresses, token=TOKEN) as client:
        for _ in range(CALLS):
            await list_once(client)
        counts = [backend.listed for _, backend in replicas]
        assert sum(counts) == CALLS
        assert min(counts) >= CALLS // 4, counts  # round_robin: about half each

        await replicas[1][0].stop(0)
        before = replicas[0][1].listed
        for _ in range(CALLS):
            await list_once(client)  # none fails: the dead replica is not picked
        assert replicas[0][1].listed - before == CALLS
        assert client.stats.calls == 2 * CALLS


async def test_a_dns_name_and_a_comma_separated_list_are_accepted(
    replicas: list[tuple[CalendarApp, CountingCalendar]],
) -> None:
    ports = [app.port for app, _ in replicas]
    assert channel_target(f"localhost:{ports[0]}") == f"localhost:{ports[0]}"
    assert channel_target(f"127.0.0.1:{ports[0]}, 127.0.0.1:{ports[1]}") == (
        f"ipv4:127.0.0.1:{ports[0]},127.0.0.1:{ports[1]}"
    )
    assert channel_target([f"[::1]:{ports[0]}", f"[::1]:{ports[1]}"]) == (
        f"ipv6:[::1]:{ports[0]},[::1]:{ports[1]}"
    )
    with pytest.raises(ValueError, match="host:port"):
        channel_target("127.0.0.1,127.0.0.2")
    async with GrpcCalendarAdapter.connect(
        f"localhost:{ports[0]},127.0.0.1:{ports[1]}", token=TOKEN
    ) as client:
        for _ in range(10):
            await list_once(client)
    assert all(backend.listed > 0 for _, backend in replicas)


Handler = Callable[[bytes, grpc.aio.ServicerContext[Any, Any]], Awaitable[bytes]]


async def start_replica(
    behaviour: Handler, hits: list[str], name: str
) -> tuple[grpc.aio.Server, int]:
    """A real server answering ``CatalogService/GetTenant`` with ``behaviour``."""

    async def handle(request: bytes, context: grpc.aio.ServicerContext[Any, Any]) -> bytes:
        hits.append(name)
        return await behaviour(request, context)

    handler = grpc.method_handlers_generic_handler(
        "agenda.agent.v1.CatalogService",
        {"GetTenant": grpc.unary_unary_rpc_method_handler(handle)},
    )
    server = grpc.aio.server()
    server.add_generic_rpc_handlers((handler,))
    port = server.add_insecure_port("127.0.0.1:0")
    await server.start()
    return server, port


TENANT_ID = "00000000-0000-4000-8000-000000000000"


def agent_client(*ports: int) -> AgentClient:
    """An ``AgentClient`` balancing over the replicas on ``ports``."""
    return AgentClient.connect([f"127.0.0.1:{port}" for port in ports], token="t")


async def unavailable(_request: bytes, context: grpc.aio.ServicerContext[Any, Any]) -> bytes:
    await context.abort(grpc.StatusCode.UNAVAILABLE, "draining")
    raise AssertionError("abort raises")


async def answer(_request: bytes, _context: grpc.aio.ServicerContext[Any, Any]) -> bytes:
    response = catalog_pb.GetTenantResponse(tenant=catalog_pb.Tenant(name="Salão"))
    return response.SerializeToString()


async def test_unavailable_from_one_replica_is_retried_on_the_other() -> None:
    hits: list[str] = []
    bad, bad_port = await start_replica(unavailable, hits, "bad")
    good, good_port = await start_replica(answer, hits, "good")
    try:
        async with agent_client(bad_port, good_port) as client:
            # Warm up until both subchannels are READY (round_robin picks among READY ones
            # only; on a loaded machine the second may connect a few calls later).
            for _ in range(50):
                await client.get_tenant(TENANT_ID)
                if "good" in hits and "bad" in hits:
                    break
            hits.clear()
            retries_before = client.stats.retries
            for _ in range(CALLS):
                tenant = await client.get_tenant(TENANT_ID)
                assert tenant.name == "Salão"
    finally:
        await bad.stop(0)
        await good.stop(0)
    retries = client.stats.retries - retries_before
    assert hits.count("good") == CALLS  # every call succeeded, each on the good replica
    assert 0 < hits.count("bad") == retries  # every retry left the bad one
    repeats = sum(1 for a, b in itertools.pairwise(hits) if a == b == "bad")
    assert repeats == 0, hits


AT_ONCE = 200


async def test_calls_a_stopping_replica_dropped_unstarted_are_answered_by_the_other() -> None:
    """A grpc.aio server stopping gracefully finishes the calls it started, but the calls it
    had accepted and not yet started end with CANCELLED (never a caller's own cancellation,
    which is an asyncio.CancelledError): the client takes them to the other replica, so a
    rolling restart under load loses no call, and none runs twice."""
    hits: list[str] = []
    first_hit = asyncio.Event()

    async def slow(request: bytes, context: grpc.aio.ServicerContext[Any, Any]) -> bytes:
        first_hit.set()
        await asyncio.sleep(0.05)  # calls pile up behind the running ones
        return await answer(request, context)

    stopping, stopping_port = await start_replica(slow, hits, "stopping")
    staying, staying_port = await start_replica(slow, hits, "staying")
    try:
        async with agent_client(stopping_port, staying_port) as client:
            calls = [asyncio.create_task(client.get_tenant(TENANT_ID)) for _ in range(AT_ONCE)]
            await first_hit.wait()
            await stopping.stop(5)  # graceful: started calls finish
            tenants = await asyncio.gather(*calls)
    finally:
        await staying.stop(0)
    assert [t.name for t in tenants] == ["Salão"] * AT_ONCE
    assert len(hits) == AT_ONCE  # each call handled exactly once, on one replica or the other
