"""``AgentService.StreamOutbox`` / ``AckOutbox`` over a real gRPC server on the embedded MongoDB:
at-least-once (a message comes again until acknowledged), resumable from a cursor, scoped to
the tenant the request names, clear errors for bad input."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from pathlib import Path
from uuid import UUID, uuid4

import grpc
import pytest

from agenda.agent.v1 import agent_service_pb2 as pb
from agenda_kit.mongo import EmbeddedMongo
from agent_service.domain.catalog import Tenant
from agent_service.domain.outbox import OutboxKind, OutboxMessage
from tests.agent_service.integration.agent_fixtures import (
    AUTH,
    agent_stack,
    agent_stub,
    channel_to,
    seed_demo_salon,
)

pytest_plugins = ["tests.kit.mongo_fixtures"]
LONG_AGO = datetime(2020, 1, 1, tzinfo=UTC)


def message(tenant_id: UUID, n: int) -> OutboxMessage:
    return OutboxMessage(
        id=uuid4(),
        tenant_id=tenant_id,
        kind=OutboxKind.BOOKING_CONFIRMED,
        customer_id=uuid4(),
        channel="whatsapp",
        external_id=f"55119000{n:04d}",
        text=f"Confirmado {n}",
        deliver_at=LONG_AGO + timedelta(minutes=n),
    )


async def streamed(stub: object, tenant_id: str, cursor: str = "") -> list[pb.StreamOutboxResponse]:
    request = pb.StreamOutboxRequest(tenant_id=tenant_id, cursor=cursor)
    return [r async for r in stub.StreamOutbox(request, metadata=AUTH)]  # type: ignore[attr-defined]


async def test_stream_resume_ack_and_scoping(embedded_mongo: EmbeddedMongo, tmp_path: Path) -> None:
    async with agent_stack(embedded_mongo, tmp_path) as stack:
        app = stack.replicas[0]
        async with channel_to(app.port) as channel:
            tenant_id = await seed_demo_salon(channel)
            other_id = str((await app.repos.tenants.add(Tenant(name="Outra"))).id)
            stub = agent_stub(channel)
            written = [message(UUID(tenant_id), n) for n in range(5)]
            for m in written:
                await app.repos.outbox.add(m)
            await app.repos.outbox.add(message(UUID(other_id), 9))

            everything = await streamed(stub, tenant_id)
            assert [r.message.id for r in everything] == [str(m.id) for m in written]
            first = everything[0].message
            assert (first.customer.channel, first.customer.external_id) == (
                "whatsapp",
                "551190000000",
            )
            assert first.kind == pb.OUTBOX_KIND_BOOKING_CONFIRMED and first.text == "Confirmado 0"
            resumed = await streamed(stub, tenant_id, everything[1].cursor)
            assert [r.message.id for r in resumed] == [str(m.id) for m in written[2:]]

            ack = pb.AckOutboxRequest(tenant_id=tenant_id, message_ids=[str(written[0].id)] * 2)
            assert (await stub.AckOutbox(ack, metadata=AUTH)).acknowledged == 1
            assert (await stub.AckOutbox(ack, metadata=AUTH)).acknowledged == 0
            again = await streamed(stub, tenant_id)  # unacknowledged ones come again
            assert [r.message.id for r in again] == [str(m.id) for m in written[1:]]
            foreign = pb.AckOutboxRequest(tenant_id=other_id, message_ids=[str(written[1].id)])
            assert (await stub.AckOutbox(foreign, metadata=AUTH)).acknowledged == 0
            assert len(await streamed(stub, other_id)) == 1


async def test_bad_requests_are_clear_errors(embedded_mongo: EmbeddedMongo, tmp_path: Path) -> None:
    async with (
        agent_stack(embedded_mongo, tmp_path) as stack,
        channel_to(stack.replicas[0].port) as channel,
    ):
        tenant_id = await seed_demo_salon(channel)
        stub = agent_stub(channel)
        cases = [
            (pb.StreamOutboxRequest(tenant_id="nope"), grpc.StatusCode.INVALID_ARGUMENT),
            (
                pb.StreamOutboxRequest(tenant_id=tenant_id, cursor="garbage!"),
                grpc.StatusCode.INVALID_ARGUMENT,
            ),
            (pb.StreamOutboxRequest(tenant_id=str(uuid4())), grpc.StatusCode.NOT_FOUND),
        ]
        for request, code in cases:
            with pytest.raises(grpc.aio.AioRpcError) as failed:
                _ = [r async for r in stub.StreamOutbox(request, metadata=AUTH)]
            assert failed.value.code() is code, request
        for ack, code in [
            (pb.AckOutboxRequest(tenant_id=tenant_id), grpc.StatusCode.INVALID_ARGUMENT),
            (
                pb.AckOutboxRequest(tenant_id=tenant_id, message_ids=["x"]),
                grpc.StatusCode.INVALID_ARGUMENT,
            ),
        ]:
            with pytest.raises(grpc.aio.AioRpcError) as failed:
                await stub.AckOutbox(ack, metadata=AUTH)
            assert failed.value.code() is code
        with pytest.raises(grpc.aio.AioRpcError) as unauthenticated:
            await stub.AckOutbox(pb.AckOutboxRequest(tenant_id=tenant_id, message_ids=[]))
        assert unauthenticated.value.code() is grpc.StatusCode.UNAUTHENTICATED


async def test_a_long_poll_delivers_a_message_that_falls_due_while_it_waits(
    embedded_mongo: EmbeddedMongo, tmp_path: Path
) -> None:
    async with (
        agent_stack(embedded_mongo, tmp_path) as stack,
        channel_to(stack.replicas[0].port) as channel,
    ):
        app = stack.replicas[0]
        tenant_id = await seed_demo_salon(channel)
        stub = agent_stub(channel)
        call = stub.StreamOutbox(
            pb.StreamOutboxRequest(tenant_id=tenant_id, wait_seconds=20), metadata=AUTH
        )
        late = message(UUID(tenant_id), 1)

        async def first() -> pb.StreamOutboxResponse:
            async for response in call:
                return response
            raise AssertionError("the long poll ended without the message")

        reading = asyncio.ensure_future(first())
        # Let the stream open and find nothing due first (had the message come before, it
        # would be delivered all the same: a slow machine makes this test weaker, not flaky).
        await asyncio.sleep(0.5)
        await app.repos.outbox.add(late)
        received = await reading
        call.cancel()
        assert received.message.id == str(late.id)
        too_long = pb.StreamOutboxRequest(tenant_id=tenant_id, wait_seconds=21)
        with pytest.raises(grpc.aio.AioRpcError) as refused:
            _ = [r async for r in stub.StreamOutbox(too_long, metadata=AUTH)]
        assert refused.value.code() is grpc.StatusCode.INVALID_ARGUMENT
