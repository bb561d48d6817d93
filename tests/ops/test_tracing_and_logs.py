"""One conversation turn across both services (in-process, real gRPC): with tracing on it is
one trace whose id the gateway gets back; log lines carry tenant, conversation and trace ids
and never the customer's text or a token."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.trace import SpanKind, format_trace_id

from agenda_kit import tracing
from agenda_kit.mongo import EmbeddedMongo
from tests.agent_service.integration.agent_fixtures import (
    AGENT_TOKEN,
    CALENDAR_TOKEN,
    AgentStack,
    Customer,
    agent_stack,
    agent_stub,
    booking_day,
    booking_request_text,
    channel_to,
    seed_demo_salon,
)
from tests.ops.log_capture import captured_events
from tests.waiting import until

pytest_plugins = ["tests.kit.mongo_fixtures"]


@pytest.fixture
def spans() -> Iterator[InMemorySpanExporter]:
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    tracing.enable_tracing(provider)
    yield exporter
    tracing.shutdown_tracing(provider)


@pytest.fixture
async def stack(embedded_mongo: EmbeddedMongo, tmp_path: Path) -> AsyncIterator[AgentStack]:
    async with agent_stack(embedded_mongo, tmp_path) as running:
        yield running


async def book(stack: AgentStack) -> tuple[str, list[Any]]:
    """Seed the demo salon, ask for a booking and confirm it; the tenant and the replies."""
    async with channel_to(stack.replicas[0].port) as channel:
        tenant_id = await seed_demo_salon(channel)
        customer = Customer(agent_stub(channel), tenant_id)
        asked = await customer.say(booking_request_text(booking_day()))
        done = await customer.say("sim, pode confirmar por favor")
    assert "Agendado" in done.reply, done.reply
    return tenant_id, [asked, done]


def by_trace(spans: InMemorySpanExporter, trace_id: str) -> list[ReadableSpan]:
    return [
        span
        for span in spans.get_finished_spans()
        if span.context is not None and format_trace_id(span.context.trace_id) == trace_id
    ]


async def test_a_turn_is_one_trace_across_both_services(
    spans: InMemorySpanExporter, stack: AgentStack
) -> None:
    _, (_, done) = await book(stack)

    turn = by_trace(spans, done.trace_id)
    names = {(span.name, span.kind) for span in turn}
    assert ("/agenda.agent.v1.AgentService/SendMessage", SpanKind.SERVER) in names
    assert ("/agenda.calendar.v1.CalendarService/CreateEvent", SpanKind.CLIENT) in names
    assert ("/agenda.calendar.v1.CalendarService/CreateEvent", SpanKind.SERVER) in names
    (server,) = [s for s in turn if s.kind is SpanKind.SERVER and "CreateEvent" in s.name]
    clients = {s.context.span_id for s in turn if s.kind is SpanKind.CLIENT and s.context}
    assert server.parent is not None and server.parent.span_id in clients
    assert not [s for s in spans.get_finished_spans() if "grpc.health" in s.name]


async def test_without_tracing_the_trace_id_is_still_a_fresh_id(stack: AgentStack) -> None:
    _, (asked, done) = await book(stack)

    for reply in (asked, done):
        assert len(reply.trace_id) == 32 and int(reply.trace_id, 16)
    assert asked.trace_id != done.trace_id


async def test_logs_carry_ids_and_no_message_text_or_secret(
    spans: InMemorySpanExporter, stack: AgentStack
) -> None:
    def rpc_logged(trace_id: str) -> bool:
        return any(e["event"] == "rpc" and e.get("trace_id") == trace_id for e in events)

    with captured_events() as events:
        tenant_id, replies = await book(stack)
        # A server logs its rpc line after it answered: wait for each turn's.
        await until(lambda: all(rpc_logged(r.trace_id) for r in replies), what="the rpc lines")

    first = replies[0]  # the first message of a new conversation: its lines name it too
    opening = [e for e in events if e.get("trace_id") == first.trace_id]
    assert {e.get("conversation_id") for e in opening if e["rpc"].startswith("agenda.agent.")} == {
        first.conversation_id
    }, opening
    done = replies[-1]
    turn = [e for e in events if e.get("trace_id") == done.trace_id]
    agent_lines = [e for e in turn if e["rpc"].startswith("agenda.agent.")]
    calendar_lines = [e for e in turn if e["rpc"].startswith("agenda.calendar.")]
    assert any(e["event"] == "rpc" for e in agent_lines), turn
    # The confirmation runs in code: its turn makes no model request, so it logs no usage line;
    # the turn that proposed the booking (a model run) does.
    assert not any(e["event"] == "model_usage" for e in agent_lines), agent_lines
    proposed = [e for e in events if e.get("trace_id") == replies[-2].trace_id]
    assert any(e["event"] == "model_usage" and "specialist" in e for e in proposed), proposed
    assert calendar_lines, "the calendar service's lines belong to the same trace"
    for event in agent_lines:
        assert event["conversation_id"] == done.conversation_id
        assert event["tenant_id"] == tenant_id
    assert {e["request_id"] for e in turn} == {agent_lines[0]["request_id"]}  # forwarded
    rendered = "\n".join(json.dumps(e, default=str) for e in events)
    secrets = [AGENT_TOKEN, CALENDAR_TOKEN, "Quero agendar", "pode confirmar", "Agendado"]
    for secret in secrets:
        assert secret not in rendered
