"""Both services as processes: drive a booking, scrape ``/metrics`` over HTTP and check every
family; the processes' JSON logs carry the ids and never the customer's text."""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from prometheus_client.parser import text_string_to_metric_families
from prometheus_client.samples import Sample

from tests.agent_service.integration.agent_fixtures import (
    AGENT_TOKEN,
    CALENDAR_TOKEN,
    Customer,
    agent_stub,
    booking_day,
    booking_request_text,
    channel_to,
    seed_demo_salon,
)
from tests.e2e.agent_processes import Ports, Services, running_services
from tests.e2e.processes import free_port
from tests.ops.health_probe import SERVING, wait_status
from tests.waiting import until_sync

pytestmark = pytest.mark.slow
CALENDAR = "agenda.calendar.v1.CalendarService"
REQUEST_TEXT = booking_request_text(booking_day())


@dataclass(frozen=True)
class MetricPorts(Ports):
    calendar_metrics: int = 0
    agent_metrics: int = 0

    def env(self) -> dict[str, str]:
        return {
            **super().env(),
            "CALENDAR_METRICS_PORT": str(self.calendar_metrics),
            "AGENT_METRICS_PORT": str(self.agent_metrics),
        }


@dataclass(frozen=True)
class Running:
    services: Services
    ports: MetricPorts


@pytest.fixture(scope="module")
def running(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Running]:
    ports = MetricPorts(free_port(), free_port(), free_port(), free_port())
    settings = {
        "CALENDAR_AUTH_TOKENS": CALENDAR_TOKEN,
        "AGENT_AUTH_TOKENS": AGENT_TOKEN,
        "AGENT_CALENDAR_TOKEN": CALENDAR_TOKEN,
        "AGENDA_HEALTH_INTERVAL_SECONDS": "0.5",
    }
    with running_services(tmp_path_factory.mktemp("ops"), ports, **settings) as services:
        yield Running(services, ports)


@pytest.fixture(scope="module")
def booked(running: Running) -> dict[str, str]:
    """A booking through the agent (offline model): ids of the tenant and the conversation."""
    import asyncio

    async def book() -> dict[str, str]:
        async with channel_to(running.services.agent.port) as channel:
            tenant_id = await seed_demo_salon(channel)
            customer = Customer(agent_stub(channel), tenant_id)
            await customer.say(REQUEST_TEXT)
            done = await customer.say("sim")
            assert "Agendado" in done.reply, done.reply
            await wait_status(channel, CALENDAR, SERVING)
            return {
                "tenant_id": tenant_id,
                "conversation_id": done.conversation_id,
                "trace_id": done.trace_id,
            }

    return asyncio.run(book())


def scrape(port: int) -> list[Sample]:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10) as response:
        assert response.status == 200
        text = response.read().decode()
    return [sample for family in text_string_to_metric_families(text) for sample in family.samples]


def families(port: int) -> set[str]:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10) as response:
        text = response.read().decode()
    declared = (line.split()[2] for line in text.splitlines() if line.startswith("# TYPE "))
    return {name.removesuffix("_total") for name in declared}


def value(samples: list[Sample], name: str, **labels: str) -> float:
    """The sum of the samples named ``name`` whose labels include ``labels``."""
    return sum(
        s.value
        for s in samples
        if s.name == name and all(s.labels.get(k) == v for k, v in labels.items())
    )


def scrape_when(port: int, name: str, at_least: float, **labels: str) -> list[Sample]:
    """A scrape once ``name{labels}`` reached ``at_least``: a server counts a call after it
    answered it, so the count is waited for, not assumed."""

    def counted() -> list[Sample]:
        found = scrape(port)
        return found if value(found, name, **labels) >= at_least else []

    return until_sync(counted, what=f"{name}{labels} >= {at_least}")


def test_calendar_service_metrics(running: Running, booked: dict[str, str]) -> None:
    rpc = {"service": CALENDAR, "code": "OK"}
    samples = scrape_when(
        running.ports.calendar_metrics, "agenda_rpc_latency_seconds_count", 1,
        method="CreateEvent", **rpc,
    )  # fmt: skip
    assert value(samples, "agenda_rpc_requests_total", method="CreateEvent", **rpc) >= 1
    assert value(samples, "agenda_rpc_latency_seconds_count", method="GetFreeSlots", **rpc) >= 1
    assert value(samples, "agenda_cache_requests_total", cache="calendar_freebusy") >= 1
    assert value(samples, "agenda_dependency_up", dependency="mongodb") == 1
    assert {
        "agenda_google_api_requests",
        "agenda_google_api_retries",
        "agenda_google_api_errors",
    } <= families(running.ports.calendar_metrics)  # used with CALENDAR_BACKEND=google


def test_agent_service_metrics(running: Running, booked: dict[str, str]) -> None:
    send = {"service": "agenda.agent.v1.AgentService", "method": "SendMessage", "code": "OK"}
    samples = scrape_when(
        running.ports.agent_metrics, "agenda_rpc_latency_seconds_count", 2, **send
    )
    assert value(samples, "agenda_rpc_requests_total", **send) == 2
    assert value(samples, "agenda_rpc_latency_seconds_count", **send) == 2
    assert value(samples, "agenda_model_requests_total", specialist="booking") >= 1
    assert value(samples, "agenda_model_tokens_total", direction="input") > 0
    assert value(samples, "agenda_model_tokens_total", direction="output") > 0
    assert value(samples, "agenda_bookings_total", operation="book", outcome="booked") == 1
    closed = value(samples, "agenda_circuit_breaker_state", breaker="calendar", state="closed")
    assert closed == 1
    assert value(samples, "agenda_circuit_breaker_state", breaker="calendar", state="open") == 0
    lookups = value(samples, "agenda_cache_requests_total", cache="calendar_client_free_slots")
    assert lookups >= 1
    assert value(samples, "agenda_dependency_up", dependency="mongodb") == 1
    assert value(samples, "agenda_dependency_up", dependency=CALENDAR) == 1


def json_lines(path: Path, *, complete: bool = False) -> list[dict[str, object]]:
    """Every line of a process's log, each a JSON object; ``complete``: only finished lines
    (the process may be writing the last one)."""
    text = path.read_text()
    if complete:
        text = text[: text.rfind("\n") + 1]
    lines = [line for line in text.splitlines() if line.strip()]
    parsed = [json.loads(line) for line in lines]  # every line is a JSON object
    assert all(isinstance(entry, dict) for entry in parsed)
    return parsed


def test_process_logs_are_json_with_ids_and_no_message_text(
    running: Running, booked: dict[str, str]
) -> None:
    def turn_logged() -> list[dict[str, object]]:
        """The turn's lines once its ``rpc`` line is written (after the reply went out)."""
        turn = [e for e in json_lines(running.services.agent.log_path, complete=True)
                if e.get("trace_id") == booked["trace_id"]]  # fmt: skip
        return turn if any(entry["event"] == "rpc" for entry in turn) else []

    turn = until_sync(turn_logged, what="the agent's rpc line of the turn")
    calendar_log = json_lines(running.services.calendar.log_path)
    for entry in turn:
        assert entry["tenant_id"] == booked["tenant_id"]
        assert entry["conversation_id"] == booked["conversation_id"]
        assert entry["request_id"]
    request_ids = {entry["request_id"] for entry in turn}
    assert any(entry.get("request_id") in request_ids for entry in calendar_log)
    for path in (running.services.agent.log_path, running.services.calendar.log_path):
        text = path.read_text()
        for secret in (REQUEST_TEXT, "Agendado", AGENT_TOKEN, CALENDAR_TOKEN):
            assert secret not in text, (path.name, secret)
