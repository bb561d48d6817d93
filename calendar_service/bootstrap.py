"""The composition root: settings → adapters → use cases → servicer → gRPC server."""

from __future__ import annotations

from contextlib import AsyncExitStack
from dataclasses import dataclass, field

import grpc
import structlog

from agenda.calendar.v1 import calendar_service_pb2 as pb
from agenda.calendar.v1 import calendar_service_pb2_grpc as pb_grpc
from agenda_kit.auth.principals import CalendarGrant, Principal, Role
from agenda_kit.auth.setup import build_directory, env_entry
from agenda_kit.grpc.auth import AuthorizationInterceptor
from agenda_kit.grpc.context import RequestContextInterceptor
from agenda_kit.grpc.run import Serving
from agenda_kit.grpc.server import ServerSpec, ServiceRegistration, create_server
from agenda_kit.grpc.tls import server_credentials
from agenda_kit.health import HealthWatcher
from agenda_kit.settings import SharedSettings
from calendar_service.application import use_cases
from calendar_service.application.busy_time import BusyTimeCalendarAdapter
from calendar_service.application.caching import CachingCalendarAdapter
from calendar_service.infrastructure.backends import open_backend, open_change_feed
from calendar_service.infrastructure.grpc.errors import CALENDAR_ERRORS
from calendar_service.infrastructure.grpc.policy import CALENDAR_POLICY
from calendar_service.infrastructure.grpc.servicer import CalendarServicer, CalendarUseCases
from calendar_service.infrastructure.settings import CalendarSettings

log = structlog.get_logger("agenda.calendar")
SERVICE_NAME = pb.DESCRIPTOR.services_by_name["CalendarService"].full_name
ENV_PRINCIPAL = Principal(
    name="calendar-client",
    roles=frozenset({Role.CALENDAR_CLIENT}),
    calendars=(CalendarGrant(pattern="*", write=True, all_owners=True),),
)
"""Who a ``CALENDAR_AUTH_TOKENS`` token is: the single calendar client, every calendar."""


@dataclass
class CalendarApp(Serving):
    """A wired calendar service: a bound (not yet started) server and what it owns."""

    server: grpc.aio.Server
    port: int
    spec: ServerSpec
    calendar: CachingCalendarAdapter
    resources: AsyncExitStack = field(default_factory=AsyncExitStack)


def build_use_cases(calendar: BusyTimeCalendarAdapter) -> CalendarUseCases:
    return CalendarUseCases(
        get_free_slots=use_cases.GetFreeSlots(calendar),
        query_free_busy=use_cases.QueryFreeBusy(calendar),
        create_event=use_cases.CreateEvent(calendar),
        get_event=use_cases.GetEvent(calendar),
        cancel_event=use_cases.CancelEvent(calendar),
        list_events=use_cases.ListEvents(calendar),
        move_event=use_cases.MoveEvent(calendar),
    )


async def bootstrap(
    settings: CalendarSettings,
    shared: SharedSettings,
    *,
    backend: BusyTimeCalendarAdapter | None = None,
) -> CalendarApp:
    """Wire the service. Tests pass ``backend`` (a fake or a pre-built adapter) and port 0."""
    resources = AsyncExitStack()
    watcher = HealthWatcher(
        interval=shared.health_interval_seconds, timeout=shared.health_timeout_seconds
    )
    try:
        if backend is None:
            backend = await open_backend(settings, shared, resources, watcher)
        resources.push_async_callback(watcher.stop)  # stops before the backend closes
        calendar = CachingCalendarAdapter(
            backend,
            settings.freebusy_cache_ttl_seconds,
            prefetch_days=settings.freebusy_prefetch_days,
            followed_ttl_seconds=settings.freebusy_followed_ttl_seconds,
        )
        calendar.feed = await open_change_feed(backend, settings, calendar.pushed_change, resources)
        directory = build_directory(
            shared.principals_file, shared.data_dir, env_entry(ENV_PRINCIPAL, settings.auth_tokens)
        )
        servicer = CalendarServicer(build_use_cases(calendar))
        spec = ServerSpec(
            services=[
                ServiceRegistration(
                    SERVICE_NAME,
                    lambda server: pb_grpc.add_CalendarServiceServicer_to_server(servicer, server),
                )
            ],
            interceptors=[
                RequestContextInterceptor(CALENDAR_ERRORS),
                AuthorizationInterceptor(directory, [CALENDAR_POLICY]),
            ],
            credentials=server_credentials(
                settings.tls_cert_file, settings.tls_key_file, settings.tls_client_ca_file
            ),
            watcher=watcher,
        )
        server, port = create_server(f"{settings.grpc_host}:{settings.grpc_port}", spec)
    except BaseException:
        await resources.aclose()
        raise
    log.info("calendar_service_ready", port=port, backend=settings.backend.value)
    return CalendarApp(server, port, spec, calendar, resources)
