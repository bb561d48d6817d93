"""Several agent and calendar processes on one database (issue 14's proof), clients balancing
``round_robin`` over all of them.

Each service has a *pool* of ports fixed up front: the first ones are started, the others are
for replacements (rolling restart, SIGKILL). Clients are given the whole pool, as a headless
Service's DNS name would give them every pod: a port with nothing listening is simply not
READY and ``round_robin`` skips it until a replacement starts there.
"""

from __future__ import annotations

import asyncio
import re
import urllib.request
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

import grpc

from agenda_kit.grpc.balancing import balanced_options, channel_target
from tests.e2e.processes import REPO, ServiceProcess, free_port, wait_serving
from tests.forkserver import spawn_service
from tests.reliability.processes import Cluster

FAST_RECONNECT = (
    ("grpc.initial_reconnect_backoff_ms", 100),
    ("grpc.max_reconnect_backoff_ms", 500),
)
_RPC_LINE = re.compile(
    r'^agenda_rpc_requests_total\{code="(\w+)",method="(\w+)",service="([\w.]+)"\} ([\d.e+]+)$',
    re.M,
)


@dataclass
class Replica:
    """One running service process and its metrics port."""

    service: ServiceProcess
    metrics_port: int

    @property
    def port(self) -> int:
        return self.service.port

    def rpc_counts(self, method: str) -> int:
        """``agenda_rpc_requests_total`` of ``method`` (every code), from its /metrics."""
        url = f"http://127.0.0.1:{self.metrics_port}/metrics"
        with urllib.request.urlopen(url, timeout=5) as response:
            text = response.read().decode()
        return int(sum(float(v) for _, m, _, v in _RPC_LINE.findall(text) if m == method))


@dataclass
class ScaledCluster(Cluster):
    """``Cluster`` with pools of agent and calendar ports and parallel, async start-up."""

    agent_pool: list[int] = field(default_factory=list)
    calendar_pool: list[int] = field(default_factory=list)
    agent_settings: dict[str, str] = field(default_factory=dict)
    live: dict[int, Replica] = field(default_factory=dict)
    spares: Any = None
    """Whatever else a test module started with the cluster (outside the pools)."""

    def _env(self, **settings: str) -> dict[str, str]:
        env = super()._env()
        env["AGENT_CALENDAR_ADDR"] = ",".join(f"127.0.0.1:{p}" for p in self.calendar_pool)
        return {**env, **settings}

    @property
    def calendar_targets(self) -> str | list[str]:
        return [f"127.0.0.1:{p}" for p in self.calendar_pool]

    def spawn(self, module: str, port: int, **settings: str) -> Replica:
        """Start ``python -m module`` on ``port`` (not yet waited for)."""
        self.data_dir.mkdir(parents=True, exist_ok=True)
        metrics = free_port()
        prefix = "AGENT" if module == "agent_service" else "CALENDAR"
        env = self._env(
            **{
                f"{prefix}_GRPC_PORT": str(port),
                f"{prefix}_METRICS_PORT": str(metrics),
                **(self.agent_settings if prefix == "AGENT" else {}),
                **settings,
            }
        )
        log_path = self.data_dir / f"{module}-{port}-{len(self.started)}.log"
        process = spawn_service(module, env, log_path, REPO)
        service = ServiceProcess(process, port, log_path)
        self.started.append(service)
        return Replica(service, metrics)

    async def launch(self, module: str, port: int, **settings: str) -> Replica:
        replica = self.spawn(module, port, **settings)
        service = replica.service
        await asyncio.to_thread(
            wait_serving, service.address, service.process, service.log_path, 120
        )
        self.live[port] = replica
        return replica

    async def launch_many(self, module: str, ports: list[int], **settings: str) -> list[Replica]:
        return list(await asyncio.gather(*(self.launch(module, p, **settings) for p in ports)))

    async def terminate(self, port: int, sig: str = "TERM") -> int:
        """SIGTERM (graceful drain) or SIGKILL the replica on ``port``; its exit code."""
        replica = self.live.pop(port)
        process = replica.service.process
        process.terminate() if sig == "TERM" else process.kill()
        return await asyncio.to_thread(process.wait, 60)

    def agents(self) -> list[Replica]:
        return [r for p, r in self.live.items() if p in self.agent_pool]

    def calendars(self) -> list[Replica]:
        return [r for p, r in self.live.items() if p in self.calendar_pool]


def pool(size: int) -> list[int]:
    return [free_port() for _ in range(size)]


@asynccontextmanager
async def balanced_channel(ports: list[int]) -> AsyncIterator[grpc.aio.Channel]:
    """One channel over every port of ``ports`` (round_robin, quick reconnects)."""
    target = channel_target([f"127.0.0.1:{port}" for port in ports])
    async with grpc.aio.insecure_channel(target, options=balanced_options(FAST_RECONNECT)) as ch:
        yield ch


class CalendarProxy:
    """A gRPC server in the test process in front of the calendar processes: forwards every
    CalendarService call (bytes and metadata unchanged) after ``delay`` seconds, and counts
    the free-slot reads in flight — what a turn of one tenant holds while it runs, so their
    peak bounds that tenant's concurrent turns from below."""

    def __init__(self, upstream: list[int], delay: float, port: int = 0) -> None:
        self._upstream = upstream
        self._delay = delay
        self.in_flight = 0
        self.peak = 0
        self.reads = 0
        self._server: grpc.aio.Server | None = None
        self._channel: grpc.aio.Channel | None = None
        self.port = port

    async def start(self) -> None:
        target = channel_target([f"127.0.0.1:{p}" for p in self._upstream])
        self._channel = grpc.aio.insecure_channel(target, options=balanced_options())
        self._server = grpc.aio.server()
        self._server.add_generic_rpc_handlers((_Forwarding(self),))
        self.port = self._server.add_insecure_port(f"127.0.0.1:{self.port}")
        await self._server.start()

    async def stop(self) -> None:
        if self._server is not None:
            await self._server.stop(0)
        if self._channel is not None:
            await self._channel.close()

    async def forward(
        self, method: str, request: bytes, context: grpc.aio.ServicerContext[Any, Any]
    ) -> bytes:
        assert self._channel is not None
        counted = method.endswith(("/GetFreeSlots", "/QueryFreeBusy"))
        if counted:
            self.reads += 1
            self.in_flight += 1
            self.peak = max(self.peak, self.in_flight)
        try:
            await asyncio.sleep(self._delay)
            call: grpc.aio.UnaryUnaryMultiCallable[bytes, bytes] = self._channel.unary_unary(method)
            metadata = [
                (k, v) for k, v in context.invocation_metadata() or () if k == "authorization"
            ]
            try:
                return await call(request, metadata=metadata, timeout=30)
            except grpc.aio.AioRpcError as error:
                await context.abort(error.code(), error.details() or "")
                raise
        finally:
            if counted:
                self.in_flight -= 1


class _Forwarding(grpc.GenericRpcHandler):
    def __init__(self, proxy: CalendarProxy) -> None:
        self._proxy = proxy

    def service(
        self, handler_call_details: grpc.HandlerCallDetails
    ) -> grpc.RpcMethodHandler[Any, Any] | None:
        method = handler_call_details.method

        async def forward(request: bytes, context: grpc.aio.ServicerContext[Any, Any]) -> bytes:
            return await self._proxy.forward(method, request, context)

        return grpc.unary_unary_rpc_method_handler(forward)
