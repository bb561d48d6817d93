"""A whole assistant (graph, agents, tools, booking) over in-memory repositories and the
in-memory calendar, for conversation tests with any model."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, time
from uuid import UUID

from pydantic_ai.models import Model
from pydantic_ai.usage import UsageLimits

from agent_service.application.conversation import HandledMessage, HandleMessage, IncomingMessage
from agent_service.application.repositories import Repositories
from agent_service.bootstrap import wire_booking
from agent_service.domain.catalog import (
    BookingPolicy,
    FaqEntry,
    Professional,
    Service,
    Tenant,
    WorkingHours,
)
from agent_service.infrastructure.agent.agents import build_agents
from agent_service.infrastructure.agent.engine import LangGraphConversationEngine, ReplyPolicy
from agent_service.infrastructure.agent.graph import build_graph
from agent_service.infrastructure.agent.model_health import GuardedModel, ModelHealth
from agent_service.infrastructure.agent.models import build_model
from agent_service.infrastructure.agent.specialists import enabled_specialists
from tests.fakes.agent_repositories import in_memory_repositories
from tests.fakes.in_memory_calendar import InMemoryCalendar

# Monday 2026-11-30 09:00 in São Paulo (UTC-3).
NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)


@dataclass
class Salon:
    tenant: Tenant
    cut: Service
    beard: Service
    ana: Professional
    bruno: Professional


async def seed_salon(repos: Repositories, name: str = "Salão Teste") -> Salon:
    tenant = await repos.tenants.add(
        Tenant(
            name=name,
            time_zone="America/Sao_Paulo",
            locale="pt-BR",
            policy=BookingPolicy(minimum_notice_minutes=60, slot_step_minutes=30),
        )
    )
    cut = await repos.services.add(
        Service(tenant_id=tenant.id, name="Corte feminino", duration_minutes=60, price_minor=8000)
    )
    beard = await repos.services.add(
        Service(tenant_id=tenant.id, name="Barba", duration_minutes=30, price_minor=4000)
    )
    week = tuple(WorkingHours(day_of_week=d, start=time(9), end=time(18)) for d in range(1, 7))
    ana = await repos.professionals.add(
        Professional(
            tenant_id=tenant.id,
            name="Ana Souza",
            specialty="Cabeleireira",
            calendar_id=f"ana-{tenant.id}",
            weekly_hours=week,
            service_ids=(cut.id,),
        )
    )
    bruno = await repos.professionals.add(
        Professional(
            tenant_id=tenant.id,
            name="Bruno Lima",
            specialty="Barbeiro",
            calendar_id=f"bruno-{tenant.id}",
            weekly_hours=week,
            service_ids=(beard.id,),
        )
    )
    await repos.faq.add(
        FaqEntry(
            tenant_id=tenant.id,
            question="Qual é o endereço?",
            answer="Rua das Flores, 123.",
            tags=("endereço", "address", "onde"),
        )
    )
    return Salon(tenant, cut, beard, ana, bruno)


class Assistant:
    """The application's HandleMessage wired like bootstrap does, with a fixed clock."""

    def __init__(
        self,
        model: Model | None = None,
        flags: dict[str, bool] | None = None,
        now: datetime = NOW,
        request_limit: int = 8,
        repos: Repositories | None = None,
        model_timeout: float = 30.0,
        clock: Callable[[], datetime] | None = None,
        policy: ReplyPolicy | None = None,
    ) -> None:
        """``clock``: the engine's clock (default: ``now``, fixed); ``policy``: its reply
        policy (default: the engine's)."""
        self.repos = repos or in_memory_repositories()
        self.calendar = InMemoryCalendar(clock=lambda: now)
        self.booking = wire_booking(self.repos, self.calendar, lambda: now)
        specialists = enabled_specialists(flags or {})
        self.model_health = ModelHealth()
        guarded = GuardedModel(
            model or build_model("offline"), self.model_health, timeout=model_timeout
        )
        agents = build_agents(guarded, specialists, {}, 1)
        engine = LangGraphConversationEngine(
            build_graph(agents, specialists),
            self.repos,
            self.calendar,
            self.booking,
            UsageLimits(request_limit=request_limit, tool_calls_limit=12),
            clock=clock or (lambda: now),
            policy=policy or ReplyPolicy(),
        )
        self.engine = engine
        self.handle = HandleMessage(self.repos, engine)

    async def say(
        self,
        tenant_id: UUID,
        text: str,
        customer: str = "5511999990000",
        message_id: str | None = None,
    ) -> HandledMessage:
        return await self.handle.execute(
            IncomingMessage(
                tenant_id=tenant_id,
                channel="whatsapp",
                external_id=customer,
                display_name="",
                conversation_id=None,
                message_id=message_id or uuid.uuid4().hex,
                text=text,
            )
        )
