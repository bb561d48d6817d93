"""Issue 14 §6: the capacity model's inputs, measured, and the sizing table derived from them.

Both services run in this process on the embedded MongoDB (the agent with its real MongoDB
repositories and cluster-wide tenant limits; the calendar service over a counting in-memory
backend: every backend call is one Google Calendar request with the Google backend, before
retries and token refreshes). Booking conversations of six turns (greet, services, free times,
ask to book, confirm, FAQ) run four at a time. Measured: CPU time of this process per turn
(both services and the client together: an upper bound for the services), MongoDB commands per
turn on the agent's database (a pymongo command listener), backend requests per conversation.

With ``AGENDA_RECORD_FIGURES=1`` the inputs and the sizing table (``capacity_model.sizing``)
are recorded as the figures suite ``capacity`` rendered in docs/deployment.md. The figures are
reported, not judged; the test checks only that every turn succeeded and that the recorded
table is the model applied to the recorded inputs.
"""

from __future__ import annotations

import asyncio
import time
import uuid
from collections import Counter
from pathlib import Path
from typing import Any

from pymongo import monitoring

from agenda.agent.v1 import agent_service_pb2_grpc as pb_grpc
from agenda_kit.calendar.port import CalendarEvent, EventDraft, FreeBusy
from agenda_kit.mongo import EmbeddedMongo
from agenda_kit.settings import SharedSettings
from agent_service.bootstrap import bootstrap as agent_bootstrap
from agent_service.infrastructure.settings import AgentSettings
from calendar_service.bootstrap import bootstrap as calendar_bootstrap
from calendar_service.infrastructure.settings import CalendarSettings
from tests import figures
from tests.agent_service.integration.agent_fixtures import (
    AGENT_TOKEN,
    CALENDAR_TOKEN,
    Customer,
    channel_to,
    seed_demo_salon,
)
from tests.bench import capacity_model
from tests.bench.capacity_model import Measured
from tests.fakes.in_memory_calendar import InMemoryCalendar
from tests.reliability.scale import size
from tests.reliability.stacks import working_days

pytest_plugins = ["tests.kit.mongo_fixtures"]

CONVERSATIONS = size(8, 40)
AT_ONCE = 4
SUITE = "capacity"
_HOUSEKEEPING = frozenset({"hello", "ismaster", "isMaster", "ping", "endSessions", "buildInfo"})


class CommandCounter(monitoring.CommandListener):
    """Counts the commands sent to one database while ``database`` is set."""

    def __init__(self) -> None:
        self.database: str | None = None
        self.commands: Counter[str] = Counter()

    def started(self, event: monitoring.CommandStartedEvent) -> None:
        if event.database_name == self.database and event.command_name not in _HOUSEKEEPING:
            self.commands[event.command_name] += 1

    def succeeded(self, event: monitoring.CommandSucceededEvent) -> None:
        return None

    def failed(self, event: monitoring.CommandFailedEvent) -> None:
        return None


COUNTER = CommandCounter()
monitoring.register(COUNTER)  # clients made from now on report to it (idle unless counting)


class CountingBackend(InMemoryCalendar):
    """The in-memory calendar, counting what the Google backend would send to Google."""

    def __init__(self) -> None:
        super().__init__()
        self.requests: Counter[str] = Counter()

    async def query_free_busy(self, *args: Any, **kwargs: Any) -> list[FreeBusy]:
        self.requests["freeBusy.query"] += 1
        return await super().query_free_busy(*args, **kwargs)

    async def insert_event(self, draft: EventDraft) -> tuple[CalendarEvent, bool]:
        self.requests["events.insert"] += 1
        return await super().insert_event(draft)

    async def get_event(self, calendar_id: str, event_id: str) -> CalendarEvent:
        self.requests["events.get"] += 1
        return await super().get_event(calendar_id, event_id)


def script(day_text: str) -> list[str]:
    return [
        "Olá!",
        "Quais serviços vocês têm?",
        f"Quais horários a Ana tem dia {day_text} para corte feminino?",
        f"Quero agendar um corte feminino com a Ana dia {day_text} às 10:00",
        "sim",
        "Qual o endereço?",
    ]


async def converse(stub: pb_grpc.AgentServiceAsyncStub, tenant_id: str, day_text: str) -> bool:
    customer = Customer(stub, tenant_id)
    booked = False
    for text in script(day_text):
        reply = await customer.say(text)
        assert reply.reply
        booked = booked or any(a.kind == 1 for a in reply.actions)
    return booked


async def test_capacity_inputs_measured_and_the_sizing_table(
    embedded_mongo: EmbeddedMongo, tmp_path: Path
) -> None:
    suffix = uuid.uuid4().hex[:10]
    backend = CountingBackend()
    shared = SharedSettings(MONGODB_URI=embedded_mongo.uri, AGENDA_DATA_DIR=tmp_path)
    calendar = await calendar_bootstrap(
        CalendarSettings(grpc_port=0, metrics_port=0, auth_tokens=[CALENDAR_TOKEN]),
        shared,
        backend=backend,
    )
    await calendar.start()
    settings = AgentSettings(
        grpc_port=0,
        metrics_port=0,
        auth_tokens=[AGENT_TOKEN],
        database=f"capacity_{suffix}",
        calendar_addr=f"127.0.0.1:{calendar.port}",
        calendar_token=CALENDAR_TOKEN,
    )
    agent = await agent_bootstrap(settings, shared)
    await agent.start()
    try:
        async with channel_to(agent.port) as channel:
            tenant_id = await seed_demo_salon(channel)
            stub = pb_grpc.AgentServiceStub(channel)
            days = [f"{day:%d/%m}" for day in working_days(CONVERSATIONS)]
            backend.requests.clear()
            COUNTER.commands.clear()
            COUNTER.database = settings.database
            cpu = time.process_time()
            booked: list[bool] = []
            for first in range(0, CONVERSATIONS, AT_ONCE):
                batch = days[first : first + AT_ONCE]
                booked += await asyncio.gather(*(converse(stub, tenant_id, d) for d in batch))
            cpu = time.process_time() - cpu
            COUNTER.database = None
    finally:
        await agent.stop(0)
        await calendar.stop(0)
    turns = CONVERSATIONS * len(script(""))
    assert all(booked), booked
    google = sum(backend.requests.values())
    measured = Measured(
        cpu_ms_per_turn=cpu * 1000 / turns,
        mongo_commands_per_turn=sum(COUNTER.commands.values()) / turns,
        google_requests_per_booking_conversation=google / CONVERSATIONS,
        google_requests_per_turn=google / turns,
    )
    assert measured.mongo_commands_per_turn > 0 and backend.requests["events.insert"] > 0
    figures.record(
        SUITE,
        {
            "turns measured": turns,
            **capacity_model.inputs(measured),
            **capacity_model.sizing(measured),
        },
    )


def test_the_recorded_table_is_the_model_of_the_recorded_inputs() -> None:
    """No row of docs/figures/capacity.json was typed by hand (or left stale by a change of
    the model, its assumptions, or the agent's CPU request in deploy/kubernetes)."""
    recorded = figures.load(SUITE)
    assert recorded, "run with AGENDA_RECORD_FIGURES=1 to record the capacity figures"
    for scale, values in recorded.items():
        measured = capacity_model.measured_from(values)
        expected = {**capacity_model.inputs(measured), **capacity_model.sizing(measured)}
        assert {k: values[k] for k in expected} == expected, scale
