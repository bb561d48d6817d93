"""One gRPC server bootstrap for both services: health, reflection, interceptors, shutdown."""

from __future__ import annotations

import asyncio
import gc
import signal
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import grpc
import structlog
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_health.v1.health import aio as health_aio
from grpc_reflection.v1alpha import reflection

from agenda_kit import event_loop, tracing
from agenda_kit.grpc.limits import MAX_MESSAGE_BYTES
from agenda_kit.health import HealthWatcher

log = structlog.get_logger("agenda.server")


@dataclass(frozen=True, slots=True)
class ServiceRegistration:
    """A servicer to add: ``add(server)`` registers it; ``name`` is its full service name."""

    name: str
    add: Callable[[grpc.aio.Server], None]


@dataclass(slots=True)
class ServerSpec:
    """What ``create_server`` builds: services, interceptors and the health servicer.

    ``watcher`` (dependency probes) starts when the server reports SERVING.
    """

    services: Sequence[ServiceRegistration]
    interceptors: Sequence[grpc.aio.ServerInterceptor] = ()
    health: health_aio.HealthServicer = field(default_factory=health_aio.HealthServicer)
    credentials: grpc.ServerCredentials | None = None
    max_message_bytes: int = MAX_MESSAGE_BYTES
    watcher: HealthWatcher | None = None


def create_server(addr: str, spec: ServerSpec) -> tuple[grpc.aio.Server, int]:
    """A configured, not yet started server bound to ``addr`` (port 0 picks a free one)."""
    options = [
        ("grpc.max_receive_message_length", spec.max_message_bytes),
        ("grpc.max_send_message_length", spec.max_message_bytes),
        ("grpc.so_reuseport", 0),
    ]
    interceptors = [*tracing.server_interceptors(), *spec.interceptors]
    server = grpc.aio.server(interceptors=interceptors, options=options)
    for service in spec.services:
        service.add(server)
    health_pb2_grpc.add_HealthServicer_to_server(spec.health, server)
    names = [service.name for service in spec.services]
    reflection.enable_server_reflection(
        [
            *names,
            health_pb2.DESCRIPTOR.services_by_name["Health"].full_name,
            reflection.SERVICE_NAME,
        ],
        server,
    )
    try:
        if spec.credentials is None:
            port = server.add_insecure_port(addr)
        else:
            port = server.add_secure_port(addr, spec.credentials)
    except RuntimeError as error:  # grpc's "Failed to bind to address ..."
        raise PortUnavailableError(addr) from error
    if port == 0:
        raise PortUnavailableError(addr)
    return server, port


class PortUnavailableError(OSError):
    """The server could not listen on ``address``: the port is taken (or not allowed)."""

    def __init__(self, address: str) -> None:
        super().__init__(f"cannot listen on {address}: the port is in use or not allowed")
        self.address = address


LIVENESS = "liveness"
"""A health name that no dependency probe changes: SERVING from start-up until shutdown, as
long as the server's event loop answers — what a liveness probe asks (a MongoDB outage makes
the overall status NOT_SERVING, which should take a replica out of rotation, not restart it)."""


async def mark_serving(spec: ServerSpec) -> None:
    """Health: the overall status ("") and every service become SERVING; from then on the
    dependency watcher (if any) keeps them up to date."""
    names = [service.name for service in spec.services]
    for name in ("", LIVENESS, *names):
        await spec.health.set(name, health_pb2.HealthCheckResponse.SERVING)
    if spec.watcher is not None:
        spec.watcher.start(spec.health, names)


async def shutdown(server: grpc.aio.Server, spec: ServerSpec, grace: float) -> None:
    """Health → NOT_SERVING first, then let in-flight RPCs finish within ``grace`` seconds."""
    await spec.health.enter_graceful_shutdown()
    if spec.watcher is not None:
        await spec.watcher.stop()
    await server.stop(grace)


GC_YOUNG_THRESHOLD = 10_000
"""Allocations (net of frees) between two young-generation collections (CPython's default:
700). A turn allocates tens of thousands of short-lived objects, almost all freed by reference
counting; at 700 the collector runs a dozen times per turn, mostly finding nothing."""


def settle_heap() -> None:
    """After start-up: collect once, move every surviving object (modules, compiled graphs,
    agents, schemas) to the permanent generation so no later collection walks them again, and
    collect the young generation less often (``GC_YOUNG_THRESHOLD``). Cyclic garbage is still
    collected; only the start-up heap is left out of the older generations' full scans."""
    gc.collect()
    gc.freeze()
    _, older, oldest = gc.get_threshold()
    gc.set_threshold(GC_YOUNG_THRESHOLD, older, oldest)


async def serve_until_signal(server: grpc.aio.Server, spec: ServerSpec, grace: float) -> None:
    """Start, report SERVING, and on SIGTERM/SIGINT shut down gracefully."""
    settle_heap()
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stop.set)
    await server.start()
    await mark_serving(spec)
    log.info("server_started", event_loop=event_loop.running().value)
    await stop.wait()
    log.info("server_stopping", grace_seconds=grace)
    await shutdown(server, spec, grace)
    log.info("server_stopped")
