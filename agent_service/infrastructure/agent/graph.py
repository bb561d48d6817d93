"""The LangGraph graph: prepare → route → one specialist (→ route again on escape) → remember.

The router and the specialists say where the turn goes next themselves (a ``Command`` with
the state update and ``goto``) instead of through conditional edges: LangGraph runs every
edge function as a traced runnable of its own (callback manager, start/end events, a
shielded task), which cost more than the rest of the turn's graph steps together."""

from __future__ import annotations

from collections.abc import Awaitable
from dataclasses import dataclass
from typing import Any, Protocol

import structlog
from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph
from langgraph.runtime import Runtime
from langgraph.types import Command
from prometheus_client import Counter
from pydantic_ai import Agent
from pydantic_ai.agent import AgentRunResult
from pydantic_ai.messages import ModelMessage
from pydantic_ai.usage import RunUsage, UsageLimits

from agenda_kit.calendar.errors import CalendarError
from agent_service.application.consent_policy import Outcome
from agent_service.application.engine import ProgressEvent, ProgressSink, takes_text
from agent_service.application.pending_executions import OnceOnly
from agent_service.domain.errors import AgendaError
from agent_service.infrastructure.agent.agents import AgentSet, Escape
from agent_service.infrastructure.agent.confirm import PENDING_OWNERS, TASK_ENDS, settle_in_code
from agent_service.infrastructure.agent.deps import AgentDeps
from agent_service.infrastructure.agent.framing import customer_voice
from agent_service.infrastructure.agent.grounded import tool_texts
from agent_service.infrastructure.agent.history import handed_over, load_history, task_history
from agent_service.infrastructure.agent.intent import clear_route
from agent_service.infrastructure.agent.memory import prepare_turn, remember_turn
from agent_service.infrastructure.agent.specialists import Specialist
from agent_service.infrastructure.agent.state import ChatState
from agent_service.infrastructure.agent.usage import acting_as

log = structlog.get_logger("agenda.graph")
ROUTE_DECISIONS = Counter(
    "agenda_route_decisions_total", "New tasks routed in code or by the model router", ["by"]
)
MAX_ESCAPES = 2
# Business and infrastructure errors reach the caller as status codes; anything else that
# goes wrong inside a model run (provider errors, malformed responses, usage limits) ends
# the turn with a polite reply instead.
PROPAGATE = (AgendaError, CalendarError)


@dataclass
class TurnContext:
    """Per-turn runtime objects (never serialised into the state)."""

    deps: AgentDeps
    usage: RunUsage
    limits: UsageLimits
    progress: ProgressSink | None = None
    once: OnceOnly | None = None
    """Runs each confirmed pending action at most once (confirm.py)."""

    async def report(self, stage: str) -> None:
        if self.progress is not None:
            await self.progress(ProgressEvent(progress=stage))


class Node(Protocol):
    def __call__(
        self, state: ChatState, *, runtime: Runtime[TurnContext]
    ) -> Awaitable[Command[str]]: ...


def build_graph(
    agents: AgentSet, specialists: tuple[Specialist, ...]
) -> CompiledStateGraph[Any, Any, Any, Any]:
    """Compile the graph once at start-up; only enabled specialists become nodes."""
    names = [s.name for s in specialists]
    graph: StateGraph[ChatState, TurnContext, ChatState, ChatState] = StateGraph(
        ChatState, context_schema=TurnContext
    )
    graph.add_node("prepare", _prepare)
    graph.add_node("route", _router_node(agents, specialists), destinations=(*names, "remember"))
    graph.add_node("remember", _remember)
    for name in names:
        graph.add_node(name, _specialist_node(agents, name), destinations=("route", "remember"))
    graph.add_edge(START, "prepare")
    graph.add_edge("prepare", "route")
    graph.add_edge("remember", END)
    return graph.compile()


async def _prepare(state: ChatState, *, runtime: Runtime[TurnContext]) -> dict[str, Any]:
    await runtime.context.report("prepare")
    return await prepare_turn(state, runtime.context.deps)


def _router_node(agents: AgentSet, specialists: tuple[Specialist, ...]) -> Node:
    names = [s.name for s in specialists]

    async def route(state: ChatState, *, runtime: Runtime[TurnContext]) -> Command[str]:
        context = runtime.context
        settled = await settle_in_code(state, context.deps, agents, names, context.once)
        if settled is not None:  # no model request: straight to remember
            return Command(update=settled, goto="remember")
        update = await decide(state, runtime.context)
        return Command(update=update, goto=_after_route({**state, **update}))  # type: ignore[typeddict-item]

    async def decide(state: ChatState, context: TurnContext) -> dict[str, Any]:
        await context.report("route")
        escaped = state.get("escaped_from", [])
        if len(escaped) >= MAX_ESCAPES:
            return {"active_specialist": "", "status": "answering"}
        sticky = _sticky_choice(state, context.deps, names, escaped)
        clear = clear_route(
            state.get("message", ""), specialists, escaped, context.deps.turn.language
        )
        # A follow-up that clearly belongs to another job switches in code (no request spent
        # on a transfer); a pending confirmation always goes back to its owner, and a booking
        # keeps questions about what it books ("quanto custa?": it has the prices and
        # proposes again), as the specialists' escape rule says — unless the question is an
        # aside to a waiting proposal, which the system itself asks again (consent.py).
        # An aside (a question about the business meanwhile) is answered by whoever can: a
        # clear route, else the router's choice; the waiting proposal is asked again anyway.
        aside = context.deps.turn.consent is Outcome.ASIDE
        keeps = not aside and (clear in ("", sticky) or (sticky, clear) == ("booking", "discovery"))
        owed = context.deps.turn.pending is not None or context.deps.turn.changes_dropped
        if sticky and (owed or keeps):
            return {"active_specialist": sticky, "intent": sticky, "status": "answering"}
        if clear:  # a clear new task is routed in code: no model request
            ROUTE_DECISIONS.labels("code").inc()
            return {
                "active_specialist": clear,
                "intent": clear,
                "intent_confidence": 1.0,
                "status": "answering",
            }
        ROUTE_DECISIONS.labels("model").inc()
        result = await _run_guarded(agents.router, "router", state, context)
        if result is None:  # the reply is composed from the turn's outcomes (see truth.py)
            return {"active_specialist": "", "response": "", "status": "error"}
        choice = str(result.output.specialist)
        if choice in escaped:
            choice = ""
        return {
            "active_specialist": choice,
            "intent": choice,
            "intent_confidence": 1.0,
            "status": "answering",
        }

    return route


async def _run_guarded(
    agent: Agent[AgentDeps, Any],
    who: str,
    state: ChatState,
    context: TurnContext,
    history: list[ModelMessage] | None = None,
) -> AgentRunResult[Any] | None:
    """One agent run within the turn's usage limits, its requests attributed to ``who``;
    None when it stopped (provider error, malformed response, usage limit), logged."""
    try:
        with acting_as(who):
            return await agent.run(
                customer_voice(state.get("message", "")),
                deps=context.deps,
                message_history=history,
                usage=context.usage,
                usage_limits=context.limits,
            )
    except PROPAGATE as error:
        if not context.deps.turn.actions:
            raise
        # A change was already made this turn: end the turn with its receipts instead of an
        # error (the outcome is stored, so a redelivery gets the same truthful reply).
        log.warning("agent_run_stopped_after_change", error=repr(error)[:300])
        return None
    except Exception as error:
        log.warning("agent_run_stopped", error=repr(error)[:300], exc_info=error)
        return None


def _sticky_choice(state: ChatState, deps: AgentDeps, names: list[str], escaped: list[str]) -> str:
    """A pending confirmation goes back to its owner, and so does a change asked of one (it
    proposes the change: "antecipar?" is the proposal's, never one's own appointments');
    otherwise the active specialist keeps follow-up turns until it escapes (the seed's escape
    rule)."""
    candidates = []
    if deps.turn.pending is not None:
        candidates.append(PENDING_OWNERS.get(deps.turn.pending.tool, ""))
    elif deps.turn.dropped is not None and deps.turn.changes_dropped:
        candidates.append(PENDING_OWNERS.get(deps.turn.dropped.tool, ""))
    candidates.append(state.get("active_specialist", ""))
    for candidate in candidates:
        if candidate and candidate in names and candidate not in escaped:
            return candidate
    return ""


def _after_route(state: ChatState) -> str:
    return state.get("active_specialist") or "remember"


def _specialist_node(agents: AgentSet, name: str) -> Node:
    async def run_specialist(state: ChatState, *, runtime: Runtime[TurnContext]) -> Command[str]:
        update = await answer(state, runtime.context)
        return Command(update=update, goto=_after_specialist({**state, **update}))  # type: ignore[typeddict-item]

    async def answer(state: ChatState, context: TurnContext) -> dict[str, Any]:
        await context.report(f"specialist:{name}")
        context.deps.turn.writer = name in PENDING_OWNERS.values()
        histories = dict(state.get("histories", {}))
        stored = load_history(histories.get(name))
        confirm = confirm_step(context.deps, name)
        # The confirm step is one call whose arguments the context's pending action carries:
        # it is sent without the task's messages (kept, and sent again if the task goes on).
        history = None if confirm else stored or handed_over(histories, name)
        agent = agents.specialist(name, streams_text=takes_text(context.deps.turn.progress))
        result = await _run_guarded(agent, name, state, context, history)
        if result is None:
            return {"response": "", "status": "error", "error": "usage limit", "answered_by": name}
        context.deps.turn.tool_texts.extend(tool_texts(result.all_messages()))
        messages = [*(stored or []), *result.new_messages()] if confirm else result.all_messages()
        histories = task_history(name, messages, task_done(context.deps))
        if context.deps.turn.handoff_reason is not None:  # nothing else runs after a handoff
            output = "" if isinstance(result.output, Escape) else result.output
            return {"response": output, "answered_by": name, "histories": histories}
        if isinstance(result.output, Escape):
            return {
                "escaped_from": [name],
                "active_specialist": "",
                "histories": histories,
                "status": "escaped",
            }
        return {
            "response": result.output,
            "active_specialist": name,
            "answered_by": name,
            "histories": histories,
        }

    return run_specialist


def confirm_step(deps: AgentDeps, name: str) -> bool:
    """The customer just said yes to ``name``'s proposed write (decided in code)."""
    pending = deps.turn.pending
    return pending is not None and pending.confirmed and PENDING_OWNERS.get(pending.tool) == name


def task_done(deps: AgentDeps) -> bool:
    """This turn finished its task: a change was made, declined or left pending."""
    return any(action.kind in TASK_ENDS for action in deps.turn.actions)


def _after_specialist(state: ChatState) -> str:
    return "route" if state.get("status") == "escaped" else "remember"


async def _remember(state: ChatState, *, runtime: Runtime[TurnContext]) -> dict[str, Any]:
    await runtime.context.report("remember")
    return remember_turn(state, runtime.context.deps)
