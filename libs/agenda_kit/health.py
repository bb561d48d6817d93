"""Dependency health: probes run every few seconds and set the gRPC health statuses.

Two kinds of dependency:

- *required* (MongoDB): while its probe fails, the overall status (``""``) and every service
  the server serves are ``NOT_SERVING``; they return to ``SERVING`` when it passes again;
- *reported* (the calendar service, seen from the agent): its status is published under its
  own component name only, and never changes the server's own statuses.

The watcher starts when the server reports SERVING (``agenda_kit.grpc.server.mark_serving``)
and stops with the server's resources. After a graceful shutdown began, the health servicer
ignores every update, so a late probe cannot turn a stopping server back to SERVING.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

import structlog
from grpc_health.v1 import health_pb2
from grpc_health.v1.health import aio as health_aio
from pymongo import AsyncMongoClient

from agenda_kit.metrics import DEPENDENCY_UP

log = structlog.get_logger("agenda.health")
Probe = Callable[[], Awaitable[bool]]
SERVING = health_pb2.HealthCheckResponse.SERVING
NOT_SERVING = health_pb2.HealthCheckResponse.NOT_SERVING


@dataclass(frozen=True, slots=True)
class _Dependency:
    name: str
    probe: Probe
    required: bool


class HealthWatcher:
    """Runs every dependency's probe each ``interval`` seconds (each within ``timeout``)."""

    def __init__(self, *, interval: float = 5.0, timeout: float = 2.0) -> None:
        if interval <= 0 or timeout <= 0:
            raise ValueError("interval and timeout must be positive")
        self.interval = interval
        self.timeout = timeout
        self._dependencies: list[_Dependency] = []
        self._health: health_aio.HealthServicer | None = None
        self._services: tuple[str, ...] = ()
        self._published: dict[str, bool] = {}
        self._task: asyncio.Task[None] | None = None

    def require(self, name: str, probe: Probe) -> None:
        """While ``probe`` fails, the whole server is NOT_SERVING."""
        self._dependencies.append(_Dependency(name, probe, required=True))

    def report(self, component: str, probe: Probe) -> None:
        """Publish ``probe``'s outcome as the health of ``component`` only."""
        self._dependencies.append(_Dependency(component, probe, required=False))

    def start(self, health: health_aio.HealthServicer, services: Sequence[str]) -> None:
        """Check now and then every ``interval`` seconds; ``services`` are the server's names."""
        if self._task is not None or not self._dependencies:
            return
        self._health = health
        self._services = ("", *services)
        self._task = asyncio.get_running_loop().create_task(self._loop())

    async def stop(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def check_once(self) -> dict[str, bool]:
        """Probe every dependency, publish the statuses; returns name → healthy."""
        results = await asyncio.gather(*(self._probe(dep) for dep in self._dependencies))
        outcome = {dep.name: ok for dep, ok in zip(self._dependencies, results, strict=True)}
        required_ok = all(
            ok for dep, ok in zip(self._dependencies, results, strict=True) if dep.required
        )
        for name in self._services:
            await self._publish(name, required_ok)
        for dep in self._dependencies:
            if not dep.required:
                await self._publish(dep.name, outcome[dep.name])
        return outcome

    async def _loop(self) -> None:
        while True:
            try:
                await self.check_once()
            except Exception:  # a bug here must not end health reporting
                log.exception("health_check_failed")
            await asyncio.sleep(self.interval)

    async def _probe(self, dependency: _Dependency) -> bool:
        try:
            async with asyncio.timeout(self.timeout):
                healthy = await dependency.probe()
        except Exception as error:  # noqa: BLE001 - any failure means unhealthy
            log.debug("dependency_probe_failed", dependency=dependency.name, error=repr(error))
            healthy = False
        DEPENDENCY_UP.labels(dependency.name).set(1 if healthy else 0)
        return healthy

    async def _publish(self, name: str, healthy: bool) -> None:
        if self._health is None or self._published.get(name) is healthy:
            return
        if name in self._published or not healthy:
            event = log.info if healthy else log.warning
            event("health_changed", component=name or "(overall)", serving=healthy)
        self._published[name] = healthy
        await self._health.set(name, SERVING if healthy else NOT_SERVING)


def mongo_probe(client: AsyncMongoClient[Any]) -> Probe:
    """A probe that passes when MongoDB answers ``ping``."""

    async def ping() -> bool:
        await client.admin.command("ping")
        return True

    return ping
