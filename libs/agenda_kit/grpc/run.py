"""Run a service process: logging, tracing, metrics, serve until SIGTERM/SIGINT, clean up."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from contextlib import AsyncExitStack
from typing import Protocol

import grpc

from agenda_kit.grpc.server import (
    PortUnavailableError,
    ServerSpec,
    mark_serving,
    serve_until_signal,
    shutdown,
)
from agenda_kit.logging import configure_logging
from agenda_kit.metrics import serve_metrics
from agenda_kit.settings import SharedSettings
from agenda_kit.tracing import configure_tracing, shutdown_tracing


class ServedApp(Protocol):
    """What a service's ``bootstrap`` returns: a bound server and what it owns."""

    server: grpc.aio.Server
    spec: ServerSpec
    resources: AsyncExitStack


class Serving:
    """``start``/``stop`` for a service's app dataclass (which declares the three fields)."""

    server: grpc.aio.Server
    spec: ServerSpec
    resources: AsyncExitStack

    async def start(self) -> None:
        await self.server.start()
        await mark_serving(self.spec)

    async def stop(self, grace: float = 5.0) -> None:
        """Health NOT_SERVING, drain in-flight calls, then release what the app opened."""
        await shutdown(self.server, self.spec, grace)
        await self.resources.aclose()


async def run_service(
    name: str,
    shared: SharedSettings,
    build: Callable[[], Awaitable[ServedApp]],
    *,
    metrics_port: int,
    grace: float,
    settings_prefix: str,
) -> None:
    """Configure logs and tracing, build the app, expose metrics, serve until a signal, then
    release everything the app opened (also when start-up fails half-way). A port that
    cannot be bound ends the process with one line naming its setting (:func:`built`,
    :func:`serving_metrics`)."""
    configure_logging(shared.log_level, json=shared.log_json)
    tracer_provider = configure_tracing(name, shared.tracing_mode())
    try:
        app = await built(name, build, settings_prefix)
        try:
            serving_metrics(name, metrics_port, settings_prefix)
            await serve_until_signal(app.server, app.spec, grace)
        finally:
            await app.resources.aclose()
    finally:
        shutdown_tracing(tracer_provider)


async def built(
    name: str, build: Callable[[], Awaitable[ServedApp]], settings_prefix: str
) -> ServedApp:
    """``build()``; a gRPC port that cannot be bound is ``SystemExit`` with one line naming
    ``{settings_prefix}_GRPC_PORT``, not a traceback."""
    try:
        return await build()
    except PortUnavailableError as error:
        raise SystemExit(
            f"{name}: {error}; set {settings_prefix}_GRPC_PORT (or {settings_prefix}_GRPC_HOST)"
        ) from None


def serving_metrics(name: str, port: int, settings_prefix: str) -> None:
    """``/metrics`` on ``port``; a port that cannot be bound is ``SystemExit`` with one line
    naming ``{settings_prefix}_METRICS_PORT``."""
    try:
        serve_metrics(port)
    except OSError as error:
        raise SystemExit(
            f"{name}: cannot serve metrics on port {port}: {error.strerror}; set "
            f"{settings_prefix}_METRICS_PORT to a free port (0 turns metrics off)"
        ) from None
