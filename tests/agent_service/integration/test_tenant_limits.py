"""The per-tenant limits in MongoDB (issue 14 §1), on the embedded server, with a clock the test
moves: slots are never over-granted even when "replicas" (separate clients) race, a dead
holder's slot frees itself when its lease expires, and the token bucket admits ``burst`` then
``per_minute`` — with the retry hint the caller gets."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from typing import Any
from uuid import uuid4

import grpc
import pytest
from pymongo import AsyncMongoClient

from agenda_kit.errors import PUSHBACK_KEY, RETRY_AFTER_KEY
from agenda_kit.grpc.context import RequestContextInterceptor
from agenda_kit.mongo import EmbeddedMongo, make_client
from agent_service.application.tenant_gate import ClusterTenantGate
from agent_service.domain.errors import CapacityExceededError, StorageUnavailableError
from agent_service.infrastructure.grpc.errors import AGENT_ERRORS
from agent_service.infrastructure.mongo.tenant_limits import (
    MongoMessageRate,
    MongoTurnSlots,
    open_tenant_limits,
)

pytest_plugins = ["tests.kit.mongo_fixtures"]

LEASE = timedelta(seconds=30)


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


@pytest.fixture
async def replicas(
    embedded_mongo: EmbeddedMongo, mongo_client: AsyncMongoClient[Any], database_name: str
) -> AsyncIterator[list[AsyncMongoClient[Any]]]:
    """Three clients (one per simulated replica) on one database."""
    clients = [make_client(embedded_mongo.uri) for _ in range(3)]
    yield clients
    for client in clients:
        await client.close()


async def limits(
    client: AsyncMongoClient[Any],
    database: str,
    clock: Clock,
    per_minute: float = 60,
    burst: int = 5,
) -> tuple[MongoTurnSlots, MongoMessageRate]:
    slots, rate = await open_tenant_limits(
        client, database, lease=LEASE, per_minute=per_minute, burst=burst, clock=clock
    )
    assert rate is not None
    return slots, rate


async def test_racing_replicas_never_hold_more_than_the_limit(
    replicas: list[AsyncMongoClient[Any]], database_name: str
) -> None:
    clock, tenant, other = Clock(), uuid4(), uuid4()
    slots = [(await limits(c, database_name, clock))[0] for c in replicas]
    attempts = [slots[i % 3].acquire(tenant, 8) for i in range(60)]
    leases = [lease for lease in await asyncio.gather(*attempts) if lease is not None]
    assert len(leases) == 8
    assert sorted(lease.slot for lease in leases) == list(range(8))
    assert await slots[0].live(tenant) == 8
    assert await slots[1].acquire(tenant, 8) is None
    assert await slots[2].acquire(other, 8) is not None  # tenants never share slots
    await slots[2].release(leases[0])
    again = await slots[1].acquire(tenant, 8)
    assert again is not None and again.slot == leases[0].slot


async def test_a_dead_replicas_slots_free_themselves_when_the_lease_expires(
    replicas: list[AsyncMongoClient[Any]], database_name: str
) -> None:
    clock, tenant = Clock(), uuid4()
    dead, alive = [(await limits(c, database_name, clock))[0] for c in replicas[:2]]
    held = [await dead.acquire(tenant, 2) for _ in range(2)]
    assert all(held) and await alive.acquire(tenant, 2) is None
    clock.advance(LEASE.total_seconds() - 1)
    assert await alive.acquire(tenant, 2) is None  # still within the lease
    clock.advance(1)
    taken = await alive.acquire(tenant, 2)
    assert taken is not None and await alive.live(tenant) == 1
    assert held[0] is not None and held[1] is not None
    renewed = [await dead.renew(held[0]), await dead.renew(held[1])]
    assert sorted(renewed) == [False, True]  # the one taken over is lost; the other is renewed
    lost = held[0] if not renewed[0] else held[1]
    await dead.release(lost)
    assert await alive.live(tenant) == 2  # a stale holder's release frees nothing


async def test_renewal_keeps_a_long_turn_s_slot(
    replicas: list[AsyncMongoClient[Any]], database_name: str
) -> None:
    clock, tenant = Clock(), uuid4()
    slots = (await limits(replicas[0], database_name, clock))[0]
    lease = await slots.acquire(tenant, 1)
    assert lease is not None
    for _ in range(5):  # a turn five leases long, renewed every 2/3 lease
        clock.advance(LEASE.total_seconds() * 2 / 3)
        assert await slots.renew(lease)
    assert await slots.acquire(tenant, 1) is None


async def test_the_token_bucket_admits_the_burst_then_the_rate(
    replicas: list[AsyncMongoClient[Any]], database_name: str
) -> None:
    clock, tenant = Clock(), uuid4()
    rates = [(await limits(c, database_name, clock, per_minute=60, burst=5))[1] for c in replicas]
    taken = await asyncio.gather(*(rates[i % 3].take(tenant) for i in range(20)))
    assert taken.count(None) == 5
    waits = [w for w in taken if w is not None]
    assert all(0 < w <= 1.0 for w in waits)
    clock.advance(2.5)  # 60/min = one a second: two more tokens (and half of a third)
    assert [await rates[1].take(tenant) for _ in range(2)] == [None, None]
    wait = await rates[2].take(tenant)
    assert wait == pytest.approx(0.5)
    clock.advance(3600)
    assert [await rates[0].take(tenant) is None for _ in range(6)] == [True] * 5 + [False]
    assert await rates[0].take(uuid4()) is None  # another tenant has its own bucket


async def test_the_cluster_gate_refuses_with_a_retry_hint(
    replicas: list[AsyncMongoClient[Any]], database_name: str
) -> None:
    clock, tenant = Clock(), uuid4()
    slots, rate = await limits(replicas[0], database_name, clock, per_minute=60, burst=3)
    gate = ClusterTenantGate(slots, 2, renew_every=10, rate=rate)
    async with gate.admit(tenant), gate.admit(tenant):
        with pytest.raises(CapacityExceededError, match="limit 2") as busy:
            async with gate.admit(tenant):
                pass
    assert busy.value.retry_after_seconds == 1.0
    assert await slots.live(tenant) == 0  # released on the way out (and none for the refusal)
    with pytest.raises(CapacityExceededError, match="per minute") as flooded:
        async with gate.admit(tenant):
            pass
    assert flooded.value.retry_after_seconds == pytest.approx(1.0)


async def test_the_retry_hint_reaches_the_caller_in_trailing_metadata() -> None:
    """A real server with the agent's error table: RESOURCE_EXHAUSTED + both hint keys."""

    async def refuse(_request: bytes, _context: grpc.aio.ServicerContext[Any, Any]) -> bytes:
        raise CapacityExceededError("too many", retry_after_seconds=2.5)

    handler = grpc.method_handlers_generic_handler(
        "test.Limits", {"Call": grpc.unary_unary_rpc_method_handler(refuse)}
    )
    server = grpc.aio.server(interceptors=[RequestContextInterceptor(AGENT_ERRORS)])
    server.add_generic_rpc_handlers((handler,))
    port = server.add_insecure_port("127.0.0.1:0")
    await server.start()
    try:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
            call: grpc.aio.UnaryUnaryMultiCallable[bytes, bytes] = channel.unary_unary(
                "/test.Limits/Call"
            )
            with pytest.raises(grpc.aio.AioRpcError) as refused:
                await call(b"")
    finally:
        await server.stop(0)
    error = refused.value
    assert error.code() is grpc.StatusCode.RESOURCE_EXHAUSTED
    trailers = dict(error.trailing_metadata() or ())
    assert trailers[RETRY_AFTER_KEY] == trailers[PUSHBACK_KEY] == "2500"


class FlakySlots(MongoTurnSlots):
    """Slots whose release finds the database unavailable."""

    async def release(self, lease: Any) -> None:
        raise StorageUnavailableError()


async def test_a_failed_release_does_not_fail_the_turn_and_the_lease_frees_the_slot(
    replicas: list[AsyncMongoClient[Any]], database_name: str
) -> None:
    clock, tenant = Clock(), uuid4()
    collection = replicas[0][database_name]["tenant_turn_slots"]
    flaky = FlakySlots(collection, lease=LEASE, clock=clock)
    gate = ClusterTenantGate(flaky, 1, renew_every=10)
    async with gate.admit(tenant):
        pass  # no error although the release failed
    assert await flaky.live(tenant) == 1
    clock.advance(LEASE.total_seconds())
    assert await flaky.live(tenant) == 0
