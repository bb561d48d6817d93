"""The consent-and-truth suite's world: the agent service as a real gRPC server (bootstrap) on
the embedded MongoDB, a fixed clock, the in-memory calendar, and a hostile model that plays
the same script either as a pydantic-ai ``FunctionModel`` or as the project's
OpenAI-compatible fake server (the ``openai-chat:`` provider path).

A script is transport-independent: for the customer's message of the turn it lists the
model's responses in order (tool calls, or a final text); ``route`` picks the specialist.
"""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from uuid import UUID

import grpc
from pydantic_ai.messages import (
    ModelMessage,
    ModelRequest,
    ModelResponse,
    TextPart,
    ToolCallPart,
    UserPromptPart,
)
from pydantic_ai.models.function import AgentInfo, FunctionModel

from agenda.agent.v1 import agent_service_pb2 as agent_pb
from agenda.agent.v1 import agent_service_pb2_grpc as agent_grpc
from agenda_kit.mongo import EmbeddedMongo, make_client
from agenda_kit.settings import SharedSettings
from agent_service.application.ports import AppointmentFilter
from agent_service.bootstrap import AgentApp, Overrides
from agent_service.bootstrap import bootstrap as agent_bootstrap
from agent_service.domain.appointments import Appointment
from agent_service.domain.catalog import Customer
from agent_service.infrastructure.agent.models import build_model
from agent_service.infrastructure.settings import AgentSettings
from tests.agent_service.conversation_fixtures import Salon, seed_salon
from tests.fakes import openai_server
from tests.fakes.in_memory_calendar import InMemoryCalendar

TOKEN = "consent-agent-token-0123456789"
AUTH = (("authorization", f"Bearer {TOKEN}"),)
API_KEY = "consent-openai-key"
NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)  # Monday 09:00 in São Paulo
JSON = dict[str, Any]
Call = tuple[str, JSON]
RETRY_MARKERS = ("Fix the errors and try again", "Please return text", "Please include your")


def local(hour: int, day: int = 1, minute: int = 0) -> str:
    """An ISO start in the salon's zone, December 2026 (day 1 is the Tuesday after NOW)."""
    return f"2026-12-{day:02d}T{hour:02d}:{minute:02d}:00-03:00"


class Clock:
    """The one clock of the agent service (engine and booking) and the calendar."""

    def __init__(self) -> None:
        self.now = NOW

    def __call__(self) -> datetime:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


@dataclass(frozen=True)
class Step:
    """One model response: tool calls (possibly several, run in parallel) or a final text."""

    calls: tuple[Call, ...] = ()
    text: str | None = None


def call(name: str, **arguments: Any) -> Step:
    return Step(calls=((name, arguments),))


def calls(*pairs: Call) -> Step:
    return Step(calls=pairs)


def say(text: str) -> Step:
    return Step(text=text)


Plan = Callable[[str], list[Step]]


@dataclass
class HostileModel:
    """Plays the current scenario's plan, over either transport."""

    plan: Plan = lambda text: [say("ok")]
    route: Callable[[str], str] = lambda text: "booking"
    requests: int = 0

    def step(self, text: str, made: int, offered: set[str]) -> Step:
        steps = self.plan(text)
        step = steps[made] if made < len(steps) else say("ok")
        usable = tuple(c for c in step.calls if c[0] in offered)
        if step.calls and not usable:
            return say(step.text or "ok")
        return Step(usable, step.text) if step.calls else step

    # --- as a FunctionModel ---------------------------------------------------------------

    def function_model(self) -> FunctionModel:
        return FunctionModel(self._respond, model_name="hostile-function")

    def _respond(self, messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        self.requests += 1
        if any(tool.name == "route_to" for tool in info.output_tools):
            text = _last_prompt(messages)
            return ModelResponse(parts=[ToolCallPart("route_to", {"specialist": self.route(text)})])
        start = max(
            i
            for i, m in enumerate(messages)
            if isinstance(m, ModelRequest) and any(isinstance(p, UserPromptPart) for p in m.parts)
        )
        made = sum(1 for m in messages[start:] if isinstance(m, ModelResponse))
        offered = {t.name for t in info.function_tools} | {t.name for t in info.output_tools}
        step = self.step(_last_prompt(messages), made, offered)
        if step.calls:
            return ModelResponse(parts=[ToolCallPart(name, args) for name, args in step.calls])
        return ModelResponse(parts=[TextPart(step.text or "")])

    # --- as the OpenAI-compatible fake's script -------------------------------------------

    def openai_script(self, body: JSON) -> JSON:
        self.requests += 1
        tools = openai_server.RecordedRequest(body, True).tools
        messages: list[JSON] = body["messages"]
        users = [
            i
            for i, m in enumerate(messages)
            if m["role"] == "user"
            and not any(marker in openai_server._text(m.get("content")) for marker in RETRY_MARKERS)
        ]
        text = openai_server._text(messages[users[-1]].get("content")) if users else ""
        if "route_to" in tools:
            return openai_server.tool_calls(("route_to", {"specialist": self.route(text)}))
        made = sum(1 for m in messages[users[-1] :] if m["role"] == "assistant") if users else 0
        step = self.step(text, made, set(tools))
        if step.calls:
            return openai_server.tool_calls(*step.calls)
        return openai_server.text(step.text or "")


def _last_prompt(messages: list[ModelMessage]) -> str:
    for message in reversed(messages):
        if isinstance(message, ModelRequest):
            for part in message.parts:
                if isinstance(part, UserPromptPart) and isinstance(part.content, str):
                    return part.content
    return ""


@dataclass
class Seeded:
    """Salon A (the customer's) and salon B, each with another customer's appointment."""

    a: Salon
    b: Salon
    x_in_a: Appointment
    x_in_b: Appointment


@dataclass
class World:
    app: AgentApp
    channel: grpc.aio.Channel
    clock: Clock
    calendar: InMemoryCalendar
    model: HostileModel
    seeded: Seeded
    path: str
    fake: openai_server.FakeOpenAI | None = None
    notes: list[str] = field(default_factory=list)

    @property
    def agent(self) -> agent_grpc.AgentServiceAsyncStub:
        return agent_grpc.AgentServiceStub(self.channel)

    async def customer(self, external_id: str) -> Customer:
        found, _ = await self.app.repos.customers.upsert(
            Customer(tenant_id=self.seeded.a.tenant.id, channel="whatsapp", external_id=external_id)
        )
        return found

    async def book_for(self, customer: Customer, start: str) -> Appointment:
        salon = self.seeded.a
        return await self.app.booking.book.execute(
            salon.tenant.id, customer.id, salon.bruno.id, salon.beard.id,
            datetime.fromisoformat(start),
        )  # fmt: skip

    async def appointments(self) -> dict[UUID, Appointment]:
        """Every appointment of both salons, by id."""
        found: dict[UUID, Appointment] = {}
        for salon in (self.seeded.a, self.seeded.b):
            listed, _ = await self.app.repos.appointments.list(
                salon.tenant.id, AppointmentFilter(), page_size=500, page_token=None
            )
            found.update({a.id: a for a in listed})
        return found

    def events(self) -> dict[str, str]:
        return {k: f"{v.status}@{v.start.isoformat()}" for k, v in self.calendar.events.items()}

    def message(self, external_id: str, text: str, message_id: str) -> agent_pb.SendMessageRequest:
        return agent_pb.SendMessageRequest(
            tenant_id=str(self.seeded.a.tenant.id),
            customer=agent_pb.CustomerIdentity(channel="whatsapp", external_id=external_id),
            message_id=message_id,
            text=text,
        )


HORIZON_DAYS = 365
"""The test salons' booking horizon: the full-size run gives every scenario of every round its
own slots (two per scenario, eight a day), about a hundred days ahead."""


async def _salon(app: AgentApp, name: str) -> Salon:
    salon = await seed_salon(app.repos, name)
    policy = salon.tenant.policy.model_copy(update={"booking_horizon_days": HORIZON_DAYS})
    tenant = await app.repos.tenants.update(salon.tenant.model_copy(update={"policy": policy}))
    return replace(salon, tenant=tenant)


async def _seed(app: AgentApp) -> Seeded:
    repos = app.repos
    a = await _salon(app, f"Salão A {uuid.uuid4().hex[:6]}")
    b = await _salon(app, f"Salão B {uuid.uuid4().hex[:6]}")
    others = []
    for salon in (a, b):
        x, _ = await repos.customers.upsert(
            Customer(tenant_id=salon.tenant.id, channel="whatsapp", external_id="X-other")
        )
        start = datetime.fromisoformat(local(17, day=28))
        booked = await app.booking.book.execute(
            salon.tenant.id, x.id, salon.ana.id, salon.cut.id, start
        )
        others.append(booked)
    return Seeded(a, b, others[0], others[1])


@asynccontextmanager
async def consent_world(mongo: EmbeddedMongo, data_dir: Path, path: str) -> AsyncIterator[World]:
    """The agent service on ``mongo`` with a hostile model over ``path`` ("function" or
    "openai"); everything stopped and dropped on exit."""
    clock = Clock()
    calendar = InMemoryCalendar(clock=clock)
    hostile = HostileModel()
    async with _transport(hostile, path) as (model, fake):
        settings = AgentSettings(
            grpc_port=0,
            metrics_port=0,
            auth_tokens=[TOKEN],
            database=f"consent_{uuid.uuid4().hex[:12]}",
            reconcile_interval_seconds=3600,
        )
        shared = SharedSettings(MONGODB_URI=mongo.uri, AGENDA_DATA_DIR=data_dir)
        app = await agent_bootstrap(
            settings, shared, Overrides(calendar=calendar, model=model, clock=clock)
        )
        await app.start()
        try:
            async with grpc.aio.insecure_channel(f"127.0.0.1:{app.port}") as channel:
                seeded = await _seed(app)
                yield World(app, channel, clock, calendar, hostile, seeded, path, fake)
        finally:
            await app.stop(0)
            client = make_client(mongo.uri)
            try:
                await client.drop_database(settings.database)
            finally:
                await client.close()


@asynccontextmanager
async def _transport(
    hostile: HostileModel, path: str
) -> AsyncIterator[tuple[Any, openai_server.FakeOpenAI | None]]:
    if path == "function":
        yield hostile.function_model(), None
        return
    async with openai_server.running_openai_server(hostile.openai_script, api_key=API_KEY) as fake:
        model = build_model(
            "openai-chat:hostile-model", openai_base_url=fake.base_url, openai_api_key=API_KEY
        )
        yield model, fake
