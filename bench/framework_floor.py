"""What the agent's frameworks cost by themselves, in this process, with nothing of ours in
the way: the floor under the agent's CPU per turn.

- **Pydantic AI**: one ``Agent.run`` whose ``FunctionModel`` answers at once (one request),
  and one that calls a tool first (two requests, one tool call) — agents shaped like ours
  (static and dynamic instructions, four tools, text or an escape tool as output).
- **LangGraph**: one ``ainvoke`` of a compiled graph of our shape (prepare → route →
  specialist → remember, the router and the specialist routing with ``Command(goto=…)``,
  ``ChatState``) whose nodes do nothing.
- **MongoDB driver**: the client-side CPU of one ``find_one`` by ``_id`` and of one
  ``update_one`` through ``AsyncMongoClient`` against an embedded SecantusDB.

``per_turn`` puts them together for a turn as the bench measured it (Pydantic AI runs and
model requests, MongoDB commands per turn): the CPU a turn cannot go below with these
frameworks, whatever our own code does.

Measured on the event loop the services run on (``AGENDA_EVENT_LOOP``, uvloop by default).
Each figure is CPU time (``process_time``) per call: the best of three rounds, so another
process's load on the shared machine inflates it as little as possible. Benchmarks report;
they do not assert.

``run(concurrency=N)`` measures the same calls ``N`` at a time (``asyncio.gather``): the
agent's turns are measured at 50 conversations at once, where the event loop steps many
tasks between each one's awaits and the MongoDB driver shares its connection pool, and the
serial floor counts none of that. The goal compares with the serial floor (as the issue set
it); the concurrent one says how much of the gap is the concurrency itself.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from langgraph.graph import END, START, StateGraph
from langgraph.types import Command
from pydantic import BaseModel
from pydantic_ai import Agent, RunContext, ToolOutput
from pydantic_ai.messages import ModelMessage, ModelResponse, TextPart, ToolCallPart
from pydantic_ai.models.function import AgentInfo, FunctionModel

from agenda_kit import event_loop
from agent_service.infrastructure.agent.state import ChatState

ROUNDS = 3


async def cpu_ms_per_call(
    call: Callable[[], Awaitable[Any]], calls: int, concurrency: int = 1
) -> float:
    """Best-of-``ROUNDS`` CPU milliseconds per ``call()``, after a warm-up; ``concurrency``
    calls at a time."""

    async def batch() -> None:
        if concurrency == 1:
            await call()
        else:
            await asyncio.gather(*(call() for _ in range(concurrency)))

    batches = max(1, calls // concurrency)
    for _ in range(max(5, batches // 10)):
        await batch()
    best = float("inf")
    for _ in range(ROUNDS):
        began = time.process_time()
        for _ in range(batches):
            await batch()
        best = min(best, (time.process_time() - began) / (batches * concurrency))
    return round(1000 * best, 3)


# ------------------------------------------------------------------------------ Pydantic AI


class Escape(BaseModel):
    reason: str


def _agents() -> tuple[Any, Any]:
    async def answer(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        return ModelResponse(parts=[TextPart("Temos corte, escova e manicure.")])

    async def tool_then_answer(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        if len(messages) == 1:
            return ModelResponse(parts=[ToolCallPart("tool_0", {"text": "corte"}, "call-1")])
        return ModelResponse(parts=[TextPart("Temos horários às 10:00 e 11:00.")])

    async def context(ctx: RunContext[None]) -> str:
        return "Now: 2026-11-30 10:00, Monday."

    def tool(number: int) -> Any:
        async def run(ctx: RunContext[None], text: str) -> str:
            return f"result of {text}"

        run.__name__ = f"tool_{number}"
        run.__doc__ = "Look something up."
        return run

    def agent(model: Any) -> Any:
        return Agent(
            FunctionModel(model),
            output_type=[str, ToolOutput(Escape, name="transfer_to_router")],
            instructions=["You answer a salon's customers.", context],
            tools=[tool(n) for n in range(4)],
        )

    return agent(answer), agent(tool_then_answer)


async def pydantic_ai_floor(calls: int, concurrency: int = 1) -> dict[str, float]:
    one_request, with_tool = _agents()
    return {
        "pydantic_ai_run_1_request": await cpu_ms_per_call(
            lambda: one_request.run("Oi"), calls, concurrency
        ),
        "pydantic_ai_run_tool_round_trip": await cpu_ms_per_call(
            lambda: with_tool.run("Horários?"), calls, concurrency
        ),
    }


# -------------------------------------------------------------------------------- LangGraph


@dataclass
class _Context:
    turn: int = 0


async def langgraph_floor(calls: int, concurrency: int = 1) -> dict[str, float]:
    async def prepare(state: ChatState) -> dict[str, Any]:
        return {"status": "routing", "memory": {}}

    async def route(state: ChatState) -> Command[str]:
        return Command(
            update={"active_specialist": "booking", "status": "answering"}, goto="booking"
        )

    async def specialist(state: ChatState) -> Command[str]:
        update = {"response": "Ok", "answered_by": "booking", "histories": {}}
        return Command(update=update, goto="remember")

    async def remember(state: ChatState) -> dict[str, Any]:
        return {"status": "done"}

    graph: StateGraph[ChatState, _Context, ChatState, ChatState] = StateGraph(
        ChatState, context_schema=_Context
    )
    graph.add_node("prepare", prepare)
    graph.add_node("route", route, destinations=("booking", "remember"))
    graph.add_node("booking", specialist, destinations=("route", "remember"))
    graph.add_node("remember", remember)
    graph.add_edge(START, "prepare")
    graph.add_edge("prepare", "route")
    graph.add_edge("remember", END)
    compiled = graph.compile()
    state = ChatState(message="Oi", memory={}, histories={}, escaped_from=[], status="new")
    return {
        "langgraph_turn_graph": await cpu_ms_per_call(
            lambda: compiled.ainvoke(state, context=_Context()), calls, concurrency
        )
    }


# ---------------------------------------------------------------------------- MongoDB driver


async def mongodb_floor(uri: str, calls: int, concurrency: int = 1) -> dict[str, float]:
    from agenda_kit.mongo import make_client

    client = make_client(uri)
    try:
        collection = client["bench_floor"]["documents"]
        await collection.replace_one({"_id": 1}, {"_id": 1, "text": "x" * 200}, upsert=True)
        counter = iter(range(10**9))
        return {
            "mongodb_find_one": await cpu_ms_per_call(
                lambda: collection.find_one({"_id": 1}), calls, concurrency
            ),
            "mongodb_update_one": await cpu_ms_per_call(
                lambda: collection.update_one({"_id": 1}, {"$set": {"n": next(counter)}}),
                calls,
                concurrency,
            ),
        }
    finally:
        await client.close()


def per_turn(floor: dict[str, float], turn: dict[str, Any]) -> dict[str, dict[str, float]]:
    """The frameworks' floor under one turn (CPU ms): its Pydantic AI runs and model requests
    (``agent_runs_per_turn``, ``model_requests_per_turn``: each request after a run's first is
    a tool round trip), one LangGraph run of the turn graph and its MongoDB commands, each at
    its floor — what the agent's CPU per turn must at least be with these frameworks, nothing
    of ours in it. ``as_measured`` uses the turn's runs; ``one_run_per_turn`` the least a turn
    can make (no router run, no escape: one specialist run per turn, the same tool round trips,
    so the same model requests minus the router's and escapes')."""
    runs = turn.get("agent_runs_per_turn", 0.0)
    round_trips = max(0.0, turn.get("model_requests_per_turn", 0.0) - runs)
    commands = turn.get("db_commands_per_turn", 0.0)
    return {
        "as_measured": _floor(floor, runs, round_trips, commands),
        "one_run_per_turn": _floor(floor, 1.0, round_trips, commands),
    }


def _floor(
    floor: dict[str, float], runs: float, round_trips: float, commands: float
) -> dict[str, float]:
    run, round_trip = floor["pydantic_ai_run_1_request"], floor["pydantic_ai_run_tool_round_trip"]
    # A round trip's extra cost; never below zero when a loaded machine inflates the 1-request
    # run's best round more than the round trip's.
    extra_request = max(0.0, round_trip - run)
    parts = {
        "pydantic_ai": runs * run + round_trips * extra_request,
        "langgraph": floor["langgraph_turn_graph"],
        "mongodb_driver": commands * (floor["mongodb_find_one"] + floor["mongodb_update_one"]) / 2,
    }
    return {**{k: round(v, 2) for k, v in parts.items()}, "total": round(sum(parts.values()), 2)}


def run(quick: bool = False, concurrency: int = 1) -> dict[str, float]:
    """Every floor, CPU ms per call (``concurrency`` calls at a time)."""
    from agenda_kit.mongo import MEMORY, EmbeddedMongo

    calls = 60 if quick else 300

    async def measure(uri: str) -> dict[str, float]:
        return {
            **await pydantic_ai_floor(calls, concurrency),
            **await langgraph_floor(calls, concurrency),
            **await mongodb_floor(uri, calls, concurrency),
        }

    with EmbeddedMongo(MEMORY) as server:
        # on the loop the services run on (AGENDA_EVENT_LOOP), so that the floor and the
        # agent's CPU per turn are measured on the same event loop
        return event_loop.run(measure(server.uri))


if __name__ == "__main__":
    import json
    import sys

    sys.stdout.write(json.dumps(run(quick="--quick" in sys.argv[1:]), indent=2) + "\n")
