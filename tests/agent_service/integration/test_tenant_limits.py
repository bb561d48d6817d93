"""The per-tenant message rate in MongoDB (issue 14 §1), on the embedded server, with a clock
the test moves: the token bucket admits ``burst`` then ``per_minute`` even when "replicas"
(separate clients) race — with the retry hint the caller gets. (The concurrent-turn limit is
kept on the message claims: ``test_claim_slots``.)"""

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
from agent_service.domain.errors import CapacityExceededError
from agent_service.infrastructure.grpc.errors import AGENT_ERRORS
from agent_service.infrastructure.mongo.tenant_limits import MongoMessageRate, open_message_rate

pytest_plugins = ["tests.kit.mongo_fixtures"]


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


def rate_of(
    client: AsyncMongoClient[Any],
    database: str,
    clock: Clock,
    per_minute: float = 60,
    burst: int = 5,
) -> MongoMessageRate:
    rate = open_message_rate(client, database, per_minute=per_minute, burst=burst, clock=clock)
    assert rate is not None
    return rate


async def test_the_token_bucket_admits_the_burst_then_the_rate(
    replicas: list[AsyncMongoClient[Any]], database_name: str
) -> None:
    clock, tenant = Clock(), uuid4()
    rates = [rate_of(c, database_name, clock, per_minute=60, burst=5) for c in replicas]
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
    gate = ClusterTenantGate(rate_of(replicas[0], database_name, clock, per_minute=60, burst=3))
    for _ in range(3):
        async with gate.admit(tenant):
            pass
    with pytest.raises(CapacityExceededError, match="per minute") as flooded:
        async with gate.admit(tenant):
            pass
    assert flooded.value.retry_after_seconds == pytest.approx(1.0)


def test_no_rate_is_kept_when_the_limit_is_off(
    mongo_client: AsyncMongoClient[Any], database_name: str
) -> None:
    assert (
        open_message_rate(mongo_client, database_name, per_minute=0, burst=5, clock=Clock()) is None
    )


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
