"""The composition root: settings → storage, calendar client, model, graph → use cases →
servicers → server. Every use case and servicer is wired here (docs/architecture.md#layers)."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AsyncExitStack
from dataclasses import dataclass, field
from datetime import datetime, timedelta

import grpc
import structlog
from pydantic_ai.models import Model
from pydantic_ai.settings import ModelSettings
from pydantic_ai.usage import UsageLimits

from agenda.agent.v1 import agent_service_pb2 as agent_pb
from agenda.agent.v1 import agent_service_pb2_grpc as agent_grpc
from agenda.agent.v1 import catalog_service_pb2_grpc as catalog_grpc
from agenda_kit.auth.directory import PrincipalDirectory
from agenda_kit.auth.principals import CalendarGrant, Principal, Role
from agenda_kit.auth.setup import build_directory, env_entry
from agenda_kit.calendar.port import ICalendarAdapter
from agenda_kit.grpc.admission import AdmissionLimits, EdgeAdmission
from agenda_kit.grpc.auth import AuthorizationInterceptor
from agenda_kit.grpc.context import RequestContextInterceptor
from agenda_kit.grpc.run import Serving
from agenda_kit.grpc.server import ServerSpec, ServiceRegistration, create_server
from agenda_kit.grpc.tls import server_credentials
from agenda_kit.health import HealthWatcher
from agenda_kit.settings import SharedSettings
from agent_service.application.book_appointment import BookAppointment, Failpoint
from agent_service.application.booking import Booking
from agent_service.application.booking_rules import Clock, GetCustomerAppointment, utc_now
from agent_service.application.cancel_appointment import CancelAppointment
from agent_service.application.catalog import (
    FaqCatalog,
    ProfessionalCatalog,
    ServiceCatalog,
    TenantCatalog,
)
from agent_service.application.conversation import HandleMessage
from agent_service.application.customers import CustomerDirectory, ListAppointments
from agent_service.application.free_slots import BookableCheck, FindFreeSlots
from agent_service.application.handoff import ConversationControl
from agent_service.application.outbox import OutboxFeed
from agent_service.application.ports import AppointmentCanceller
from agent_service.application.reconciler import Reconciler
from agent_service.application.repositories import Repositories
from agent_service.application.reschedule_appointment import RescheduleAppointment
from agent_service.application.turn_appointments import GetTurnAppointments
from agent_service.infrastructure import failpoints
from agent_service.infrastructure.agent.agents import build_agents
from agent_service.infrastructure.agent.engine import LangGraphConversationEngine, ReplyPolicy
from agent_service.infrastructure.agent.graph import build_graph
from agent_service.infrastructure.agent.model_health import (
    MODEL_COMPONENT,
    GuardedModel,
    ModelHealth,
    model_probe,
)
from agent_service.infrastructure.agent.models import build_model
from agent_service.infrastructure.agent.specialists import enabled_specialists, validate_flags
from agent_service.infrastructure.grpc.agent_servicer import AgentServicer
from agent_service.infrastructure.grpc.bounds import AGENT_BOUNDS
from agent_service.infrastructure.grpc.catalog_servicer import (
    SERVICE_NAME as CATALOG_SERVICE,
)
from agent_service.infrastructure.grpc.catalog_servicer import CatalogServicer, CatalogUseCases
from agent_service.infrastructure.grpc.errors import AGENT_ERRORS
from agent_service.infrastructure.grpc.policy import AGENT_POLICY, CATALOG_POLICY
from agent_service.infrastructure.resources import (
    open_calendar,
    open_storage,
    open_tenant_gate,
    start_reconciler,
)
from agent_service.infrastructure.settings import AgentSettings

log = structlog.get_logger("agenda.agent")
AGENT_SERVICE = agent_pb.DESCRIPTOR.services_by_name["AgentService"].full_name
ENV_PRINCIPAL = Principal(
    name="single-token",
    roles=frozenset({Role.GATEWAY, Role.BACKOFFICE, Role.OPERATOR}),
    tenants=None,
    calendars=(CalendarGrant(pattern="*", write=True),),
)
"""Who an ``AGENT_AUTH_TOKENS`` token is: one trusted caller that is gateway, back office and
operator of every tenant (the single-caller case; several callers need a principals file)."""
CALENDAR_COMPONENT = "agenda.calendar.v1.CalendarService"
"""The agent's health also reports the calendar service's, under this name only."""


@dataclass
class AgentApp(Serving):
    """A wired agent service: a bound (not yet started) server and what it owns."""

    server: grpc.aio.Server
    port: int
    spec: ServerSpec
    repos: Repositories
    calendar: ICalendarAdapter
    booking: Booking
    reconciler: Reconciler
    resources: AsyncExitStack = field(default_factory=AsyncExitStack)


@dataclass(frozen=True, slots=True, kw_only=True)
class Overrides:
    """What tests replace: storage, calendar, model."""

    repos: Repositories | None = None
    calendar: ICalendarAdapter | None = None
    model: Model | None = None
    clock: Callable[[], datetime] | None = None


async def bootstrap(
    settings: AgentSettings, shared: SharedSettings, overrides: Overrides = Overrides()
) -> AgentApp:
    validate_flags(settings.flags())
    resources = AsyncExitStack()
    watcher = HealthWatcher(
        interval=shared.health_interval_seconds, timeout=shared.health_timeout_seconds
    )
    try:
        # Credentials first: a bad principals file stops the start before any store opens.
        directory = build_directory(
            shared.principals_file, shared.data_dir, env_entry(ENV_PRINCIPAL, settings.auth_tokens)
        )
        repos, mongo = (
            (overrides.repos, None)
            if overrides.repos
            else await open_storage(settings, shared, resources, watcher)
        )
        calendar = overrides.calendar or await open_calendar(
            settings, shared, resources, watcher, CALENDAR_COMPONENT
        )
        resources.push_async_callback(watcher.stop)  # stops before storage and calendar close
        booking = wire_booking(
            repos, calendar, overrides.clock or utc_now, failpoints.from_environment()
        )
        model_health = ModelHealth(model_probe(settings, shared.health_timeout_seconds))
        watcher.report(MODEL_COMPONENT, model_health.check)
        handle = HandleMessage(
            repos,
            _engine(settings, repos, calendar, booking, overrides, model_health),
            gate=await open_tenant_gate(settings, mongo),
            renew_every=min(settings.turn_lease_seconds, settings.tenant_slot_lease_seconds) / 3,
            handoff_timeout=settings.handoff_timeout_seconds,
            turn_budget=settings.turn_budget_seconds,
        )
        # At shutdown, turns that outlived their caller finish before storage closes.
        resources.push_async_callback(handle.drain, settings.shutdown_grace_seconds)
        spec = _server_spec(settings, directory, repos, booking, handle)
        spec.watcher = watcher
        server, port = create_server(f"{settings.grpc_host}:{settings.grpc_port}", spec)
        reconciler = Reconciler(
            repos, calendar, grace=timedelta(seconds=settings.reconcile_grace_seconds)
        )
        start_reconciler(reconciler, settings.reconcile_interval_seconds, resources)
    except BaseException:
        await resources.aclose()
        raise
    log.info("agent_service_ready", port=port, model=settings.model)
    return AgentApp(server, port, spec, repos, calendar, booking, reconciler, resources)


def wire_booking(
    repos: Repositories,
    calendar: ICalendarAdapter,
    clock: Clock = utc_now,
    failpoint: Failpoint | None = None,
) -> Booking:
    """The booking use cases over one calendar and clock; ``failpoint`` (crash tests,
    ``AGENDA_FAILPOINTS``) is passed through the booking saga's steps."""
    free_slots = FindFreeSlots(calendar, clock)
    recheck = BookableCheck()
    book = (
        BookAppointment(repos, calendar, recheck, clock)
        if failpoint is None
        else BookAppointment(repos, calendar, recheck, clock, failpoint=failpoint)
    )
    return Booking(
        free_slots=free_slots,
        book=book,
        cancel=CancelAppointment(repos, calendar, clock),
        reschedule=RescheduleAppointment(repos, calendar, recheck, clock),
        customer_appointment=GetCustomerAppointment(repos),
    )


def catalog_registration(
    repos: Repositories, canceller: AppointmentCanceller
) -> ServiceRegistration:
    """The CatalogService for ``create_server``: its use cases over ``repos``."""
    servicer = CatalogServicer(
        CatalogUseCases(
            tenants=TenantCatalog(repos.tenants),
            services=ServiceCatalog(repos.tenants, repos.services, repos.professionals),
            professionals=ProfessionalCatalog(repos.tenants, repos.services, repos.professionals),
            faq=FaqCatalog(repos.tenants, repos.faq),
            customers=CustomerDirectory(repos.tenants, repos.customers),
            appointments=ListAppointments(repos.tenants, repos.appointments),
            canceller=canceller,
        )
    )
    return ServiceRegistration(
        CATALOG_SERVICE,
        lambda server: catalog_grpc.add_CatalogServiceServicer_to_server(servicer, server),
    )


def _engine(
    settings: AgentSettings,
    repos: Repositories,
    calendar: ICalendarAdapter,
    booking: Booking,
    overrides: Overrides,
    health: ModelHealth,
) -> LangGraphConversationEngine:
    specialists = enabled_specialists(settings.flags())
    configured = overrides.model or build_model(
        settings.model,
        openai_base_url=settings.openai_base_url,
        openai_api_key=settings.openai_api_key,
    )
    model = GuardedModel(configured, health, timeout=settings.model_timeout_seconds)
    agents = build_agents(model, specialists, _model_settings(settings), settings.model_retries)
    limits = UsageLimits(
        request_limit=settings.request_limit, tool_calls_limit=settings.tool_calls_limit
    )
    policy = ReplyPolicy(
        confirmation_ttl_seconds=settings.confirmation_ttl_seconds,
        max_reply_chars=settings.max_reply_chars,
        repeated_yes_seconds=settings.repeated_yes_seconds,
        confirmation_read_seconds=settings.confirmation_read_seconds,
    )
    return LangGraphConversationEngine(
        build_graph(agents, specialists),
        repos,
        calendar,
        booking,
        limits,
        clock=overrides.clock or utc_now,
        policy=policy,
        execution_lease_seconds=settings.turn_lease_seconds,
    )


def _model_settings(settings: AgentSettings) -> ModelSettings:
    model_settings = ModelSettings()
    if settings.temperature is not None:
        model_settings["temperature"] = settings.temperature
    if settings.top_p is not None:
        model_settings["top_p"] = settings.top_p
    if settings.max_output_tokens is not None:
        model_settings["max_tokens"] = settings.max_output_tokens
    return model_settings


def _server_spec(
    settings: AgentSettings,
    directory: PrincipalDirectory,
    repos: Repositories,
    booking: Booking,
    handle: HandleMessage,
) -> ServerSpec:
    servicer = AgentServicer(
        handle,
        ConversationControl(repos),
        GetTurnAppointments(repos.appointments),
        OutboxFeed(repos),
    )
    return ServerSpec(
        services=[
            ServiceRegistration(
                AGENT_SERVICE,
                lambda server: agent_grpc.add_AgentServiceServicer_to_server(servicer, server),
            ),
            catalog_registration(repos, booking.cancel),
        ],
        interceptors=[
            RequestContextInterceptor(AGENT_ERRORS),
            AuthorizationInterceptor(
                directory,
                [AGENT_POLICY, CATALOG_POLICY],
                check=AGENT_BOUNDS.check,
                admission=EdgeAdmission(
                    AdmissionLimits(
                        streams_per_principal=settings.max_streams_per_principal,
                        calls_per_tenant=settings.max_calls_per_tenant,
                    )
                ),
            ),
        ],
        credentials=server_credentials(
            settings.tls_cert_file, settings.tls_key_file, settings.tls_client_ca_file
        ),
    )
