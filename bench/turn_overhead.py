"""Agent turn overhead: where a ``SendMessage`` turn's time goes when the model costs nothing.

Both services run as processes. The agent service is started through this module's ``serve``
entry: the service's own ``bootstrap`` with the offline model (deterministic, rule-based) as
an *async* ``FunctionModel`` — answering at once, as a zero-latency network model would, with
no thread hop — plus three bench-only probes installed before ``bootstrap``:

- **model time**: measured inside the model function;
- **tool time**: every specialist tool is wrapped (``agents.reporting_progress``, the
  decorator every tool already goes through) and timed from call to return, so it holds the
  tool's calendar RPCs, its database queries and its own Python;
- **database time outside tools** (the message claim with its turn slot, the one read of the
  customer, conversation and upcoming appointments, the stored reply, the conversation save,
  ...): a ``pymongo`` command listener adds each command's duration to the current turn — a
  contextvar set around ``HandleMessage.execute``.

Why wrap the tools rather than time structlog events: tools log nothing per call, and a
wrapper's clock includes exactly what the tool awaits (calendar gRPC, MongoDB) without
touching service code. The turn's client-side wall time minus model and tool time is **the
rest**: gRPC, LangGraph, Pydantic AI, (de)serialisation and persistence/checkpointing (the
last one is also reported on its own, as database time outside tools).

Each conversation is the 6-turn script of ``python -m agent_service chat --script``: greet,
services, free times, ask to book a distinct slot, confirm (calendar event + appointment),
FAQ. Benchmarks report; they do not assert.

``cpu_ms_per_turn`` is each process's CPU over the loaded phase's turns (50 conversations at
once), ``serial_cpu_ms_per_turn`` the same over the serial phase's (one conversation at a
time): whether concurrency itself is what a turn costs above its floor.

``agent_gc`` is the agent's cyclic garbage collector during the loaded phase (a ``gc``
callback's CPU clock), which the sampler and cProfile charge to whatever code was running.
``framework_floor_ms_per_turn`` is the frameworks' floor under such a turn (see
``bench.framework_floor.per_turn``): the runs, requests and commands the serial turns made, each
at its floor with nothing of ours in the way; ``framework_floor_concurrent_*`` the same floor
measured with as many calls at a time as the loaded phase has conversations.

``python -m bench.turn_overhead [--quick]``; ``python -m bench.turn_overhead serve
[--instrument]`` is the agent-service entry the benchmarks start.
"""

from __future__ import annotations

import asyncio
import functools
import gc
import json
import os
import sys
import tempfile
import time
import uuid
from collections.abc import Awaitable, Callable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import asdict, dataclass, field
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import grpc
import psutil  # type: ignore[import-untyped]

from agenda.agent.v1 import agent_service_pb2 as pb
from agenda.agent.v1 import agent_service_pb2_grpc as pb_grpc
from agenda.agent.v1 import catalog_service_pb2_grpc as catalog_grpc
from agenda_kit import event_loop
from bench import framework_floor
from bench.harness import (
    REPO,
    Service,
    ServiceSpec,
    bearer,
    calendar_spec,
    free_port,
    percentiles,
    probe,
    services,
)

RESULTS = Path(__file__).resolve().parent / "results"
PLOT = RESULTS / "turn_overhead_latency.png"
AGENT_TOKEN = "bench-agent-token"
CALENDAR_TOKEN = "bench-calendar-token"
SALON_ZONE = ZoneInfo("America/Sao_Paulo")
# Ana (the demo salon) works Monday-Saturday 09:00-12:00 and 13:00-18:00; a 45-minute
# "Corte feminino" fits at each of these, so every conversation books its own slot.
BOOKABLE_TIMES = ("09:00", "10:00", "11:00", "13:00", "14:00", "15:00", "16:00", "17:00")
TURNS_PER_CONVERSATION = 6
# Set to a path to keep the agent's CPU profile (pstats) of the profiled turns for a closer look.
PROFILE_DUMP = os.environ.get("BENCH_PROFILE_DUMP", "")


# ----------------------------------------------------------------- the two service processes


@contextmanager
def agent_stack(data_dir: Path, *, instrument: bool) -> Iterator[dict[str, Service]]:
    """Calendar (``bench.calendar_with_echo``) and agent (``serve``) processes on ``data_dir``,
    each on its own embedded MongoDB, the offline model, started together."""
    calendar_port, agent_port = free_port(), free_port()
    agent_env = {
        "AGENT_GRPC_PORT": str(agent_port),
        "AGENT_METRICS_PORT": "0",
        "AGENT_AUTH_TOKENS": AGENT_TOKEN,
        "AGENT_CALENDAR_ADDR": f"127.0.0.1:{calendar_port}",
        "AGENT_CALENDAR_TOKEN": CALENDAR_TOKEN,
        "AGENT_MODEL": "offline",
        # All conversations belong to the one demo salon: lift the per-tenant admission limit
        # (default 8 turns in flight; the rest are refused with RESOURCE_EXHAUSTED by design)
        # so that the service's capacity, not its admission control, is measured.
        "AGENT_TENANT_MAX_CONCURRENT_TURNS": "1000",
        "AGENT_TENANT_MESSAGES_PER_MINUTE": "0",  # and its message rate limit
        # and the edge admission of one principal's calls naming one tenant (default 32 in
        # flight: the bench's one client at 50 concurrent is such a flood by design)
        "AGENT_MAX_CALLS_PER_TENANT": "0",
    }
    args = ["serve", "--instrument"] if instrument else ["serve"]
    with services(
        data_dir,
        [
            calendar_spec(calendar_port, CALENDAR_TOKEN),
            ServiceSpec("agent", "bench.turn_overhead", agent_port, agent_env, args),
        ],
    ) as started:
        yield started


# ------------------------------------------------------------------- scripted conversations


def working_days(first: date) -> Iterator[date]:
    day = first
    while True:
        if day.isoweekday() != 7:
            yield day
        day += timedelta(days=1)


class SlotBook:
    """Hands out distinct (day, time) pairs Ana is free at, from tomorrow on."""

    def __init__(self) -> None:
        today = datetime.now(SALON_ZONE).date()
        self._slots = (
            (day, at) for day in working_days(today + timedelta(days=1)) for at in BOOKABLE_TIMES
        )

    def take(self) -> tuple[date, str]:
        return next(self._slots)


def script(day: date, at: str) -> list[str]:
    when = day.strftime("%d/%m")
    return [
        "Olá!",
        "Quais serviços vocês têm?",
        f"Quais horários a Ana tem dia {when} para corte feminino?",
        f"Quero agendar um corte feminino com a Ana dia {when} às {at}",
        "sim",
        "Qual é o endereço?",
    ]


@dataclass
class TurnSample:
    conversation: str
    turn: int
    message_id: str
    seconds: float
    error: str | None = None
    booked: bool = False


@dataclass
class Conversation:
    external_id: str
    conversation_id: str = ""
    samples: list[TurnSample] = field(default_factory=list)


async def converse(
    stub: pb_grpc.AgentServiceAsyncStub, tenant_id: str, slot: tuple[date, str], tag: str
) -> Conversation:
    """One customer's six turns, one after the other; errors are recorded, not raised."""
    convo = Conversation(external_id=f"bench-{tag}-{uuid.uuid4().hex[:10]}")
    for turn, text in enumerate(script(*slot)):
        message_id = uuid.uuid4().hex
        request = pb.SendMessageRequest(
            tenant_id=tenant_id,
            customer=pb.CustomerIdentity(
                channel="whatsapp", external_id=convo.external_id, display_name="Maria"
            ),
            conversation_id=convo.conversation_id,
            message_id=message_id,
            text=text,
        )
        began = time.perf_counter()
        try:
            reply = await stub.SendMessage(request, metadata=bearer(AGENT_TOKEN), timeout=120)
        except grpc.aio.AioRpcError as error:
            sample = TurnSample(convo.external_id, turn, message_id, time.perf_counter() - began)
            sample.error = f"{error.code().name}: {error.details()}"
            convo.samples.append(sample)
            continue
        elapsed = time.perf_counter() - began
        convo.conversation_id = reply.conversation_id
        convo.samples.append(
            TurnSample(
                convo.external_id,
                turn,
                message_id,
                elapsed,
                booked=any(action.appointment.id for action in reply.actions),
            )
        )
    return convo


async def conversations(
    channel: grpc.aio.Channel, tenant_id: str, slots: SlotBook, count: int, tag: str
) -> tuple[list[Conversation], float]:
    """``count`` conversations at once; returns them and the wall time."""
    stub = pb_grpc.AgentServiceStub(channel)
    began = time.perf_counter()
    done = await asyncio.gather(
        *(converse(stub, tenant_id, slots.take(), tag) for _ in range(count))
    )
    return list(done), time.perf_counter() - began


async def seed_salon(channel: grpc.aio.Channel) -> str:
    from agent_service.cli.seed import seed

    return await seed(catalog_grpc.CatalogServiceStub(channel), bearer(AGENT_TOKEN))


def samples_of(done: Sequence[Conversation]) -> list[TurnSample]:
    return [sample for convo in done for sample in convo.samples]


def cpu_seconds(service: Service) -> dict[str, float]:
    """CPU time (user + system) of the service and, apart, of its embedded MongoDB."""
    process = psutil.Process(service.process.pid)
    children = process.children(recursive=True)
    return {
        service.name: float(sum(process.cpu_times()[:2])),
        f"{service.name}_mongodb": float(sum(sum(c.cpu_times()[:2]) for c in children)),
    }


def cpu_of(stack: dict[str, Service]) -> dict[str, float]:
    return {name: used for service in stack.values() for name, used in cpu_seconds(service).items()}


# ----------------------------------------------------------------------- the benchmark


def breakdown(samples: Sequence[TurnSample], server: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """Per-turn split of the client's wall time, joined with the server's records."""
    parts: dict[str, list[float]] = {
        "total": [],
        "model": [],
        "tools": [],
        "db_outside_tools": [],
        "rest": [],
        "rest_excluding_db": [],
        "outside_handler": [],
    }
    by_turn: dict[int, list[float]] = {}
    for sample in samples:
        record = server.get(sample.message_id)
        if sample.error is not None or record is None:
            continue
        rest = sample.seconds - record["model"] - record["tools"]
        parts["total"].append(sample.seconds)
        parts["model"].append(record["model"])
        parts["tools"].append(record["tools"])
        parts["db_outside_tools"].append(record["db"])
        parts["rest"].append(rest)
        parts["rest_excluding_db"].append(rest - record["db"])
        parts["outside_handler"].append(sample.seconds - record["handled"])
        by_turn.setdefault(sample.turn, []).append(rest)
    calls = [server[s.message_id] for s in samples if s.message_id in server]
    return {
        "turns": len(parts["total"]),
        **{name: percentiles(values, (50, 99)) for name, values in parts.items()},
        "model_requests_per_turn": _mean([c["model_calls"] for c in calls]),
        "agent_runs_per_turn": _mean([c.get("agent_runs", 0) for c in calls]),
        "tool_calls_per_turn": _mean([c["tool_calls"] for c in calls]),
        "db_commands_per_turn": _mean([c["db_commands"] for c in calls]),
        "db_commands_per_turn_outside_tools": _mean(
            [c["db_commands"] - c.get("db_in_tools_commands", 0) for c in calls]
        ),
        "db_commands_per_turn_by_command": _by_command(calls),
        "rest_p50_ms_by_turn": {
            turn: percentiles(values, (50,))["p50_ms"] for turn, values in sorted(by_turn.items())
        },
        "_rest_seconds": parts["rest"],
        "_total_seconds": parts["total"],
    }


def _by_command(calls: Sequence[dict[str, Any]]) -> dict[str, float]:
    """Mean commands per turn by command name and collection, most frequent first."""
    totals: dict[str, int] = {}
    for call in calls:
        for name, count in call.get("db_by_command", {}).items():
            totals[name] = totals.get(name, 0) + count
    ranked = sorted(totals.items(), key=lambda item: -item[1])
    return {name: round(count / len(calls), 2) for name, count in ranked} if calls else {}


def _mean(values: Sequence[float]) -> float:
    return round(sum(values) / len(values), 2) if values else 0.0


async def measure(stack: dict[str, Service], quick: bool) -> dict[str, Any]:
    agent, calendar = stack["agent"], stack["calendar"]
    slots = SlotBook()
    concurrent = 4 if quick else 50
    async with grpc.aio.insecure_channel(agent.address) as channel:
        tenant_id = await seed_salon(channel)
        # Warm-up: first turns import, compile and fill caches.
        await conversations(channel, tenant_id, slots, 2, "warmup")
        await probe(channel, "Turns", AGENT_TOKEN)

        serial, serial_wall = [], 0.0
        serial_cpu_before = cpu_of(stack)
        for _ in range(1 if quick else 5):
            done, wall = await conversations(channel, tenant_id, slots, 1, "serial")
            serial += done
            serial_wall += wall
        serial_cpu = {n: u - serial_cpu_before[n] for n, u in cpu_of(stack).items()}
        serial_server = await probe(channel, "Turns", AGENT_TOKEN)

        cpu_before = cpu_of(stack)
        gc_before = await probe(channel, "GcTime", AGENT_TOKEN)
        loaded, loaded_wall = await conversations(channel, tenant_id, slots, concurrent, "load")
        cpu = {name: used - cpu_before[name] for name, used in cpu_of(stack).items()}
        gc_after = await probe(channel, "GcTime", AGENT_TOKEN)
        loaded_server = await probe(channel, "Turns", AGENT_TOKEN)

        sampled, profile = await profile_turns(channel, tenant_id, slots, quick)
        await probe(channel, "Turns", AGENT_TOKEN)
    del calendar
    loaded_samples = samples_of(loaded)
    turns = len(loaded_samples)
    return {
        "serial": breakdown(samples_of(serial), serial_server),
        "loaded": breakdown(loaded_samples, loaded_server),
        "concurrent_conversations": concurrent,
        "loaded_wall_s": round(loaded_wall, 2),
        "loaded_turns_per_s": round(turns / loaded_wall, 1),
        "cpu_ms_per_turn": {name: round(1000 * used / turns, 2) for name, used in cpu.items()},
        "serial_cpu_ms_per_turn": {
            name: round(1000 * used / max(1, len(samples_of(serial))), 2)
            for name, used in serial_cpu.items()
        },
        "agent_gc": gc_per_turn(gc_before, gc_after, turns),
        "errors": sum(1 for s in loaded_samples + samples_of(serial) if s.error is not None),
        "error_examples": [s.error for s in loaded_samples if s.error][:3],
        "bookings": sum(1 for s in loaded_samples if s.booked),
        "profile": profile,
        **cpu_split(sampled, profile, 1000 * cpu["agent"] / max(1, turns)),
    }


async def profile_turns(
    channel: grpc.aio.Channel, tenant_id: str, slots: SlotBook, quick: bool
) -> tuple[dict[str, Any], dict[str, Any]]:
    """Two more batches of conversations, at 2 (10) concurrent: one under the CPU sampler
    (the component split), one under cProfile timed with the thread's CPU clock (the function
    tables); each reply carries ``turns``."""
    replies = []
    for timer, count in (("sample", 2 if quick else 10), ("cpu", 1 if quick else 4)):
        await probe(channel, "ProfileStart", AGENT_TOKEN, timer=timer)
        done, _ = await conversations(channel, tenant_id, slots, count, f"profiled-{timer}")
        reply = await probe(channel, "ProfileStop", AGENT_TOKEN, limit=25, dump=PROFILE_DUMP)
        replies.append({**reply, "turns": len(samples_of(done))})
    return replies[0], replies[1]


def gc_per_turn(before: dict[str, Any], after: dict[str, Any], turns: int) -> dict[str, Any]:
    """The agent's cyclic garbage collector during the loaded phase, per turn: CPU ms (part of
    ``cpu_ms_per_turn["agent"]``; the sampler and cProfile charge it to whichever function was
    running when a collection started) and collections by generation."""
    per_turn = max(1, turns)
    counts = zip(before["collections"], after["collections"], strict=True)
    return {
        "cpu_ms_per_turn": round(1000 * (after["cpu_s"] - before["cpu_s"]) / per_turn, 2),
        "collections_per_turn": [round((b - a) / per_turn, 2) for a, b in counts],
    }


def cpu_split(
    sampled: dict[str, Any], profile: dict[str, Any], cpu_ms_per_turn: float
) -> dict[str, Any]:
    """Where the agent process's CPU per turn goes. ``cpu_ms_per_turn_by_component``: the
    event-loop thread's CPU by component from the sampler (see ``bench.cpu_sampler``), as
    shares of the unprofiled process CPU per turn (so the rows add up to
    ``cpu_ms_per_turn["agent"]``), with the process's other threads (gRPC's, the MongoDB
    driver's) a row of their own. ``sampled_*`` are the sampler's own per-turn figures;
    ``cprofile_*`` the same split from cProfile with a CPU clock, whose per-call cost
    inflates call-heavy code (the event loop, Pydantic AI): shown for comparison only."""
    components = sampled.get("components_s", {})
    total = sum(components.values()) or 1.0
    window = sampled.get("cpu_s", {})
    process, thread = window.get("process", 0.0), window.get("thread", 0.0)
    other_share = min(1.0, max(0.0, process - thread) / process) if process else 0.0
    in_loop = cpu_ms_per_turn * (1 - other_share)
    return {
        "cpu_ms_per_turn_by_component": {
            **{name: round(in_loop * s / total, 2) for name, s in components.items()},
            "other threads": round(cpu_ms_per_turn * other_share, 2),
        },
        "sampled_cpu_ms_per_turn": {
            "process": _per_turn(process, sampled),
            "event_loop_thread": _per_turn(thread, sampled),
            "samples": sampled.get("samples", 0),
        },
        "sampled_cpu_ms_per_turn_by_component": {
            name: _per_turn(s, sampled) for name, s in components.items()
        },
        "sampled_top_functions": sampled.get("tottime", [])[:15],
        # Python function calls per turn (cProfile phase): a proxy for the CPU per turn that
        # does not move with the machine's load.
        "python_calls_per_turn": round(profile.get("calls", 0) / max(1, profile.get("turns", 0))),
        "cprofile_cpu_ms_per_turn_by_component": {
            name: _per_turn(s, profile) for name, s in profile.get("components_s", {}).items()
        },
    }


def _per_turn(seconds: float, reply: dict[str, Any]) -> float:
    turns: int = reply.get("turns", 0)
    return round(1000 * seconds / max(1, turns), 2)


def plot(loaded: dict[str, Any], serial: dict[str, Any], path: Path = PLOT) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (hist, bars) = plt.subplots(1, 2, figsize=(11, 4))
    for label, seconds in (
        ("turn wall time", loaded["_total_seconds"]),
        ("the rest (wall − model − tools)", loaded["_rest_seconds"]),
    ):
        hist.hist([s * 1000 for s in seconds], bins=40, alpha=0.6, label=label)
    hist.set_xlabel("ms per SendMessage turn")
    hist.set_ylabel("turns")
    hist.set_title("Turn latency at 50 concurrent conversations")
    hist.legend()
    parts = ["model", "tools", "db_outside_tools", "rest_excluding_db"]
    for offset, figures in enumerate((serial, loaded)):
        bottom = 0.0
        for index, part in enumerate(parts):
            value = figures[part]["p50_ms"]
            bars.bar(offset, value, bottom=bottom, color=f"C{index}", label=part if offset else "")
            bottom += value
    bars.set_xticks([0, 1], ["1 conversation", "50 concurrent"])
    bars.set_ylabel("ms (p50 of each part)")
    bars.set_title("Where a turn goes (p50 per part, stacked)")
    bars.legend()
    fig.tight_layout()
    RESULTS.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)


def plot_path(quick: bool) -> Path:
    """Quick runs (smoke tests) never overwrite the published plot."""
    return PLOT.with_stem(PLOT.stem + "_quick") if quick else PLOT


def run(quick: bool = False) -> dict[str, Any]:
    with (
        tempfile.TemporaryDirectory(prefix="agenda-bench-") as tmp,
        agent_stack(Path(tmp), instrument=True) as stack,
    ):
        figures = asyncio.run(measure(stack, quick))
    floor = framework_floor.run(quick)
    # the same floor with as many calls at a time as the loaded phase has conversations
    floor_concurrent = framework_floor.run(quick, figures["concurrent_conversations"])
    loaded, serial = figures["loaded"], figures["serial"]
    plot(loaded, serial, plot_path(quick))
    for part in (loaded, serial):
        part.pop("_rest_seconds")
        part.pop("_total_seconds")
    return {
        "rest_p50_ms": loaded["rest"]["p50_ms"],
        "rest_p99_ms": loaded["rest"]["p99_ms"],
        "goal_rest_p50_le_20ms": loaded["rest"]["p50_ms"] <= 20,
        "goal_rest_p99_le_100ms": loaded["rest"]["p99_ms"] <= 100,
        **figures,
        "event_loop": event_loop.chosen().value,
        "framework_floor_cpu_ms": floor,
        "framework_floor_ms_per_turn": framework_floor.per_turn(floor, serial),
        "framework_floor_concurrent_cpu_ms": floor_concurrent,
        "framework_floor_concurrent_ms_per_turn": framework_floor.per_turn(
            floor_concurrent, serial
        ),
        "plot": str(plot_path(quick).relative_to(REPO)),
    }


# ------------------------------------------------------- the agent-service entry (serve)


@dataclass
class TurnTimes:
    """What one turn spent, filled in by the probes below (seconds)."""

    model: float = 0.0
    model_calls: int = 0
    agent_runs: int = 0
    tools: float = 0.0
    tool_calls: int = 0
    db: float = 0.0
    db_in_tools: float = 0.0
    db_commands: int = 0
    db_in_tools_commands: int = 0
    db_by_command: dict[str, int] = field(default_factory=dict)  # "find conversations": n
    handled: float = 0.0


class GcClock:
    """CPU time (of the collecting thread) spent in the cyclic garbage collector, and
    collections by generation, since the process started."""

    def __init__(self) -> None:
        self.cpu_s = 0.0
        self.collections = [0, 0, 0]
        self._began = 0.0

    def on_collection(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._began = time.thread_time()
            return
        self.cpu_s += time.thread_time() - self._began
        self.collections[info["generation"]] += 1

    async def read(self, args: dict[str, Any]) -> dict[str, Any]:
        return {"cpu_s": self.cpu_s, "collections": list(self.collections)}


GC_CLOCK = GcClock()
CURRENT_TURN: ContextVar[TurnTimes | None] = ContextVar("bench_turn", default=None)
IN_TOOL: ContextVar[bool] = ContextVar("bench_in_tool", default=False)


def install_probes(records: dict[str, dict[str, Any]]) -> Any:
    """Patch the bench process (never the service code): per-turn accumulator around
    ``HandleMessage.execute``, tool timing, a MongoDB command listener. Returns the model."""
    from pydantic_ai.messages import ModelMessage, ModelResponse
    from pydantic_ai.models.function import AgentInfo, FunctionModel
    from pymongo import monitoring

    from agent_service.application.conversation import HandleMessage
    from agent_service.infrastructure.agent import agents
    from agent_service.infrastructure.agent.offline.model import offline_model_function

    class DatabaseTime(monitoring.CommandListener):
        def started(self, event: monitoring.CommandStartedEvent) -> None:
            times = CURRENT_TURN.get()
            if times is not None:
                target = event.command.get(event.command_name)
                where = f" {target}" if isinstance(target, str) else ""
                name = f"{event.command_name}{where}{' (tool)' if IN_TOOL.get() else ''}"
                times.db_by_command[name] = times.db_by_command.get(name, 0) + 1

        def succeeded(self, event: monitoring.CommandSucceededEvent) -> None:
            self._add(event.duration_micros)

        def failed(self, event: monitoring.CommandFailedEvent) -> None:
            self._add(event.duration_micros)

        def _add(self, micros: int) -> None:
            times = CURRENT_TURN.get()
            if times is None:
                return
            times.db_commands += 1
            if IN_TOOL.get():
                times.db_in_tools_commands += 1
                times.db_in_tools += micros / 1e6
            else:
                times.db += micros / 1e6

    monitoring.register(DatabaseTime())

    original_wrapper = agents.reporting_progress

    def timed_tool(tool: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
        inner = original_wrapper(tool)

        @functools.wraps(tool)
        async def run(*args: Any, **kwargs: Any) -> Any:
            times = CURRENT_TURN.get()
            token = IN_TOOL.set(True)
            began = time.perf_counter()
            try:
                return await inner(*args, **kwargs)
            finally:
                IN_TOOL.reset(token)
                if times is not None:
                    times.tools += time.perf_counter() - began
                    times.tool_calls += 1

        return run

    agents.reporting_progress = timed_tool

    from agent_service.infrastructure.agent import graph, usage

    @contextmanager
    def counted_run(who: str) -> Iterator[usage.RunUsage]:
        """``usage.acting_as`` wraps each Pydantic AI run (``graph._run_guarded``): count it."""
        times = CURRENT_TURN.get()
        if times is not None:
            times.agent_runs += 1
        with usage.acting_as(who) as used:
            yield used

    setattr(graph, "acting_as", counted_run)  # noqa: B010 (graph imports the name)

    original_execute = HandleMessage.execute

    async def execute(self: HandleMessage, message: Any, progress: Any = None) -> Any:
        times = TurnTimes()
        token = CURRENT_TURN.set(times)
        began = time.perf_counter()
        try:
            return await original_execute(self, message, progress)
        finally:
            times.handled = time.perf_counter() - began
            CURRENT_TURN.reset(token)
            records[message.message_id] = asdict(times)

    HandleMessage.execute = execute  # type: ignore[method-assign]
    gc.callbacks.append(GC_CLOCK.on_collection)

    async def zero_latency_model(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        began = time.perf_counter()
        try:
            return offline_model_function(messages, info)
        finally:
            times = CURRENT_TURN.get()
            if times is not None:
                times.model += time.perf_counter() - began
                times.model_calls += 1

    return FunctionModel(zero_latency_model, model_name="offline")


async def serve(instrument: bool) -> None:
    """The agent service as ``python -m agent_service`` runs it, plus the bench probes."""
    from agenda_kit.grpc.server import serve_until_signal
    from agenda_kit.logging import configure_logging
    from agenda_kit.settings import SharedSettings
    from agent_service.bootstrap import Overrides, bootstrap
    from agent_service.infrastructure.settings import AgentSettings
    from bench.harness import open_to_bench, probe_handler

    shared, settings = SharedSettings(), AgentSettings()
    configure_logging(shared.log_level, json=shared.log_json)
    records: dict[str, dict[str, Any]] = {}
    model = install_probes(records) if instrument else None

    async def drain(args: dict[str, Any]) -> Any:
        taken = dict(records)
        records.clear()
        return taken

    app = await bootstrap(settings, shared, Overrides(model=model))
    app.server.add_generic_rpc_handlers((probe_handler({"Turns": drain, "GcTime": GC_CLOCK.read}),))
    open_to_bench(app.spec, ["Turns", "GcTime"])
    try:
        await serve_until_signal(app.server, app.spec, settings.shutdown_grace_seconds)
    finally:
        await app.resources.aclose()


if __name__ == "__main__":
    if sys.argv[1:2] == ["serve"]:
        event_loop.run(serve(instrument="--instrument" in sys.argv[2:]))
    else:
        sys.stdout.write(json.dumps(run(quick="--quick" in sys.argv[1:]), indent=2) + "\n")
