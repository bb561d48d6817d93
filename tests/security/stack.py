"""The system under attack: the calendar service and the agent service, each a real gRPC server
on port 0 wired by its own ``bootstrap``, the agent reaching the calendar through the real gRPC
client. Storage is the in-memory repositories (fast, the default) or Beanie on the embedded
MongoDB (production storage). The model is a counting ``FunctionModel`` around the offline
model, so a test can prove that a request reached no model.

Two tenants, A and B, are seeded through the public RPCs (plus the real booking saga for
appointments), each with services, professionals, FAQ entries, customers, conversations and
appointments in every status.
"""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any
from uuid import UUID
from zoneinfo import ZoneInfo

import grpc
from google.protobuf.timestamp_pb2 import Timestamp
from pydantic_ai.messages import ModelMessage, ModelResponse
from pydantic_ai.models import Model
from pydantic_ai.models.function import AgentInfo, FunctionModel

from agenda.agent.v1 import agent_service_pb2 as agent_pb
from agenda.agent.v1 import agent_service_pb2_grpc as agent_grpc
from agenda.agent.v1 import catalog_service_pb2 as catalog_pb
from agenda.agent.v1 import catalog_service_pb2_grpc as catalog_grpc
from agenda.calendar.v1 import calendar_service_pb2 as calendar_pb
from agenda.calendar.v1 import calendar_service_pb2_grpc as calendar_grpc
from agenda_kit.mongo import EmbeddedMongo, make_client
from agenda_kit.settings import SharedSettings
from agent_service.application.ports import AppointmentFilter
from agent_service.application.repositories import Repositories
from agent_service.bootstrap import AgentApp, Overrides
from agent_service.bootstrap import bootstrap as agent_bootstrap
from agent_service.domain.appointments import Appointment, AppointmentStatus
from agent_service.domain.outbox import OutboxKind, OutboxMessage
from agent_service.infrastructure.agent.offline.model import offline_model_function
from agent_service.infrastructure.settings import AgentSettings
from calendar_service.bootstrap import CalendarApp
from calendar_service.bootstrap import bootstrap as calendar_bootstrap
from calendar_service.infrastructure.settings import CalendarSettings
from tests.fakes.agent_repositories import in_memory_repositories
from tests.fakes.in_memory_calendar import InMemoryCalendar
from tests.fakes.in_memory_holds import InMemoryHolds
from tests.process_clock import services_today

AGENT_TOKEN = "security-agent-token-0123456789"
CALENDAR_TOKEN = "security-calendar-token-9876543210"
AGENT_AUTH = (("authorization", f"Bearer {AGENT_TOKEN}"),)
CALENDAR_AUTH = (("authorization", f"Bearer {CALENDAR_TOKEN}"),)
ZONE = ZoneInfo("America/Sao_Paulo")
Metadata = tuple[tuple[str, str], ...]


class CountingModel:
    """The offline model, counting every request made to it."""

    def __init__(self) -> None:
        self.requests = 0
        self.model = FunctionModel(self._respond, model_name="counting-offline")

    def _respond(self, messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        self.requests += 1
        return offline_model_function(messages, info)


def booking_day() -> date:
    """A Monday-to-Saturday date at least two days ahead in the tenants' zone."""
    day = services_today(ZONE) + timedelta(days=2)
    return day if day.isoweekday() != 7 else day + timedelta(days=1)


def at(day: date, hour: int, minute: int = 0) -> datetime:
    return datetime(day.year, day.month, day.day, hour, minute, tzinfo=ZONE)


def stamp(value: datetime) -> Timestamp:
    result = Timestamp()
    result.FromDatetime(value.astimezone(UTC))
    return result


@dataclass
class TenantData:
    """What was seeded for one tenant: ids by kind, and text that is unique to it."""

    label: str
    id: str
    name: str
    services: list[str] = field(default_factory=list)
    professionals: list[str] = field(default_factory=list)
    calendars: list[str] = field(default_factory=list)
    faq: list[str] = field(default_factory=list)
    faq_questions: list[str] = field(default_factory=list)
    customers: list[str] = field(default_factory=list)
    identities: list[tuple[str, str]] = field(default_factory=list)
    conversations: list[str] = field(default_factory=list)
    appointments: dict[str, list[str]] = field(default_factory=dict)
    appointments_of: dict[str, list[str]] = field(default_factory=dict)
    outbox: list[str] = field(default_factory=list)

    def ids(self, kind: str) -> list[str]:
        """Seeded ids of one kind ("tenant", "service", ..., "appointment")."""
        if kind == "tenant":
            return [self.id]
        if kind == "appointment":
            return [a for ids in self.appointments.values() for a in ids]
        values: list[str] = getattr(self, {"faq": "faq", "outbox": "outbox"}.get(kind, f"{kind}s"))
        return values

    def all_ids(self) -> list[str]:
        kinds = ("tenant", "service", "professional", "faq", "customer", "conversation")
        return [i for kind in (*kinds, "appointment") for i in self.ids(kind)]

    def secrets(self) -> list[str]:
        """Strings that must never appear in an answer given in another tenant's context."""
        return [*self.all_ids(), *self.calendars, self.name, *self.faq_questions]


@dataclass(repr=False)
class SecurityStack:
    calendar_app: CalendarApp
    agent_app: AgentApp
    agent_channel: grpc.aio.Channel
    calendar_channel: grpc.aio.Channel
    model: CountingModel
    day: date
    tenants: dict[str, TenantData] = field(default_factory=dict)

    def __repr__(self) -> str:
        return f"SecurityStack(tenants={sorted(self.tenants)})"

    @property
    def repos(self) -> Repositories:
        return self.agent_app.repos

    @property
    def catalog(self) -> catalog_grpc.CatalogServiceAsyncStub:
        return catalog_grpc.CatalogServiceStub(self.agent_channel)

    @property
    def agent(self) -> agent_grpc.AgentServiceAsyncStub:
        return agent_grpc.AgentServiceStub(self.agent_channel)

    @property
    def calendar(self) -> calendar_grpc.CalendarServiceAsyncStub:
        return calendar_grpc.CalendarServiceStub(self.calendar_channel)

    async def seed_tenant(self, label: str) -> TenantData:
        tenant = await _seed_catalog(self.catalog, label)
        await _seed_conversations(self, tenant)
        await _seed_appointments(self, tenant)
        await _seed_outbox(self, tenant)
        self.tenants[label] = tenant
        return tenant

    async def snapshot(self, tenant: TenantData) -> dict[str, Any]:
        """Everything stored for ``tenant``, through the repositories and the calendar RPCs."""
        repos, tenant_id = self.repos, UUID(tenant.id)
        customers, _ = await repos.customers.list(tenant_id, page_size=500, page_token=None)
        appointments, _ = await repos.appointments.list(
            tenant_id, AppointmentFilter(), page_size=500, page_token=None
        )
        conversations = [
            (await repos.conversations.get(tenant_id, UUID(c))).model_dump()
            for c in tenant.conversations
        ]
        return {
            "tenant": (await repos.tenants.get(tenant_id)).model_dump(),
            "services": [s.model_dump() for s in await repos.services.list(tenant_id)],
            "professionals": [p.model_dump() for p in await repos.professionals.list(tenant_id)],
            "faq": [e.model_dump() for e in await repos.faq.list(tenant_id)],
            "customers": [c.model_dump() for c in customers],
            "appointments": [a.model_dump() for a in appointments],
            "conversations": conversations,
            "events": await self.events(tenant.calendars),
            "outbox": [m.model_dump() for m in await repos.outbox.due(tenant_id, None, 500)],
        }

    async def events(self, calendars: list[str]) -> list[str]:
        """Every event (cancelled included) of ``calendars`` around the booking day."""
        start = at(self.day, 0) - timedelta(days=30)
        window = calendar_pb.TimeRange(start=stamp(start), end=stamp(start + timedelta(days=120)))
        found: list[str] = []
        for calendar_id in calendars:
            reply = await self.calendar.ListEvents(
                calendar_pb.ListEventsRequest(
                    calendar_id=calendar_id, range=window, page_size=1000, include_cancelled=True
                ),
                metadata=CALENDAR_AUTH,
            )
            found.extend(str(event) for event in reply.events)
        return found


async def _seed_catalog(stub: catalog_grpc.CatalogServiceAsyncStub, label: str) -> TenantData:
    token = uuid.uuid4().hex[:8]
    policy = catalog_pb.BookingPolicy(
        minimum_notice_minutes=60,
        booking_horizon_days=60,
        cancellation_window_minutes=120,
        slot_step_minutes=30,
    )
    created = await stub.CreateTenant(
        catalog_pb.CreateTenantRequest(
            tenant=catalog_pb.Tenant(
                name=f"Salon {label} {token}",
                time_zone="America/Sao_Paulo",
                locale="pt-BR",
                policy=policy,
            )
        ),
        metadata=AGENT_AUTH,
    )
    tenant = TenantData(label, created.tenant.id, created.tenant.name)
    for name, minutes in ((f"Corte {label}{token}", 60), (f"Barba {label}{token}", 30)):
        service = await stub.CreateService(
            catalog_pb.CreateServiceRequest(
                service=catalog_pb.Service(
                    tenant_id=tenant.id, name=name, duration_minutes=minutes, price_minor=5000
                )
            ),
            metadata=AGENT_AUTH,
        )
        tenant.services.append(service.service.id)
    week = [
        catalog_pb.WorkingHours(day_of_week=d, start_time="09:00", end_time="18:00")
        for d in range(1, 7)
    ]
    for index, name in enumerate((f"Ana {label}{token}", f"Bruno {label}{token}")):
        calendar_id = f"sec-{label.lower()}-{index}-{token}"
        professional = await stub.CreateProfessional(
            catalog_pb.CreateProfessionalRequest(
                professional=catalog_pb.Professional(
                    tenant_id=tenant.id,
                    name=name,
                    calendar_id=calendar_id,
                    weekly_hours=week,
                    service_ids=tenant.services,
                )
            ),
            metadata=AGENT_AUTH,
        )
        tenant.professionals.append(professional.professional.id)
        tenant.calendars.append(calendar_id)
    for question, answer in (
        (f"Qual é o endereço do salão {label}{token}?", f"Rua {label}{token}, 123."),
        (f"Aceitam pix no salão {label}{token}?", f"Sim, chave {label}{token}."),
    ):
        entry = await stub.CreateFaqEntry(
            catalog_pb.CreateFaqEntryRequest(
                entry=catalog_pb.FaqEntry(
                    tenant_id=tenant.id, question=question, answer=answer, tags=["pix", "endereço"]
                )
            ),
            metadata=AGENT_AUTH,
        )
        tenant.faq.append(entry.entry.id)
        tenant.faq_questions.append(question)
    return tenant


async def _seed_conversations(stack: SecurityStack, tenant: TenantData) -> None:
    """Two customers, each with a conversation opened by one message; the second handed off."""
    for index in range(2):
        external_id = f"55119{uuid.uuid4().int % 10**8:08d}"
        reply = await stack.agent.SendMessage(
            agent_pb.SendMessageRequest(
                tenant_id=tenant.id,
                customer=agent_pb.CustomerIdentity(
                    channel="whatsapp", external_id=external_id, display_name=f"Cliente {index}"
                ),
                message_id=uuid.uuid4().hex,
                text="Oi, quais serviços vocês têm?",
            ),
            metadata=AGENT_AUTH,
        )
        tenant.conversations.append(reply.conversation_id)
        tenant.identities.append(("whatsapp", external_id))
        conversation = await stack.agent.GetConversation(
            agent_pb.GetConversationRequest(
                tenant_id=tenant.id, conversation_id=reply.conversation_id
            ),
            metadata=AGENT_AUTH,
        )
        tenant.customers.append(conversation.conversation.customer_id)
    await stack.agent.HandOff(
        agent_pb.HandOffRequest(
            tenant_id=tenant.id, conversation_id=tenant.conversations[1], reason="seed"
        ),
        metadata=AGENT_AUTH,
    )


async def _seed_appointments(stack: SecurityStack, tenant: TenantData) -> None:
    """Confirmed and cancelled (through the real saga), pending and failed (stored directly)."""
    booking, day = stack.agent_app.booking, stack.day
    tenant_id, customers = UUID(tenant.id), [UUID(c) for c in tenant.customers]
    professionals, services = [UUID(p) for p in tenant.professionals], tenant.services
    by_status: dict[str, list[str]] = {status.value: [] for status in AppointmentStatus}
    plan = ((0, 0, 10), (0, 1, 11), (1, 0, 14), (1, 1, 15))
    for customer, professional, hour in plan:
        booked = await booking.book.execute(
            tenant_id, customers[customer], professionals[professional], UUID(services[0]),
            at(day, hour),
        )  # fmt: skip
        by_status[booked.status.value].append(str(booked.id))
        tenant.appointments_of.setdefault(str(customers[customer]), []).append(str(booked.id))
    cancelled, _ = await booking.cancel.execute(
        tenant_id, UUID(by_status["confirmed"].pop()), reason="seed", enforce_window=False
    )
    by_status["cancelled"].append(str(cancelled.id))
    service = await stack.repos.services.get(tenant_id, UUID(services[1]))
    for hour, final in ((16, AppointmentStatus.PENDING), (17, AppointmentStatus.FAILED)):
        appointment = Appointment(
            tenant_id=tenant_id,
            customer_id=customers[0],
            professional_id=professionals[0],
            service_id=service.id,
            calendar_id=tenant.calendars[0],
            start=at(day, hour).astimezone(UTC),
            end=(at(day, hour) + timedelta(minutes=service.duration_minutes)).astimezone(UTC),
            service_name=service.name,
            professional_name="seed",
        )
        await stack.repos.appointments.reserve(appointment)
        if final is AppointmentStatus.FAILED:
            await stack.repos.appointments.save(
                appointment.moved_to(AppointmentStatus.FAILED, cancel_reason="seed")
            )
        by_status[final.value].append(str(appointment.id))
        tenant.appointments_of[str(customers[0])].append(str(appointment.id))
    tenant.appointments = by_status


async def _seed_outbox(stack: SecurityStack, tenant: TenantData) -> None:
    """One proactive message, long due and not acknowledged."""
    message = OutboxMessage(
        id=uuid.uuid4(),
        tenant_id=UUID(tenant.id),
        kind=OutboxKind.BOOKING_CONFIRMED,
        customer_id=UUID(tenant.customers[0]),
        channel=tenant.identities[0][0],
        external_id=tenant.identities[0][1],
        text=f"Confirmado {tenant.name}",
        deliver_at=at(stack.day, 0) - timedelta(days=30),
    )
    await stack.repos.outbox.add(message)
    tenant.outbox.append(str(message.id))


@asynccontextmanager
async def security_stack(
    data_dir: Path,
    mongo: EmbeddedMongo | None = None,
    principals_file: Path | None = None,
    *,
    model: Model | None = None,
    health_interval_seconds: float = 5.0,
    **agent_overrides: Any,
) -> AsyncIterator[SecurityStack]:
    """Both services started and tenants A and B seeded; everything stopped on exit.

    With ``mongo`` both services store in it (fresh databases, dropped afterwards); without,
    the agent uses the in-memory repositories and the calendar the in-memory backend. The
    single-token principals (``AGENT_TOKEN``, ``CALENDAR_TOKEN``) seed; ``principals_file``
    adds the principals it names; ``model`` replaces the counting offline model;
    ``agent_overrides`` override ``AgentSettings`` fields.
    """
    suffix = uuid.uuid4().hex[:12]
    shared = SharedSettings(
        MONGODB_URI=mongo.uri if mongo else None,
        AGENDA_DATA_DIR=data_dir,
        AGENDA_PRINCIPALS_FILE=principals_file,
        AGENDA_HEALTH_INTERVAL_SECONDS=health_interval_seconds,
    )
    calendar_settings = CalendarSettings(
        grpc_port=0, metrics_port=0, auth_tokens=[CALENDAR_TOKEN], database=f"seccal_{suffix}"
    )
    backend = None if mongo else InMemoryCalendar()
    holds = None if mongo else InMemoryHolds()
    calendar_app = await calendar_bootstrap(calendar_settings, shared, backend=backend, holds=holds)
    await calendar_app.start()
    counting = CountingModel()
    agent_settings = AgentSettings(
        grpc_port=0,
        metrics_port=0,
        auth_tokens=[AGENT_TOKEN],
        database=f"secagent_{suffix}",
        calendar_addr=f"127.0.0.1:{calendar_app.port}",
        calendar_token=CALENDAR_TOKEN,
        **({"reconcile_interval_seconds": 3600} | agent_overrides),
    )
    repos = None if mongo else in_memory_repositories()
    agent_app: AgentApp | None = None
    try:
        agent_app = await agent_bootstrap(
            agent_settings, shared, Overrides(repos=repos, model=model or counting.model)
        )
        await agent_app.start()
        async with (
            grpc.aio.insecure_channel(f"127.0.0.1:{agent_app.port}") as agent_channel,
            grpc.aio.insecure_channel(f"127.0.0.1:{calendar_app.port}") as calendar_channel,
        ):
            stack = SecurityStack(
                calendar_app, agent_app, agent_channel, calendar_channel, counting, booking_day()
            )
            await stack.seed_tenant("A")
            await stack.seed_tenant("B")
            yield stack
    finally:
        if agent_app is not None:
            await agent_app.stop(0)
        await calendar_app.stop(0)
        if mongo is not None:
            client = make_client(mongo.uri)
            try:
                await client.drop_database(agent_settings.database)
                await client.drop_database(calendar_settings.database)
            finally:
                await client.close()
