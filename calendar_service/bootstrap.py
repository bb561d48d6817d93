"""The composition root: settings → adapters → use cases → servicer → gRPC server."""

from __future__ import annotations

from contextlib import AsyncExitStack
from dataclasses import dataclass, field
from datetime import timedelta

import grpc
import structlog

from agenda.calendar.v1 import calendar_service_pb2 as pb
from agenda.calendar.v1 import calendar_service_pb2_grpc as pb_grpc
from agenda_kit.auth.principals import CalendarGrant, Principal, Role
from agenda_kit.auth.setup import build_directory, env_entry
from agenda_kit.grpc.admission import AdmissionLimits, EdgeAdmission
from agenda_kit.grpc.auth import AuthorizationInterceptor
from agenda_kit.grpc.context import RequestContextInterceptor
from agenda_kit.grpc.run import Serving
from agenda_kit.grpc.server import ServerSpec, ServiceRegistration, create_server
from agenda_kit.grpc.tls import server_credentials
from agenda_kit.health import HealthWatcher
from agenda_kit.settings import SharedSettings
from calendar_service.application import event_writes, use_cases
from calendar_service.application.busy_time import BusyTimeCalendarAdapter
from calendar_service.application.caching import CachingCalendarAdapter
from calendar_service.application.guard import SlotGuard
from calendar_service.application.holds import HoldStore
from calendar_service.application.sweeper import HoldSweeper
from calendar_service.infrastructure.backends import (
    MongoClient,
    open_backend,
    open_change_feed,
    open_mongo,
)
from calendar_service.infrastructure.grpc.bounds import CALENDAR_BOUNDS
from calendar_service.infrastructure.grpc.errors import CALENDAR_ERRORS
from calendar_service.infrastructure.grpc.policy import CALENDAR_POLICY
from calendar_service.infrastructure.grpc.servicer import CalendarServicer, CalendarUseCases
from calendar_service.infrastructure.mongo_holds import COLLECTION, MongoHoldStore
from calendar_service.infrastructure.settings import Backend, CalendarSettings

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
    guard: SlotGuard
    holds: HoldStore
    backend: BusyTimeCalendarAdapter
    resources: AsyncExitStack = field(default_factory=AsyncExitStack)


def build_use_cases(calendar: BusyTimeCalendarAdapter, guard: SlotGuard) -> CalendarUseCases:
    update = event_writes.UpdateEvent(calendar, guard)
    return CalendarUseCases(
        get_free_slots=use_cases.GetFreeSlots(calendar),
        query_free_busy=use_cases.QueryFreeBusy(calendar),
        create_event=event_writes.CreateEvent(calendar, guard),
        get_event=use_cases.GetEvent(calendar),
        cancel_event=event_writes.CancelEvent(calendar, guard),
        list_events=use_cases.ListEvents(calendar),
        move_event=event_writes.MoveEvent(update),
        update_event=update,
    )


async def _stores(
    settings: CalendarSettings,
    shared: SharedSettings,
    resources: AsyncExitStack,
    watcher: HealthWatcher,
    backend: BusyTimeCalendarAdapter | None,
    holds: HoldStore | None,
) -> tuple[BusyTimeCalendarAdapter, HoldStore]:
    """The backend and the hold store; MongoDB is opened when either needs it (the hold
    store, or the built-in calendar)."""
    client: MongoClient | None = None
    local = backend is None and settings.backend is Backend.LOCAL
    if holds is None or local:
        client = await open_mongo(shared, resources, watcher)
    if backend is None:
        backend = await open_backend(settings, resources, client)
    if holds is None:
        assert client is not None
        holds = await MongoHoldStore.open(client[settings.database][COLLECTION])
    return backend, holds


async def bootstrap(
    settings: CalendarSettings,
    shared: SharedSettings,
    *,
    backend: BusyTimeCalendarAdapter | None = None,
    holds: HoldStore | None = None,
) -> CalendarApp:
    """Wire the service. Tests pass ``backend`` (a fake or a pre-built adapter), ``holds``
    (a fake hold store) and port 0; otherwise both live in MongoDB / the configured
    provider."""
    resources = AsyncExitStack()
    watcher = HealthWatcher(
        interval=shared.health_interval_seconds, timeout=shared.health_timeout_seconds
    )
    try:
        # Credentials first: a bad principals file stops the start before any store opens
        # (no embedded MongoDB is spawned for a configuration that cannot serve).
        directory = build_directory(
            shared.principals_file, shared.data_dir, env_entry(ENV_PRINCIPAL, settings.auth_tokens)
        )
        backend, holds = await _stores(settings, shared, resources, watcher, backend, holds)
        resources.push_async_callback(watcher.stop)  # stops before the backend closes
        calendar = CachingCalendarAdapter(
            backend,
            settings.freebusy_cache_ttl_seconds,
            prefetch_days=settings.freebusy_prefetch_days,
            followed_ttl_seconds=settings.freebusy_followed_ttl_seconds,
        )
        calendar.feed = await open_change_feed(backend, settings, calendar.pushed_change, resources)
        guard = SlotGuard(calendar, holds, lease=timedelta(seconds=settings.hold_lease_seconds))
        if settings.hold_sweep_interval_seconds > 0:
            sweeper = HoldSweeper(guard, settings.hold_sweep_interval_seconds)
            resources.push_async_callback(sweeper.stop)
            sweeper.start()
        servicer = CalendarServicer(build_use_cases(calendar, guard))
        spec = ServerSpec(
            services=[
                ServiceRegistration(
                    SERVICE_NAME,
                    lambda server: pb_grpc.add_CalendarServiceServicer_to_server(servicer, server),
                )
            ],
            interceptors=[
                RequestContextInterceptor(CALENDAR_ERRORS),
                AuthorizationInterceptor(
                    directory,
                    [CALENDAR_POLICY],
                    check=CALENDAR_BOUNDS.check,
                    admission=EdgeAdmission(
                        AdmissionLimits(calls_per_principal=settings.max_calls_per_principal)
                    ),
                ),
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
    return CalendarApp(server, port, spec, calendar, guard, holds, backend, resources)
