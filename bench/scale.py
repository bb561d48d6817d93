"""Scale and memory: 200 concurrent conversations of 6 turns against both services as
processes (the offline model, embedded MongoDB for each service).

The agent service runs as ``python -m agent_service`` wires it (``bench.turn_overhead
serve`` without ``--instrument``: the service's own ``bootstrap`` and model) and the calendar
service through ``bench.calendar_with_echo``; both add only the ``/bench.Probe`` handler, used
here to run ``gc.collect()`` inside the service and read its heap (CPython's allocated blocks,
objects tracked by the collector) next to the RSS the parent reads with ``psutil``.

Sequence: seed the demo salon; 10 warm-up conversations (ended); collect → baseline; 200
conversations at once, 6 turns each, every one booking its own slot; collect → "open"
(conversations still active); EndConversation for all; collect → "ended". Memory per open
conversation is the RSS growth from baseline to "open" over 200. The agent keeps no
conversation in memory by design (its state is checkpointed in MongoDB every turn), so what
remains after "ended" beyond the baseline is allocator high-water and caches, not
conversations; the embedded MongoDB processes (the services' children) hold what is persisted
and are reported on their own. Benchmarks report; they do not assert.

``python -m bench.scale [--quick]``.
"""

from __future__ import annotations

import asyncio
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

import grpc

from agenda.agent.v1 import agent_service_pb2 as pb
from agenda.agent.v1 import agent_service_pb2_grpc as pb_grpc
from bench.harness import REPO, Service, bearer, percentiles, probe
from bench.turn_overhead import (
    AGENT_TOKEN,
    CALENDAR_TOKEN,
    TURNS_PER_CONVERSATION,
    Conversation,
    SlotBook,
    agent_stack,
    conversations,
    samples_of,
    seed_salon,
)

RESULTS = Path(__file__).resolve().parent / "results"
PLOT = RESULTS / "scale_latency_cdf.png"
CONVERSATIONS = 200
KIB = 1024


async def end_all(channel: grpc.aio.Channel, tenant_id: str, done: list[Conversation]) -> int:
    """EndConversation for every conversation that got an id; returns the errors."""
    stub = pb_grpc.AgentServiceStub(channel)
    results = await asyncio.gather(
        *(
            stub.EndConversation(
                pb.EndConversationRequest(
                    tenant_id=tenant_id, conversation_id=convo.conversation_id
                ),
                metadata=bearer(AGENT_TOKEN),
                timeout=60,
            )
            for convo in done
            if convo.conversation_id
        ),
        return_exceptions=True,
    )
    return sum(1 for result in results if isinstance(result, BaseException))


async def snapshot(
    stack: dict[str, Service], channels: dict[str, grpc.aio.Channel]
) -> dict[str, dict[str, Any]]:
    """``gc.collect()`` in each service, then its heap figures and the RSS of it and its
    children (the embedded MongoDB)."""
    tokens = {"agent": AGENT_TOKEN, "calendar": CALENDAR_TOKEN}
    figures = {}
    for name, service in stack.items():
        inside = await probe(channels[name], "Gc", tokens[name])
        figures[name] = {**inside, **service.rss()}
    return figures


def delta(after: dict[str, Any], before: dict[str, Any]) -> dict[str, Any]:
    keys = ("rss_bytes", "children_rss_bytes", "allocated_blocks", "gc_objects", "asyncio_tasks")
    return {key: after[key] - before[key] for key in keys}


async def measure(stack: dict[str, Service], count: int, warmup: int) -> dict[str, Any]:
    agent, calendar = stack["agent"], stack["calendar"]
    async with (
        grpc.aio.insecure_channel(agent.address) as agent_channel,
        grpc.aio.insecure_channel(calendar.address) as calendar_channel,
    ):
        channels = {"agent": agent_channel, "calendar": calendar_channel}
        tenant_id = await seed_salon(agent_channel)
        slots = SlotBook()
        warmed, _ = await conversations(agent_channel, tenant_id, slots, warmup, "warmup")
        await end_all(agent_channel, tenant_id, warmed)
        baseline = await snapshot(stack, channels)
        done, wall = await conversations(agent_channel, tenant_id, slots, count, "scale")
        opened = await snapshot(stack, channels)
        end_errors = await end_all(agent_channel, tenant_id, done)
        ended = await snapshot(stack, channels)
    samples = samples_of(done)
    ok = [sample.seconds for sample in samples if sample.error is None]
    return {
        "samples": ok,
        "figures": {
            "conversations": count,
            "turns": len(samples),
            "errors": sum(1 for sample in samples if sample.error is not None),
            "error_examples": [sample.error for sample in samples if sample.error][:3],
            "end_conversation_errors": end_errors,
            "bookings": sum(1 for sample in samples if sample.booked),
            "wall_s": round(wall, 2),
            "turns_per_s": round(len(samples) / wall, 1),
            **percentiles(ok, (50, 90, 99)),
            "baseline": baseline,
            "open": opened,
            "ended": ended,
            "open_minus_baseline": {n: delta(opened[n], baseline[n]) for n in baseline},
            "ended_minus_baseline": {n: delta(ended[n], baseline[n]) for n in baseline},
        },
    }


def plot(samples: list[float], count: int, path: Path = PLOT) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    ordered = sorted(s * 1000 for s in samples)
    fig, axis = plt.subplots(figsize=(6, 4))
    axis.plot(ordered, [(i + 1) / len(ordered) for i in range(len(ordered))])
    axis.set_xlabel("SendMessage latency (ms)")
    axis.set_ylabel("fraction of turns")
    axis.set_title(
        f"{count} concurrent conversations × {TURNS_PER_CONVERSATION} turns (offline model)"
    )
    axis.grid(True, alpha=0.3)
    fig.tight_layout()
    RESULTS.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)


def plot_path(quick: bool) -> Path:
    """Quick runs (smoke tests) never overwrite the published plot."""
    return PLOT.with_stem(PLOT.stem + "_quick") if quick else PLOT


def run(quick: bool = False) -> dict[str, Any]:
    count = 8 if quick else CONVERSATIONS
    with (
        tempfile.TemporaryDirectory(prefix="agenda-bench-") as tmp,
        agent_stack(Path(tmp), instrument=False) as stack,
    ):
        measured = asyncio.run(measure(stack, count, 2 if quick else 10))
    plot(measured["samples"], count, plot_path(quick))
    figures: dict[str, Any] = measured["figures"]
    growth = figures["open_minus_baseline"]
    per_conversation = {
        name: round(growth[name]["rss_bytes"] / count / KIB, 2) for name in ("agent", "calendar")
    }
    left = figures["ended_minus_baseline"]
    return {
        "errors": figures["errors"],
        "turns_per_s": figures["turns_per_s"],
        "p99_ms": figures["p99_ms"],
        "rss_kib_per_open_conversation": per_conversation,
        "rss_kib_left_after_end": {
            name: round(left[name]["rss_bytes"] / KIB, 1) for name in ("agent", "calendar")
        },
        "goal_zero_errors": figures["errors"] == 0,
        "goal_rss_le_50_kib_per_conversation": all(v <= 50 for v in per_conversation.values()),
        **figures,
        "plot": str(plot_path(quick).relative_to(REPO)),
    }


if __name__ == "__main__":
    sys.stdout.write(json.dumps(run(quick="--quick" in sys.argv[1:]), indent=2) + "\n")
