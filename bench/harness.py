"""Plumbing the service benchmarks share: services as real processes, and proto-free generic
gRPC handlers a bench entry module adds to a service's own server before it starts.

- ``echo_handler``: ``/bench.Echo/Echo`` returns the request bytes (no proto: raw bytes in and
  out), so it runs behind exactly the interceptors and options of the service it is added to.
- ``probe_handler``: ``/bench.Probe/*`` reads the serving process from inside (RSS, Python
  heap, ``gc``, cProfile). Requests and replies are JSON bytes.

Benchmarks report; nothing here asserts.
"""

from __future__ import annotations

import asyncio
import cProfile
import gc
import json
import math
import pstats
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import grpc
import psutil  # type: ignore[import-untyped]

from agenda_kit import event_loop
from agenda_kit.auth.policy import Access, PolicyTable, rule
from agenda_kit.auth.principals import Role
from agenda_kit.grpc.auth import AuthorizationInterceptor
from agenda_kit.grpc.server import ServerSpec
from bench.cpu_sampler import CpuSampler, largest
from tests.e2e.agent_processes import hermetic_env
from tests.e2e.processes import REPO, free_port, wait_serving

ECHO_SERVICE = "bench.Echo"
ECHO_METHOD = f"/{ECHO_SERVICE}/Echo"
PROBE_SERVICE = "bench.Probe"
ProbeAction = Callable[[dict[str, Any]], Awaitable[Any]]

__all__ = ["REPO", "free_port"]


def bearer(token: str) -> tuple[tuple[str, str], ...]:
    return (("authorization", f"Bearer {token}"),)


# --------------------------------------------------------------------------- server side


def echo_handler() -> grpc.GenericRpcHandler:
    """A bare unary echo: no (de)serialisation beyond what gRPC itself does with bytes."""

    async def echo(request: bytes, context: grpc.aio.ServicerContext[bytes, bytes]) -> bytes:
        return request

    return grpc.method_handlers_generic_handler(
        ECHO_SERVICE, {"Echo": grpc.unary_unary_rpc_method_handler(echo)}
    )


def process_stats() -> dict[str, Any]:
    """What this process holds: RSS, CPython's allocated blocks, tracked objects, tasks."""
    return {
        "rss_bytes": psutil.Process().memory_info().rss,
        "allocated_blocks": sys.getallocatedblocks(),
        "gc_objects": len(gc.get_objects()),
        "asyncio_tasks": len(asyncio.all_tasks()),
    }


def profile_rows(profiler: cProfile.Profile, limit: int, sort: str) -> list[dict[str, Any]]:
    """The top ``limit`` functions by ``sort`` ("cumulative" or "tottime") as plain dicts."""
    stats = pstats.Stats(profiler)
    rows = []
    for (path, line, name), (_cc, calls, tottime, cumtime, _callers) in stats.stats.items():  # type: ignore[attr-defined]
        rows.append(
            {
                "function": f"{_short(path)}:{line}({name})",
                "calls": calls,
                "tottime_s": round(tottime, 4),
                "cumtime_s": round(cumtime, 4),
            }
        )
    key = "cumtime_s" if sort == "cumulative" else "tottime_s"
    rows.sort(key=lambda row: row[key], reverse=True)
    return rows[:limit]


def new_profiler(timer: str) -> cProfile.Profile:
    """cProfile of the calling thread. ``wall`` (cProfile's default clock) counts time a
    function waited — the event loop's ``epoll`` idling, a ``send`` while the process is
    descheduled on a busy machine — as its own time; ``cpu`` times with the thread's CPU
    clock, so own times are CPU spent and add up to the thread's CPU time (plus the
    profiler's own overhead, spread over every call)."""
    if timer == "cpu":
        return cProfile.Profile(time.thread_time_ns, 1e-9)
    return cProfile.Profile()


def sampled(sampler: CpuSampler, spent: dict[str, float], limit: int) -> dict[str, Any]:
    """``ProfileStop``'s reply for a sampler: CPU by component and the innermost functions
    that used most (``component | function``)."""
    top = largest(sampler.functions, limit)
    return {
        "tottime": [{"function": _shorter(name), "cpu_s": round(s, 4)} for name, s in top],
        "components_s": dict(largest(sampler.components)),
        "cpu_s": spent,
        "samples": sampler.samples,
    }


def cpu_clocks() -> dict[str, float]:
    """CPU seconds so far: the whole process (every thread) and the calling thread."""
    return {"process": time.process_time(), "thread": time.thread_time()}


COMPONENTS = (
    ("agent: offline model", ("agent_service/infrastructure/agent/offline/",)),
    ("agent: own code", ("agent_service/", "agenda_kit/")),
    ("Pydantic AI", ("pydantic_ai/", "pydantic_graph/", "genai_prices/")),
    ("LangGraph", ("langgraph/", "langchain_core/")),
    ("pydantic", ("pydantic/", "pydantic_core")),
    ("MongoDB driver + Beanie", ("pymongo/", "bson/", "beanie/", "motor/")),
    ("gRPC + protobuf", ("grpc/", "google/protobuf", "grpc.", "cygrpc")),
    ("logging", ("structlog/", "logging/", "opentelemetry/", "prometheus_client/")),
    ("socket I/O", ("_socket", "ssl.")),
    ("event loop", ("asyncio/", "selectors", "select.epoll", "anyio/", "contextvars")),
)


def profile_components(profiler: cProfile.Profile) -> dict[str, float]:
    """Own time (seconds) summed by component — which library or part of the service the
    CPU went to. A standard-library or built-in function's time goes to the components of
    its direct callers (in proportion to what each caller spent in it), so ``isinstance`` or
    ``dataclasses.replace`` called by Pydantic AI counts as Pydantic AI."""
    stats = pstats.Stats(profiler)
    seconds: dict[str, float] = {}
    for (path, _line, name), (_cc, _n, tottime, _cum, callers) in stats.stats.items():  # type: ignore[attr-defined]
        own = _component(path, name)
        if own != OTHER or not callers:
            seconds[own] = seconds.get(own, 0.0) + tottime
            continue
        spent = sum(caller[2] for caller in callers.values()) or 1.0
        for (caller_path, _l, caller_name), caller in callers.items():
            component = _component(caller_path, caller_name)
            seconds[component] = seconds.get(component, 0.0) + tottime * caller[2] / spent
    return dict(sorted(seconds.items(), key=lambda item: item[1], reverse=True))


OTHER = "other (stdlib, builtins)"


def _component(path: str, name: str) -> str:
    where = f"{path} {name}"
    return next(
        (label for label, marks in COMPONENTS if any(mark in where for mark in marks)), OTHER
    )


def _shorter(text: str) -> str:
    """``_short`` for a path that follows other text."""
    head, sep, path = text.rpartition(" ")
    return f"{head}{sep}{_short(path)}"


def _short(path: str) -> str:
    for marker in ("site-packages/", "lib/python3.11/", str(REPO) + "/"):
        if marker in path:
            return path.split(marker, 1)[1]
    return path


PROBE_METHODS = ("Stats", "Gc", "ProfileStart", "ProfileStop")


def open_to_bench(spec: ServerSpec, extra_probes: Iterable[str] = ()) -> None:
    """Rows for the echo and probe methods: any authenticated principal may call them (the
    server is fail-closed; these bench-only services have no rows of their own)."""
    anyone = rule(*Role, access=Access.READ, unscoped=True)
    methods = (*PROBE_METHODS, *extra_probes)
    for interceptor in spec.interceptors:
        if isinstance(interceptor, AuthorizationInterceptor):
            interceptor.add_policy(PolicyTable(ECHO_SERVICE, {"Echo": anyone}))
            interceptor.add_policy(PolicyTable(PROBE_SERVICE, dict.fromkeys(methods, anyone)))


def probe_handler(extra: Mapping[str, ProbeAction] | None = None) -> grpc.GenericRpcHandler:
    """``Stats``, ``Gc`` (collect, then stats), ``ProfileStart``/``ProfileStop`` (cProfile of
    the event-loop thread; start takes ``{"timer": "wall" | "cpu" | "sample"}`` — "sample" is
    ``CpuSampler`` instead of cProfile —, stop ``{"limit": N, "dump": path}`` and also returns
    the CPU the process and the profiled thread used in the window), plus ``extra``
    actions."""
    profiler: list[cProfile.Profile] = []
    sampler: list[CpuSampler] = []
    window: dict[str, float] = {}

    async def stats(args: dict[str, Any]) -> Any:
        return process_stats()

    async def collect(args: dict[str, Any]) -> Any:
        collected = gc.collect()
        return {"collected": collected, **process_stats()}

    async def profile_start(args: dict[str, Any]) -> Any:
        profiler.clear()
        sampler.clear()
        window.clear()
        if args.get("timer") == "sample":
            sampler.append(CpuSampler(_component, OTHER))
            sampler[0].start()
        else:
            profiler.append(new_profiler(str(args.get("timer", "wall"))))
        window.update(cpu_clocks())
        if profiler:
            profiler[0].enable()
        return {}

    async def profile_stop(args: dict[str, Any]) -> Any:
        if profiler:
            profiler[0].disable()
        else:
            sampler[0].stop()
        spent = {name: used - window.get(name, 0.0) for name, used in cpu_clocks().items()}
        limit = int(args.get("limit", 30))
        if sampler:
            return sampled(sampler.pop(), spent, limit)
        running = profiler.pop()
        if args.get("dump"):
            running.dump_stats(str(args["dump"]))
        return {
            "cumulative": profile_rows(running, limit, "cumulative"),
            "tottime": profile_rows(running, limit, "tottime"),
            "components_s": profile_components(running),
            "cpu_s": spent,
            "calls": pstats.Stats(running).total_calls,  # type: ignore[attr-defined]
        }

    actions: dict[str, ProbeAction] = {
        "Stats": stats,
        "Gc": collect,
        "ProfileStart": profile_start,
        "ProfileStop": profile_stop,
        **(extra or {}),
    }

    def method(action: ProbeAction) -> grpc.RpcMethodHandler[bytes, bytes]:
        async def run(request: bytes, context: grpc.aio.ServicerContext[bytes, bytes]) -> bytes:
            return json.dumps(await action(json.loads(request or b"{}"))).encode()

        return grpc.unary_unary_rpc_method_handler(run)

    return grpc.method_handlers_generic_handler(
        PROBE_SERVICE, {name: method(action) for name, action in actions.items()}
    )


# --------------------------------------------------------------------------- client side


async def probe(channel: grpc.aio.Channel, name: str, token: str, **args: Any) -> Any:
    """Call ``/bench.Probe/<name>`` on a service started through a bench entry module."""
    call: grpc.aio.UnaryUnaryMultiCallable[bytes, bytes] = channel.unary_unary(
        f"/{PROBE_SERVICE}/{name}"
    )
    reply = await call(json.dumps(args).encode(), metadata=bearer(token), timeout=120)
    return json.loads(reply)


@dataclass
class Service:
    """A service process started by ``services``; ``rss()`` of it and of its children (the
    embedded MongoDB it spawned)."""

    name: str
    process: subprocess.Popen[bytes]
    port: int
    log_path: Path

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    def rss(self) -> dict[str, int]:
        me = psutil.Process(self.process.pid)
        children = sum(child.memory_info().rss for child in me.children(recursive=True))
        return {"rss_bytes": me.memory_info().rss, "children_rss_bytes": children}


@dataclass(frozen=True)
class ServiceSpec:
    name: str
    module: str
    port: int
    env: Mapping[str, str]
    args: Sequence[str] = ()


@contextmanager
def services(data_dir: Path, specs: Sequence[ServiceSpec]) -> Iterator[dict[str, Service]]:
    """Start every spec as ``python -m module *args`` at once (hermetic environment but for the
    bench's ``AGENDA_EVENT_LOOP``, byte-code cached outside the work tree), wait until each is
    SERVING; SIGTERM (then kill) on exit."""
    data_dir.mkdir(parents=True, exist_ok=True)
    started: dict[str, Service] = {}
    try:
        for spec in specs:
            env = hermetic_env(
                AGENDA_DATA_DIR=str(data_dir),
                # every service on the loop the bench runs the frameworks' floor on
                **{event_loop.VARIABLE: event_loop.chosen().value},
                **spec.env,
            )
            log_path = data_dir / f"{spec.name}.log"
            with log_path.open("wb") as log_file:
                process = subprocess.Popen(
                    [sys.executable, "-m", spec.module, *spec.args],
                    cwd=REPO,
                    env=env,
                    stdin=subprocess.DEVNULL,
                    stdout=log_file,
                    stderr=subprocess.STDOUT,
                )
            started[spec.name] = Service(spec.name, process, spec.port, log_path)
        for service in started.values():
            wait_serving(service.address, service.process, service.log_path, timeout=120)
        yield started
    finally:
        for service in started.values():
            if service.process.poll() is None:
                service.process.terminate()
        for service in started.values():
            try:
                service.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                service.process.kill()
                service.process.wait()


def calendar_spec(port: int, token: str, **extra: str) -> ServiceSpec:
    """The calendar service (local backend on its embedded MongoDB) with echo and probes."""
    env = {
        "CALENDAR_GRPC_PORT": str(port),
        "CALENDAR_METRICS_PORT": "0",
        "CALENDAR_AUTH_TOKENS": token,
        # one bench client is one product: its capacity, not the per-product admission limit,
        # is what the benchmarks measure
        "CALENDAR_MAX_CALLS_PER_PRINCIPAL": "0",
        **extra,
    }
    return ServiceSpec("calendar", "bench.calendar_with_echo", port, env)


def percentiles(
    values: Sequence[float], points: Sequence[float] = (50, 90, 99)
) -> dict[str, float]:
    """Nearest-rank percentiles in milliseconds of ``values`` given in seconds."""
    if not values:
        return {f"p{point:g}_ms": float("nan") for point in points}
    ordered = sorted(values)
    result = {}
    for point in points:
        rank = max(0, min(len(ordered) - 1, math.ceil(point / 100 * len(ordered)) - 1))
        result[f"p{point:g}_ms"] = round(ordered[rank] * 1000, 3)
    return result
