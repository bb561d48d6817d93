"""Both services as real processes (started in parallel) and the real grpcurl against them.

The environment of every process is the caller's minus the Agenda settings a developer may
have exported (``MONGODB_URI``, tokens, addresses, ports), plus what the test passes: a test
never talks to a developer's MongoDB or services.

Byte-code: every child shares the run's byte-code cache (``tests/conftest.py``), so no
service process compiles langgraph, pydantic-ai & co. again (~8 s of CPU each).
"""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from tests.e2e.processes import REPO, ServiceProcess, free_port, grpcurl, wait_serving
from tests.forkserver import spawn_service

AGENT_SERVICE = "agenda.agent.v1.AgentService"
CATALOG_SERVICE = "agenda.agent.v1.CatalogService"
CALENDAR_SERVICE = "agenda.calendar.v1.CalendarService"
SALON_ZONE = ZoneInfo("America/Sao_Paulo")
_INHERITED_SETTINGS = ("MONGODB_", "AGENT_", "CALENDAR_", "AGENDA_", "OPENAI_")


def hermetic_env(**settings: str) -> dict[str, str]:
    """The current environment without any Agenda setting, plus ``settings`` (byte-code: the
    run's cache, see ``tests/conftest.py``)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(_INHERITED_SETTINGS)}
    return {**env, "PYTHONUNBUFFERED": "1", **settings}


@dataclass(frozen=True)
class Ports:
    calendar: int
    agent: int

    @classmethod
    def free(cls) -> Ports:
        return cls(free_port(), free_port())

    def env(self) -> dict[str, str]:
        """What the services read to listen and to find each other."""
        return {**self.listening(), "AGENT_CALENDAR_ADDR": f"127.0.0.1:{self.calendar}"}

    def listening(self) -> dict[str, str]:
        """Only where each service listens (metrics off): what a user of ``make run`` sets;
        everything that dials a service must follow by itself."""
        return {
            "CALENDAR_GRPC_PORT": str(self.calendar),
            "AGENT_GRPC_PORT": str(self.agent),
            "CALENDAR_METRICS_PORT": "0",
            "AGENT_METRICS_PORT": "0",
        }


@dataclass
class Services:
    calendar: ServiceProcess
    agent: ServiceProcess


CALENDAR_COMPONENT = "agenda.calendar.v1.CalendarService"
"""The agent's health component for its calendar dependency (docs/operations.md)."""


@contextmanager
def running_services(data_dir: Path, ports: Ports, **settings: str) -> Iterator[Services]:
    """``python -m calendar_service`` and ``python -m agent_service`` on ``data_dir`` (embedded
    MongoDB, local calendar, offline model), started together; SIGTERM (then kill) on exit."""
    env = hermetic_env(AGENDA_DATA_DIR=str(data_dir), **ports.env(), **settings)
    data_dir.mkdir(parents=True, exist_ok=True)
    started: list[ServiceProcess] = []
    try:
        for module, port in (("calendar_service", ports.calendar), ("agent_service", ports.agent)):
            log_path = data_dir / f"{module}.test.log"
            process = spawn_service(module, env, log_path, REPO)
            started.append(ServiceProcess(process, port, log_path))
        for service in started:
            wait_serving(service.address, service.process, service.log_path, timeout=90)
        # and the agent sees the calendar: its first probe may have run before the calendar
        # served, and the next comes an AGENDA_HEALTH_INTERVAL_SECONDS later
        agent = started[1]
        wait_serving(agent.address, agent.process, agent.log_path, 90, CALENDAR_COMPONENT)
        yield Services(*started)
    finally:
        for service in started:
            if service.process.poll() is None:
                service.process.terminate()
        for service in started:
            try:
                service.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                service.process.kill()
                service.process.wait()


@dataclass(frozen=True)
class ZeroConfig:
    """The zero-config services a newcomer meets (``tests/e2e/conftest.py``)."""

    root: Path
    ports: Ports
    services: Services

    @property
    def data_dir(self) -> Path:
        return self.root / ".data"


def call(
    address: str, method: str, body: Mapping[str, Any] | None = None, token: str | None = None
) -> dict[str, Any]:
    """One unary RPC with the real grpcurl (reflection, no proto files); its JSON reply."""
    args = ["-plaintext", "-max-time", "60"]
    if token is not None:
        args += ["-H", f"authorization: Bearer {token}"]
    if body is not None:
        args += ["-d", json.dumps(body)]
    result = grpcurl(*args, address, method, timeout=90)
    assert result.returncode == 0, f"{method}: {result.stderr}"
    reply: dict[str, Any] = json.loads(result.stdout)
    return reply


def rfc3339(value: datetime) -> str:
    """A UTC timestamp as protobuf's JSON mapping writes it."""
    return value.astimezone(UTC).isoformat().replace("+00:00", "Z")


def local_day_range(day: date) -> dict[str, str]:
    start = datetime(day.year, day.month, day.day, tzinfo=SALON_ZONE)
    return {"start": rfc3339(start), "end": rfc3339(start + timedelta(days=1))}
