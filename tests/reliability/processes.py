"""The services as real processes on the session's embedded MongoDB (``tests.e2e`` patterns):
the calendar service once, agent services started, killed and restarted at will."""

from __future__ import annotations

import os
import signal
import subprocess
import uuid
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

from tests.agent_service.integration.agent_fixtures import AGENT_TOKEN, CALENDAR_TOKEN, SALON_ZONE
from tests.e2e.agent_processes import hermetic_env
from tests.e2e.processes import REPO, ServiceProcess, free_port, wait_serving
from tests.forkserver import spawn_service
from tests.reliability import invariant


@dataclass
class Cluster:
    """Settings shared by the processes of one test: MongoDB, databases, tokens, ports."""

    mongo_uri: str
    data_dir: Path
    suffix: str = field(default_factory=lambda: uuid.uuid4().hex[:12])
    calendar_port: int = field(default_factory=free_port)
    started: list[ServiceProcess] = field(default_factory=list)

    @property
    def agent_database(self) -> str:
        return f"agent_{self.suffix}"

    @property
    def calendar_database(self) -> str:
        return f"cal_{self.suffix}"

    def _env(self, **settings: str) -> dict[str, str]:
        defaults = dict(
            MONGODB_URI=self.mongo_uri,
            AGENDA_DATA_DIR=str(self.data_dir),
            CALENDAR_DATABASE=self.calendar_database,
            CALENDAR_AUTH_TOKENS=CALENDAR_TOKEN,
            CALENDAR_GRPC_PORT=str(self.calendar_port),
            CALENDAR_METRICS_PORT="0",
            AGENT_DATABASE=self.agent_database,
            AGENT_AUTH_TOKENS=AGENT_TOKEN,
            AGENT_CALENDAR_TOKEN=CALENDAR_TOKEN,
            AGENT_CALENDAR_ADDR=f"127.0.0.1:{self.calendar_port}",
            AGENT_METRICS_PORT="0",
        )
        return hermetic_env(**(defaults | settings))

    def start(self, module: str, port: int, **settings: str) -> ServiceProcess:
        """``python -m module`` with the cluster's settings plus ``settings``; waits SERVING."""
        service = self.popen_service(module, port, **settings)
        self.wait_serving(service)
        return service

    @staticmethod
    def wait_serving(*services: ServiceProcess) -> None:
        """Until each of ``services`` reports SERVING."""
        for service in services:
            wait_serving(service.address, service.process, service.log_path, timeout=90)

    def popen_service(self, module: str, port: int, **settings: str) -> ServiceProcess:
        """``python -m module`` with the cluster's settings plus ``settings``, not waited for:
        processes spawned together start up side by side (their imports are most of a
        start-up's CPU), then ``wait_serving`` waits for each."""
        self.data_dir.mkdir(parents=True, exist_ok=True)
        log_path = self.data_dir / f"{module}-{len(self.started)}.log"
        process = spawn_service(module, self._env(**settings), log_path, REPO)
        service = ServiceProcess(process, port, log_path)
        self.started.append(service)
        return service

    def start_calendar(self, port: int | None = None) -> ServiceProcess:
        """A calendar service process (on the cluster's port unless ``port``): several
        processes share the one calendar database."""
        service = self.spawn_calendar(port)
        self.wait_serving(service)
        return service

    def spawn_calendar(self, port: int | None = None) -> ServiceProcess:
        """``start_calendar`` without waiting for it (see ``popen_service``)."""
        port = port or self.calendar_port
        return self.popen_service("calendar_service", port, CALENDAR_GRPC_PORT=str(port))

    def start_agent(self, *, calendar_port: int | None = None, **settings: str) -> ServiceProcess:
        """An agent process talking to the calendar service on ``calendar_port`` (default:
        the cluster's); waits SERVING."""
        service = self.spawn_agent(calendar_port=calendar_port, **settings)
        self.wait_serving(service)
        return service

    def spawn_agent(self, *, calendar_port: int | None = None, **settings: str) -> ServiceProcess:
        """``start_agent`` without waiting for it (see ``popen_service``)."""
        port = free_port()
        calendar = calendar_port or self.calendar_port
        return self.popen_service(
            "agent_service",
            port,
            AGENT_GRPC_PORT=str(port),
            AGENT_CALENDAR_ADDR=f"127.0.0.1:{calendar}",
            **settings,
        )

    @property
    def calendar_targets(self) -> str | list[str]:
        """Where a test reads the calendar from (the calendar process)."""
        return f"127.0.0.1:{self.calendar_port}"

    async def check_invariant(self, tenant_id: str, first: date, last: date) -> dict[str, int]:
        """The booking invariant over the demo salon's days ``first``..``last``."""
        return await invariant.check_days(
            self.mongo_uri,
            self.agent_database,
            tenant_id,
            self.calendar_targets,
            CALENDAR_TOKEN,
            SALON_ZONE,
            (first, last),
            calendar_database=self.calendar_database,
        )

    def stop_all(self) -> None:
        """Terminate every process started (thawing any a test froze with SIGSTOP first)."""
        for service in self.started:
            if service.process.poll() is None:
                os.kill(service.process.pid, signal.SIGCONT)
                service.process.terminate()
        for service in self.started:
            try:
                service.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                service.process.kill()
                service.process.wait()
