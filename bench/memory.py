"""Memory of the agent's own code per conversation, in process (offline model).

Between turns a conversation lives in MongoDB, not in the service's memory; what must not
grow is everything the process keeps: compiled graph and agents, caches, metrics, logs.

* **RSS growth from 1,000 to 10,000 finished conversations**: one compiled graph serves
  every conversation (one FAQ turn each, a new customer each); the in-memory store that
  stands for MongoDB is replaced every ``BATCH`` conversations, as finished conversations
  leave a real process. Growth = (RSS at 10,000 − RSS at 1,000) / RSS at 1,000, after a
  ``gc.collect()``; RSS is the allocator's high-water mark, so growth means a leak.
* **tracemalloc heap per open conversation**: ``OPEN`` conversations get their first turn
  and stay open on one store; the heap they added, excluding every allocation made inside
  the in-memory store (``tests/fakes``: MongoDB's stand-in), divided by ``OPEN``.

``python -m bench.memory [--quick]`` prints the figures as JSON.
"""

from __future__ import annotations

import asyncio
import gc
import json
import sys
import tracemalloc
from typing import Any

import psutil  # type: ignore[import-untyped]
from pydantic_ai.models.function import FunctionModel

from agenda_kit.logging import configure_logging
from agent_service.infrastructure.agent.models import build_model
from bench.conversations import Harness, assistant_now
from bench.token_economy import build_routed_graph
from tests.fakes.in_memory_calendar import InMemoryCalendar

KIB = 1024
BATCH = 250
OPEN = 300
# The range, 1,000 → 10,000 (a few minutes: one turn per conversation, in process);
# ``python -m bench.memory --large N`` runs another.
FULL_SMALL, FULL_LARGE = 1_000, 10_000
GOAL_GROWTH = 0.05
GOAL_HEAP_KIB = 20.0
TURN = "Qual é o endereço de vocês?"


def rss() -> int:
    gc.collect()
    return int(psutil.Process().memory_info().rss)


async def finished(graph: Any, first: int, last: int) -> None:
    """Conversations ``first`` … ``last - 1``, one turn each, a fresh store every BATCH."""
    harness: Harness | None = None
    for number in range(first, last):
        if harness is None or number % BATCH == 0:
            harness = Harness(graph, InMemoryCalendar(), assistant_now())
            await harness.seed()
        await harness.say(TURN, f"55117{number:08d}")


async def growth(graph: Any, small: int, large: int) -> dict[str, Any]:
    await finished(graph, 0, 100)  # imports, first-call caches
    await finished(graph, 100, small)
    at_small = rss()
    await finished(graph, small, large)
    at_large = rss()
    ratio = (at_large - at_small) / at_small
    return {
        "finished_conversations": [small, large],
        "rss_mib": [round(at_small / KIB / KIB, 1), round(at_large / KIB / KIB, 1)],
        "rss_growth": round(ratio, 4),
        "goal_rss_growth": GOAL_GROWTH,
        "goal_met_rss_growth": ratio <= GOAL_GROWTH,
    }


async def heap_per_open(graph: Any, count: int) -> dict[str, Any]:
    harness = Harness(graph, InMemoryCalendar(), assistant_now())
    await harness.seed()
    await harness.say(TURN, "5511800000000")  # warm
    tracemalloc.start(25)
    gc.collect()
    before = tracemalloc.take_snapshot()
    for number in range(count):
        await harness.say(TURN, f"55118{number:08d}")
    gc.collect()
    after = tracemalloc.take_snapshot()
    tracemalloc.stop()
    outside_store = [tracemalloc.Filter(False, "*/tests/fakes/*", all_frames=True)]
    diff = after.filter_traces(outside_store).compare_to(
        before.filter_traces(outside_store), "filename"
    )
    added = sum(stat.size_diff for stat in diff)
    top = sorted(diff, key=lambda stat: -stat.size_diff)[:5]
    per = added / count / KIB
    return {
        "open_conversations": count,
        "heap_kib_per_open_conversation": round(per, 2),
        "top_files_kib": {
            str(stat.traceback[0].filename).split("site-packages/")[-1]: round(
                stat.size_diff / KIB, 1
            )
            for stat in top
        },
        "goal_heap_kib": GOAL_HEAP_KIB,
        "goal_met_heap": per <= GOAL_HEAP_KIB,
    }


async def measure(quick: bool, large: int | None = None) -> dict[str, Any]:
    model = build_model("offline")
    assert isinstance(model, FunctionModel)
    graph = build_routed_graph(model)
    small, default_large = (200, 1_000) if quick else (FULL_SMALL, FULL_LARGE)
    return {
        **(await growth(graph, small, large or default_large)),
        **(await heap_per_open(graph, 50 if quick else OPEN)),
    }


def run(quick: bool = False, large: int | None = None) -> dict[str, Any]:
    configure_logging("WARNING")
    return asyncio.run(measure(quick, large))


if __name__ == "__main__":
    arguments = sys.argv[1:]
    wanted = int(arguments[arguments.index("--large") + 1]) if "--large" in arguments else None
    sys.stdout.write(json.dumps(run("--quick" in arguments, wanted), indent=2) + "\n")
