"""The whole agent stack in-process: the calendar service (local MongoDB backend) and agent
service replicas, each a real gRPC server on port 0 wired by its own ``bootstrap``.

Both use the ONE session-scoped embedded SecantusDB of ``tests.kit.mongo_fixtures`` (register
that plugin in the test module) with fresh databases per test. The agent reaches the calendar
through the real ``GrpcCalendarAdapter`` (nothing is overridden).

Beanie binds each document class to one database (and client) per process, and every
``bootstrap`` re-binds them: replicas of one stack share one database, so that is harmless,
but the most recently started replica must be stopped last.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any
from uuid import UUID
from zoneinfo import ZoneInfo

import grpc
from pydantic_ai.messages import ModelMessage, ModelResponse
from pydantic_ai.models.function import AgentInfo, FunctionModel

from agenda.agent.v1 import agent_service_pb2 as pb
from agenda.agent.v1 import agent_service_pb2_grpc as pb_grpc
from agenda.agent.v1 import catalog_service_pb2_grpc as catalog_grpc
from agenda.calendar.v1 import calendar_service_pb2_grpc as calendar_grpc
from agenda_kit.mongo import EmbeddedMongo, make_client
from agenda_kit.settings import SharedSettings
from agent_service.application.bursts import LaneKey
from agent_service.application.incoming import sender_ref
from agent_service.bootstrap import AgentApp, Overrides, bootstrap
from agent_service.cli.script import next_working_day
from agent_service.cli.seed import seed
from agent_service.infrastructure.agent.offline.model import offline_model_function
from agent_service.infrastructure.settings import AgentSettings
from calendar_service.bootstrap import CalendarApp
from calendar_service.bootstrap import bootstrap as calendar_bootstrap
from calendar_service.infrastructure.settings import CalendarSettings
from tests.process_clock import services_today

AGENT_TOKEN = "test-token-agent-stack"
CALENDAR_TOKEN = "test-token-calendar-stack"
AUTH = (("authorization", f"Bearer {AGENT_TOKEN}"),)
CALENDAR_AUTH = (("authorization", f"Bearer {CALENDAR_TOKEN}"),)
SALON_ZONE = ZoneInfo("America/Sao_Paulo")
ANA_CALENDAR = "demo-ana"


def booking_day() -> date:
    """A day the demo's Ana works, at least tomorrow in the salon's zone."""
    return next_working_day(services_today(SALON_ZONE))


def booking_request_text(day: date, at: str = "10:00") -> str:
    return f"Quero agendar um corte feminino com a Ana dia {day:%d/%m} às {at}"


def local_instant(day: date, at: str) -> datetime:
    hour, minute = (int(part) for part in at.split(":"))
    return datetime(day.year, day.month, day.day, hour, minute, tzinfo=SALON_ZONE)


@dataclass
class AgentStack:
    """A running calendar service, the agent database and the agent replicas started so far."""

    mongo_uri: str
    data_dir: Path
    agent_database: str
    calendar: CalendarApp
    replicas: list[AgentApp] = field(default_factory=list)

    def agent_settings(self) -> AgentSettings:
        return AgentSettings(
            grpc_port=0,
            metrics_port=0,
            auth_tokens=[AGENT_TOKEN],
            database=self.agent_database,
            calendar_addr=f"127.0.0.1:{self.calendar.port}",
            calendar_token=CALENDAR_TOKEN,
        )

    def shared_settings(self, **aliased: Any) -> SharedSettings:
        return SharedSettings(MONGODB_URI=self.mongo_uri, AGENDA_DATA_DIR=self.data_dir, **aliased)

    async def start_replica(
        self,
        overrides: Overrides | None = None,
        shared: dict[str, Any] | None = None,
        **settings: Any,
    ) -> AgentApp:
        """One more agent service (``bootstrap`` with the service's defaults, but ``settings``,
        the shared settings ``shared`` by their variable names, and ``overrides``) on the
        database."""
        configured = self.agent_settings().model_copy(update=settings)
        shared_settings = self.shared_settings(**(shared or {}))
        app = await bootstrap(configured, shared_settings, overrides or Overrides())
        await app.start()
        self.replicas.append(app)
        return app

    async def stop_replica(self, app: AgentApp) -> None:
        self.replicas.remove(app)
        await app.stop(0)


@asynccontextmanager
async def agent_stack(
    server: EmbeddedMongo, data_dir: Path, *, replicas: int = 1
) -> AsyncIterator[AgentStack]:
    """The calendar service plus ``replicas`` agent replicas (0: the test starts them);
    everything stopped and dropped on exit."""
    suffix = uuid.uuid4().hex[:12]
    calendar_settings = CalendarSettings(
        grpc_port=0, metrics_port=0, auth_tokens=[CALENDAR_TOKEN], database=f"cal_{suffix}"
    )
    shared = SharedSettings(MONGODB_URI=server.uri, AGENDA_DATA_DIR=data_dir)
    calendar = await calendar_bootstrap(calendar_settings, shared)
    await calendar.start()
    stack = AgentStack(server.uri, data_dir, f"agent_{suffix}", calendar)
    try:
        for _ in range(replicas):
            await stack.start_replica()
        yield stack
    finally:
        for app in reversed(stack.replicas):
            await app.stop(0)
        await calendar.stop(0)
        client = make_client(server.uri)
        try:
            await client.drop_database(stack.agent_database)
            await client.drop_database(calendar_settings.database)
        finally:
            await client.close()


@asynccontextmanager
async def channel_to(port: int) -> AsyncIterator[grpc.aio.Channel]:
    async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
        yield channel


def agent_stub(channel: grpc.aio.Channel) -> pb_grpc.AgentServiceAsyncStub:
    return pb_grpc.AgentServiceStub(channel)


def catalog_stub(channel: grpc.aio.Channel) -> catalog_grpc.CatalogServiceAsyncStub:
    return catalog_grpc.CatalogServiceStub(channel)


def calendar_stub(channel: grpc.aio.Channel) -> calendar_grpc.CalendarServiceAsyncStub:
    return calendar_grpc.CalendarServiceStub(channel)


async def seed_demo_salon(channel: grpc.aio.Channel) -> str:
    """The demo salon of ``make run``, created through CatalogService; returns its id."""
    return await seed(catalog_stub(channel), AUTH)


@dataclass
class Customer:
    """A customer writing on one channel; remembers the conversation id it was given."""

    stub: pb_grpc.AgentServiceAsyncStub
    tenant_id: str
    external_id: str = field(default_factory=lambda: f"55119{uuid.uuid4().int % 10**8:08d}")
    channel: str = "whatsapp"
    conversation_id: str = ""

    def request(self, text: str, message_id: str | None = None) -> pb.SendMessageRequest:
        return pb.SendMessageRequest(
            tenant_id=self.tenant_id,
            customer=pb.CustomerIdentity(
                channel=self.channel, external_id=self.external_id, display_name="Maria"
            ),
            conversation_id=self.conversation_id,
            message_id=message_id or uuid.uuid4().hex,
            text=text,
        )

    async def say(
        self,
        text: str,
        message_id: str | None = None,
        stub: pb_grpc.AgentServiceAsyncStub | None = None,
    ) -> pb.SendMessageResponse:
        reply: pb.SendMessageResponse = await (stub or self.stub).SendMessage(
            self.request(text, message_id), metadata=AUTH, timeout=60
        )
        self.conversation_id = reply.conversation_id
        return reply


def day_range(day: date) -> tuple[datetime, datetime]:
    start = datetime(day.year, day.month, day.day, tzinfo=SALON_ZONE)
    return start, start + timedelta(days=1)


class Gate:
    """The offline model, held at its next request while closed."""

    def __init__(self) -> None:
        self.opened = asyncio.Event()
        self.opened.set()
        self.entered = asyncio.Event()

    def close(self) -> None:
        self.opened.clear()
        self.entered.clear()

    async def respond(self, messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        if not self.opened.is_set():
            self.entered.set()
            await self.opened.wait()
        return offline_model_function(messages, info)

    def model(self) -> FunctionModel:
        return FunctionModel(self.respond, model_name="offline")


async def until_waiting(app: AgentApp, tenant: str, external_id: str, count: int) -> None:
    """Until ``count`` messages of the customer wait in their lane (read from the store: the
    state the test waits for, not a time)."""
    lane = LaneKey(UUID(tenant), "whatsapp", sender_ref(external_id))
    while len(await app.repos.lanes.waiting(lane)) < count:  # noqa: ASYNC110 - the store's state
        await asyncio.sleep(0.01)
