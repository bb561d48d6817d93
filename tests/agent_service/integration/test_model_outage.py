"""A model outage is visible (issue 23): with the OpenAI-compatible model server down, a message
fails with UNAVAILABLE (MODEL_UNAVAILABLE, RetryInfo) and stores nothing a retry would
replay, the model's health entry turns NOT_SERVING, a counter counts it, one warning line says
why; with the server back, the entry is SERVING again and the retry of the same message id
gets the real answer. The server is ``tests/fakes/openai_server`` behind a TCP proxy the test
cuts and restores; health is watched (``Health/Watch``), so the test waits on status changes,
never on a time."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from urllib.parse import urlsplit

import grpc
import pytest
import structlog
from grpc_health.v1 import health_pb2, health_pb2_grpc
from prometheus_client import REGISTRY

from agenda.agent.v1 import agent_service_pb2 as pb
from agenda_kit.errors import details_of
from agenda_kit.mongo import EmbeddedMongo
from agent_service.infrastructure.agent.model_health import MODEL_COMPONENT
from tests.agent_service.integration.agent_fixtures import (
    AUTH,
    Customer,
    agent_stack,
    agent_stub,
    channel_to,
    seed_demo_salon,
)
from tests.fakes.openai_server import running_openai_server, salon_script
from tests.ops.tcp_proxy import TcpProxy

pytest_plugins = ["tests.kit.mongo_fixtures"]
SERVING = health_pb2.HealthCheckResponse.SERVING
NOT_SERVING = health_pb2.HealthCheckResponse.NOT_SERVING
ASKED = "Qual é o endereço?"


def failures(cause: str) -> float:
    value = REGISTRY.get_sample_value("agenda_model_failures_total", {"cause": cause})
    return value or 0.0


async def next_status(statuses: AsyncIterator[health_pb2.HealthCheckResponse], wanted: int) -> None:
    async for reply in statuses:
        if reply.status == wanted:
            return
    raise AssertionError("the health stream ended")


async def test_model_down_fails_visibly_then_recovers(
    embedded_mongo: EmbeddedMongo, tmp_path: Path
) -> None:
    async with running_openai_server(salon_script) as fake:
        proxy = TcpProxy(urlsplit(fake.root_url).port or 0)
        await proxy.open()
        async with agent_stack(embedded_mongo, tmp_path, replicas=0) as stack:
            app = await stack.start_replica(
                shared={"AGENDA_HEALTH_INTERVAL_SECONDS": 0.05},
                model="openai-chat:fake-model",
                openai_base_url=f"http://127.0.0.1:{proxy.port}/v1",
                openai_api_key=fake.api_key,
            )
            async with channel_to(app.port) as channel:
                maria = Customer(agent_stub(channel), await seed_demo_salon(channel))
                watch = health_pb2_grpc.HealthStub(channel).Watch(
                    health_pb2.HealthCheckRequest(service=MODEL_COMPONENT), metadata=AUTH
                )
                await next_status(watch, SERVING)
                before = failures("connection")
                await proxy.close()  # the model server is unreachable
                request = maria.request(ASKED, "wamid-down")
                with structlog.testing.capture_logs() as logs:
                    with pytest.raises(grpc.aio.AioRpcError) as down:
                        await maria.stub.SendMessage(request, metadata=AUTH, timeout=60)
                    await next_status(watch, NOT_SERVING)
                    streamed = maria.stub.StreamMessage(
                        pb.StreamMessageRequest(message=maria.request(ASKED, "wamid-stream")),
                        metadata=AUTH,
                        timeout=60,
                    )
                    with pytest.raises(grpc.aio.AioRpcError) as stream_down:
                        async for _ in streamed:
                            pass
                await proxy.open()  # back
                await next_status(watch, SERVING)
                answer = await maria.stub.SendMessage(request, metadata=AUTH, timeout=60)
                watch.cancel()
    for failed in (down.value, stream_down.value):
        assert failed.code() is grpc.StatusCode.UNAVAILABLE, failed.details()
        details = details_of(failed)
        assert details.reason == "MODEL_UNAVAILABLE" and details.domain == "agent.agenda"
        assert details.metadata["cause"] == "connection" and details.retry_delay
    assert failures("connection") == before + 2
    # One warning line per failed message, saying why; no traceback at warning or above.
    warned = [e for e in logs if e["log_level"] in ("warning", "error", "critical")]
    assert [e["event"] for e in warned if e["event"] == "model_request_failed"] == [
        "model_request_failed"
    ] * 2, warned
    assert all(
        e.get("cause") == "connection" for e in warned if e["event"] == "model_request_failed"
    )
    assert not [e for e in warned if "exc_info" in e or "exception" in e], warned
    assert not answer.duplicate and "Rua das Flores" in answer.reply, answer.reply
