"""The assistant as production wires it (graph, agents, tools, booking service), over in-memory
repositories and calendar with a fixed clock, playing one scripted conversation per case.

What a case is judged on is recorded from the outside: each turn's reply, specialist, actions
and the tools the specialists called (from the progress events every tool reports), then the
customer's appointments and the conversation's status at the end.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time
from functools import cached_property
from typing import Any
from uuid import UUID
from zoneinfo import ZoneInfo

from langgraph.graph.state import CompiledStateGraph
from pydantic_ai.models import Model
from pydantic_ai.settings import ModelSettings
from pydantic_ai.usage import UsageLimits

from agent_service.application.booking import Booking
from agent_service.application.conversation import HandleMessage, IncomingMessage
from agent_service.application.engine import ProgressEvent
from agent_service.application.ports import AppointmentFilter
from agent_service.application.repositories import Repositories
from agent_service.bootstrap import wire_booking
from agent_service.domain.appointments import Appointment, AppointmentStatus
from agent_service.domain.catalog import (
    BookingPolicy,
    Customer,
    FaqEntry,
    LocalizedAliases,
    LocalizedFaq,
    Professional,
    Service,
    Tenant,
    WorkingHours,
)
from agent_service.domain.conversations import ConversationStatus
from agent_service.infrastructure.agent.agents import build_agents
from agent_service.infrastructure.agent.engine import LangGraphConversationEngine
from agent_service.infrastructure.agent.graph import build_graph
from agent_service.infrastructure.agent.specialists import enabled_specialists
from tests.fakes.agent_repositories import in_memory_repositories
from tests.fakes.in_memory_calendar import InMemoryCalendar

ZONE = ZoneInfo("America/Sao_Paulo")
# Monday 2026-11-30 09:00 in São Paulo: "amanhã" is Tuesday 12/01, "quinta" Thursday 12/03.
NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
CHANNEL = "whatsapp"
CUSTOMER = "5511999990000"

# The salon every case runs against: keys are what the dataset names.
# Named unlike the demo salon (agent_service/cli/seed.py): no tuning to one catalog. Customers
# use other words for the services ("corte feminino", "haircut", "manicure", "unha") and the
# aliases carry them.
SERVICES = {
    "corte": ("Corte e escova", 60, 8000, "Corte com lavagem e finalização."),
    "barba": ("Barba na navalha", 30, 4000, "Barba com toalha quente."),
    "manicure": ("Cuidado das unhas", 45, 3500, "Cutilagem e esmaltação."),
    "hidratacao": ("Hidratação capilar", 30, 6000, "Tratamento para os fios."),
}
SERVICE_ALIASES = {
    "corte": ("corte feminino", "women's haircut", "haircut", "corte de cabelo", "cabelo"),
    "barba": ("barba", "beard", "beard trim", "barbear"),
    "manicure": ("manicure", "unha", "unhas", "nails", "mani"),
    "hidratacao": ("hidratação", "hydration", "hair treatment", "tratamento capilar"),
}
PROFESSIONALS = {
    "ana": ("Júlia Prado", "Cabeleireira", ("corte", "hidratacao")),
    "bruno": ("Rafael Nunes", "Barbeiro", ("barba",)),
    "carla": ("Marina Costa", "Manicure", ("manicure",)),
    "paulo": ("Paulo Reis", "Cabeleireiro", ("hidratacao",)),
}
# Paulo stops for lunch (12:00–13:00): the "break" refusal.
SPLIT_DAY = ("paulo",)
FAQ = {
    "address": (
        "Qual é o endereço?",
        "Ficamos na Rua dos Ipês, 45, Pinheiros.",
        ("endereço", "address", "onde", "localização", "where", "located", "location"),
    ),
    "payment": (
        "Quais formas de pagamento vocês aceitam?",
        "Aceitamos Pix, cartão de crédito e débito, e dinheiro.",
        ("pagamento", "payment", "pix", "cartão", "card", "cash", "dinheiro", "pay"),
    ),
    "hours": (
        "Qual é o horário de funcionamento?",
        "Abrimos de segunda a sábado, das 9h às 18h.",
        ("horário", "funcionamento", "hours", "open", "abre", "fecha", "opening", "close"),
    ),
    "cancellation": (
        "Qual é a política de cancelamento?",
        "Cancelamentos e remarcações sem custo até 2 horas antes do horário.",
        ("cancelamento", "cancellation", "política", "policy"),
    ),
    "parking": (
        "Vocês têm estacionamento?",
        "Temos estacionamento conveniado ao lado, gratuito por 2 horas.",
        ("estacionamento", "parking", "park", "carro", "car"),
    ),
    # The same answers in English: the salon keeps its FAQ in both languages.
    "address_en": (
        "What is your address?",
        "We are at 45 Rua dos Ipês, Pinheiros.",
        ("address", "endereço", "where", "located", "location"),
    ),
    "payment_en": (
        "Which payment methods do you accept?",
        "We accept Pix, credit and debit cards, and cash.",
        ("payment", "pagamento", "pix", "card", "cash", "pay"),
    ),
    "hours_en": (
        "What are your opening hours?",
        "We are open Monday to Saturday, from 9am to 6pm.",
        ("hours", "horário", "open", "opening", "close", "closing"),
    ),
    "cancellation_en": (
        "What is your cancellation policy?",
        "Cancelling or rescheduling is free up to 2 hours before the appointment.",
        ("cancellation", "cancelamento", "policy"),
    ),
    "parking_en": (
        "Do you have parking?",
        "There is a partner car park next door, free for 2 hours.",
        ("parking", "estacionamento", "park", "car"),
    ),
}


# What a reply must contain to count as the FAQ answer when it does not cite the entry.
FAQ_FACTS = {
    "address": ("Rua dos Ipês",),
    "payment": ("Pix",),
    "hours": ("18h", "6pm"),
    "cancellation": ("2 horas", "2 hours"),
    "parking": ("conveniado", "partner car park"),
}

Hours = tuple[WorkingHours, ...]
WEEK: Hours = tuple(WorkingHours(day_of_week=d, start=time(9), end=time(18)) for d in range(1, 7))
SPLIT: Hours = tuple(
    WorkingHours(day_of_week=d, start=start, end=end)
    for d in range(1, 7)
    for start, end in ((time(9), time(12)), (time(13), time(18)))
)


@dataclass(frozen=True, slots=True)
class SalonSpec:
    """A salon a case runs against: its catalog by key, as the dataset names its entries."""

    name: str
    services: dict[str, tuple[str, int, int, str]]
    service_aliases: dict[str, tuple[str, ...]]
    professionals: dict[str, tuple[str, str, tuple[str, ...]]]
    hours: dict[str, Hours]
    """Weekly hours per professional key (absent: Monday to Saturday 09:00–18:00)."""
    faq: dict[str, tuple[str, str, tuple[str, ...]]]
    faq_facts: dict[str, tuple[str, ...]]
    localized_aliases: dict[str, dict[str, tuple[str, ...]]] = field(default_factory=dict)
    """Service key -> language -> words (CatalogService ``localized_aliases``)."""
    localized_faq: dict[str, dict[str, tuple[str, str]]] = field(default_factory=dict)
    """FAQ key -> language -> (question, answer) (CatalogService ``FaqEntry.localized``); an
    entry without one in the customer's language is quoted under a lead-in."""


IPE = SalonSpec(
    name="Estúdio Ipê Amarelo",
    services=SERVICES,
    service_aliases=SERVICE_ALIASES,
    professionals=PROFESSIONALS,
    hours={key: SPLIT for key in SPLIT_DAY},
    faq=FAQ,
    faq_facts=FAQ_FACTS,
)
SALONS: dict[str, SalonSpec] = {"ipe": IPE}
"""Every salon a case may name (``Conversation.salon``); more register themselves here."""


@dataclass(frozen=True, slots=True)
class Salon:
    tenant: Tenant
    services: dict[str, Service]
    professionals: dict[str, Professional]
    faq: dict[str, FaqEntry]


async def seed_salon(repos: Repositories, spec: SalonSpec = IPE) -> Salon:
    tenant = await repos.tenants.add(
        Tenant(
            name=spec.name,
            time_zone="America/Sao_Paulo",
            locale="pt-BR",
            policy=BookingPolicy(minimum_notice_minutes=60, slot_step_minutes=30),
        )
    )
    services = {
        key: await repos.services.add(
            Service(
                tenant_id=tenant.id,
                name=name,
                duration_minutes=minutes,
                price_minor=price,
                description=description,
                aliases=spec.service_aliases[key],
                localized_aliases=tuple(
                    LocalizedAliases(language=language, aliases=words)
                    for language, words in spec.localized_aliases.get(key, {}).items()
                ),
            )
        )
        for key, (name, minutes, price, description) in spec.services.items()
    }
    professionals = {
        key: await repos.professionals.add(
            Professional(
                tenant_id=tenant.id,
                name=name,
                specialty=specialty,
                calendar_id=f"{key}-{tenant.id}",
                weekly_hours=spec.hours.get(key, WEEK),
                service_ids=tuple(services[s].id for s in offered),
            )
        )
        for key, (name, specialty, offered) in spec.professionals.items()
    }
    faq = {
        key: await repos.faq.add(
            FaqEntry(
                tenant_id=tenant.id,
                question=question,
                answer=answer,
                tags=tags,
                localized=tuple(
                    LocalizedFaq(language=language, question=asked, answer=said)
                    for language, (asked, said) in spec.localized_faq.get(key, {}).items()
                ),
            )
        )
        for key, (question, answer, tags) in spec.faq.items()
    }
    return Salon(tenant, services, professionals, faq)


def local(day: date, at: time) -> datetime:
    """A São Paulo local date and time as an aware instant."""
    return datetime.combine(day, at, ZONE)


@dataclass(frozen=True, slots=True)
class Booked:
    """An appointment that exists before the conversation starts (for cancel/reschedule)."""

    service: str
    professional: str
    start: datetime


@dataclass(frozen=True, slots=True)
class ActionRecord:
    kind: str
    appointment_id: UUID | None
    detail: str


@dataclass(frozen=True, slots=True)
class TurnRecord:
    text: str
    reply: str
    specialist: str
    tools: tuple[str, ...]
    actions: tuple[ActionRecord, ...]


@dataclass(frozen=True, slots=True)
class AppointmentRecord:
    id: UUID
    service: str
    professional: str
    start: datetime
    status: str
    preexisting: bool
    booked_at: datetime | None = None
    """For an appointment the case started with: where it was booked (tells several apart)."""


@dataclass
class Transcript:
    """Everything a case is judged on (the task's output)."""

    turns: list[TurnRecord] = field(default_factory=list)
    appointments: list[AppointmentRecord] = field(default_factory=list)
    calendar_events: int = 0
    status: str = ""
    faq_ids: dict[str, str] = field(default_factory=dict)
    error: str | None = None

    @property
    def tools(self) -> list[str]:
        return [tool for turn in self.turns for tool in turn.tools]

    @property
    def actions(self) -> list[ActionRecord]:
        return [action for turn in self.turns for action in turn.actions]

    @property
    def specialists(self) -> list[str]:
        return [turn.specialist for turn in self.turns]


class Harness:
    """One fresh salon, customer, repositories, calendar and conversation engine per
    conversation; the model, agents and graph are shared between them, as in the service."""

    def __init__(
        self,
        model: Model,
        *,
        settings: ModelSettings | None = None,
        retries: int = 1,
        limits: UsageLimits | None = None,
        now: datetime = NOW,
    ) -> None:
        self.model = model
        self.settings = settings or ModelSettings()
        self.retries = retries
        self.limits = limits or UsageLimits(request_limit=8, tool_calls_limit=12)
        self.now = now

    async def play(
        self, messages: list[str], booked: list[Booked], salon_key: str = "ipe"
    ) -> Transcript:
        repos = in_memory_repositories()
        calendar = InMemoryCalendar(clock=lambda: self.now)
        booking = wire_booking(repos, calendar, lambda: self.now)
        salon = await seed_salon(repos, SALONS[salon_key])
        customer, _ = await repos.customers.upsert(
            Customer(tenant_id=salon.tenant.id, channel=CHANNEL, external_id=CUSTOMER)
        )
        before: dict[UUID, datetime] = {}
        for item in booked:
            appointment = await booking.book.execute(
                salon.tenant.id,
                customer.id,
                salon.professionals[item.professional].id,
                salon.services[item.service].id,
                item.start,
            )
            before[appointment.id] = item.start
        handle = self._handler(repos, calendar, booking)
        transcript = Transcript(faq_ids={key: str(e.id) for key, e in salon.faq.items()})
        for text in messages:
            transcript.turns.append(await self._turn(handle, salon.tenant.id, text))
        transcript.appointments = [
            _appointment_record(a, before.get(a.id))
            for a in await _appointments(repos, salon.tenant.id, customer.id)
        ]
        transcript.calendar_events = sum(
            1 for event in calendar.events.values() if event.status != "cancelled"
        )
        conversation = await repos.conversations.find_open(salon.tenant.id, customer.id, CHANNEL)
        transcript.status = (
            conversation.status.value if conversation else ConversationStatus.ENDED.value
        )
        return transcript

    @cached_property
    def _graph(self) -> CompiledStateGraph[Any, Any, Any, Any]:
        """The agents and their graph, built once per harness as the service builds them once
        at start-up and shares them between conversations: they hold no conversation state
        (a turn's data reaches them through ``AgentDeps``). Building them is most of the CPU
        of a short conversation (every tool's JSON schema)."""
        specialists = enabled_specialists({})
        agents = build_agents(self.model, specialists, self.settings, self.retries)
        return build_graph(agents, specialists)

    def _handler(
        self, repos: Repositories, calendar: InMemoryCalendar, booking: Booking
    ) -> HandleMessage:
        engine = LangGraphConversationEngine(
            self._graph,
            repos,
            calendar,
            booking,
            self.limits,
            clock=lambda: self.now,
        )
        return HandleMessage(repos, engine)

    @staticmethod
    async def _turn(handle: HandleMessage, tenant_id: UUID, text: str) -> TurnRecord:
        tools: list[str] = []

        async def progress(event: ProgressEvent) -> None:
            if event.progress.startswith("tool:"):
                tools.append(event.progress.removeprefix("tool:"))

        handled = await handle.execute(
            IncomingMessage(
                tenant_id=tenant_id,
                channel=CHANNEL,
                external_id=CUSTOMER,
                display_name="",
                conversation_id=None,
                message_id=uuid.uuid4().hex,
                text=text,
            ),
            progress,
        )
        result = handled.result
        return TurnRecord(
            text=text,
            reply=result.reply,
            specialist=result.specialist,
            tools=tuple(tools),
            actions=tuple(
                ActionRecord(a.kind.value, a.appointment_id, a.detail) for a in result.actions
            ),
        )


async def _appointments(
    repos: Repositories, tenant_id: UUID, customer_id: UUID
) -> list[Appointment]:
    found, _ = await repos.appointments.list(
        tenant_id, AppointmentFilter(customer_id=customer_id), page_size=500, page_token=None
    )
    return found


def _appointment_record(appointment: Appointment, booked_at: datetime | None) -> AppointmentRecord:
    return AppointmentRecord(
        id=appointment.id,
        service=appointment.service_name,
        professional=appointment.professional_name,
        start=appointment.start.astimezone(ZONE),
        status=appointment.status.value,
        preexisting=booked_at is not None,
        booked_at=booked_at,
    )


CONFIRMED = AppointmentStatus.CONFIRMED.value
CANCELLED = AppointmentStatus.CANCELLED.value
HANDED_OFF = ConversationStatus.HANDED_OFF.value
