"""Token economy: the routed graph (router + one specialist with only its tools) against one
agent that has every tool and every instruction on every request (the design's "before").

Both run the scripted conversations of :mod:`bench.conversations` through the same
``HandleMessage`` → ``LangGraphConversationEngine`` path (same context block, same per-agent
history persistence and trimming, same tools and schemas, in-memory repositories and calendar),
driven by a ``FunctionModel`` that plays the customer's intent with the offline model's
decision logic and measures every request it receives.

Counting: each request is rendered as the OpenAI Chat Completions body it would be (system
message = the agent's instructions, the message history, and ``tools`` = the function and
output tool definitions with their JSON schemas) and counted twice: with a real tokenizer
(tiktoken ``cl100k_base``, offline, :mod:`bench.tokens`) — the headline — and with the fake
OpenAI server's chars/4 rule (``tests.fakes.openai_server.prompt_tokens``) for comparison.
Pydantic AI's own FunctionModel estimate leaves out instructions and tool schemas, the very
things being compared. The headline is per **user turn** (a turn may need several requests).

The single agent is the strongest honest one: every tool, every specialist's instructions
merged (without the router's routing text, which it cannot use), the same context block, the
same compact tool schemas and the same history policy. What only the routed design has is
its own: a specialist's tools and instructions only (the same on every request of a run, so
a provider's prompt cache keeps their prefix; tools/steps.py), a confirmation and a
greeting-only message answered in code, a proposal that ends the run (confirm.py,
agents.SystemReplies), and the router's code routing. Both get a listing that ends the run when
the model asks for it (``show_customer``, listings.py): a tool's feature, not routing's. The
routed graph routes clear new tasks in code and calls the model router only for ambiguous
ones; ``routed.router_requests_per_user_turn`` is that share.
``input_tokens_per_user_turn_by_origin`` splits a turn's input tokens: stable instructions,
the per-turn context block, tool schemas, earlier turns' kept messages, this turn's own
messages (the customer's message, tool calls and returns), and message framing.
The cacheable share is measured by a simulated prompt cache (``bench.prompt_cache``, its
assumptions stated there and in ``prompt_cache`` of the output): the input tokens that repeat
the start of an earlier request of the run, tools first, then instructions, then messages;
``billed_equivalent_*`` bills them at 0.1x. ``static_prefix_share`` is the older structural
estimate (tool schemas + the instructions before the per-turn context block).

``python -m bench.token_economy [--quick]`` prints the figures as JSON.
"""

from __future__ import annotations

import asyncio
import json
import statistics
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, cast

from langgraph.graph import END, START, StateGraph
from pydantic_ai import Agent
from pydantic_ai.messages import (
    ModelMessage,
    ModelRequest,
    ModelResponse,
    RetryPromptPart,
    SystemPromptPart,
    TextPart,
    ToolCallPart,
    ToolReturnPart,
    UserPromptPart,
)
from pydantic_ai.models.function import AgentInfo, FunctionModel

from agenda_kit.logging import configure_logging
from agent_service.infrastructure.agent.agents import (
    AgentSet,
    SystemReplies,
    _context,
    build_agents,
    reporting_progress,
)
from agent_service.infrastructure.agent.confirm import PENDING_OWNERS
from agent_service.infrastructure.agent.deps import AgentDeps
from agent_service.infrastructure.agent.graph import (
    TurnContext,
    _prepare,
    _remember,
    _specialist_node,
    build_graph,
)
from agent_service.infrastructure.agent.offline.context import read_context
from agent_service.infrastructure.agent.offline.model import (
    STEPS,
    _should_escape,
    offline_model_function,
    route,
)
from agent_service.infrastructure.agent.specialists import COMMON_RULES, SPECIALISTS
from agent_service.infrastructure.agent.state import ChatState
from agent_service.infrastructure.agent.tools.schemas import tool_capabilities
from bench.conversations import (
    CONVERSATIONS,
    Conversation,
    Harness,
    assistant_now,
    prepare,
    run_conversation,
)
from bench.prompt_cache import ASSUMPTION, PromptCache, billed, openai_cached
from bench.tokens import REPLY_PRIMING, body_tokens, count
from tests.fakes.in_memory_calendar import InMemoryCalendar
from tests.fakes.openai_server import prompt_tokens

SINGLE = "assistant"
CONTEXT_HEADER = "## Context"
GOAL_REDUCTION = 0.70
QUICK_CONVERSATIONS = (
    "book-pt-one-shot",
    "book-en-slot-filling",
    "reschedule-pt-direct",
    "faq-pt-address",
    "handoff-en",
    "mixed-pt-faq-then-book",
)
ModelFunction = Callable[[list[ModelMessage], AgentInfo], ModelResponse]


# --- measuring what a request carries ----------------------------------------------------------


def openai_body(messages: list[ModelMessage], info: AgentInfo) -> dict[str, Any]:
    """The Chat Completions request body this model request would be."""
    rendered: list[dict[str, Any]] = []
    if info.instructions:
        rendered.append({"role": "system", "content": info.instructions})
    rendered.extend(render_messages(messages))
    tools = [
        {
            "type": "function",
            "function": {
                "name": tool.name,
                "description": tool.description or "",
                "parameters": tool.parameters_json_schema,
            },
        }
        for tool in (*info.function_tools, *info.output_tools)
    ]
    return {"model": "bench", "messages": rendered, "tools": tools}


def render_messages(messages: list[ModelMessage]) -> list[dict[str, Any]]:
    rendered: list[dict[str, Any]] = []
    for message in messages:
        if isinstance(message, ModelRequest):
            rendered.extend(_request_parts(message))
        else:
            rendered.append(_assistant(message))
    return rendered


def _request_parts(message: ModelRequest) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for part in message.parts:
        if isinstance(part, SystemPromptPart):
            out.append({"role": "system", "content": part.content})
        elif isinstance(part, UserPromptPart):
            content = part.content if isinstance(part.content, str) else str(part.content)
            out.append({"role": "user", "content": content})
        elif isinstance(part, ToolReturnPart):
            out.append(
                {
                    "role": "tool",
                    "tool_call_id": part.tool_call_id,
                    "content": part.model_response_str(),
                }
            )
        elif isinstance(part, RetryPromptPart):
            role = "tool" if part.tool_name else "user"
            out.append(
                {"role": role, "tool_call_id": part.tool_call_id, "content": part.model_response()}
            )
    return out


def _assistant(message: ModelResponse) -> dict[str, Any]:
    texts = [part.content for part in message.parts if isinstance(part, TextPart)]
    calls = [
        {
            "id": part.tool_call_id,
            "type": "function",
            "function": {"name": part.tool_name, "arguments": part.args_as_json_str()},
        }
        for part in message.parts
        if isinstance(part, ToolCallPart)
    ]
    rendered: dict[str, Any] = {"role": "assistant", "content": "\n\n".join(texts) or None}
    if calls:
        rendered["tool_calls"] = calls
    return rendered


@dataclass(frozen=True, slots=True)
class Measured:
    """One model request: who received it and its input tokens, split by origin."""

    conversation: str
    role: str  # "router", a specialist's name, or the single agent
    input_tokens: int  # tiktoken cl100k_base
    input_tokens_chars4: int
    instructions_tokens: int
    tools_tokens: int
    static_prefix_tokens: int  # tools + instructions before the per-turn context block
    context_tokens: int = 0  # the per-turn context block (part of the instructions)
    cached_tokens: int = 0  # repeat an earlier request's prefix (bench.prompt_cache)
    earlier_turns_tokens: int = 0  # kept messages of earlier turns (history)
    this_turn_tokens: int = 0  # the customer's message, this turn's tool calls and returns


@dataclass
class Meter:
    """Wraps a model function; records every request it answers."""

    decide: ModelFunction
    conversation: str = ""
    requests: list[Measured] = field(default_factory=list)
    cache: PromptCache = field(default_factory=PromptCache)

    def __call__(self, messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        body = openai_body(messages, info)
        instructions = info.instructions or ""
        tools = count(json.dumps(body["tools"])) if body["tools"] else 0
        static, header, context = instructions.partition(CONTEXT_HEADER)
        start = _turn_start(messages)
        cached, _ = self.cache.hit(body)
        input_tokens = body_tokens(body)
        self.requests.append(
            Measured(
                conversation=self.conversation,
                role=_role(info),
                input_tokens=input_tokens,
                input_tokens_chars4=prompt_tokens(body),
                instructions_tokens=count(instructions),
                tools_tokens=tools,
                static_prefix_tokens=tools + count(static),
                context_tokens=count(header + context),
                cached_tokens=min(cached, input_tokens),
                earlier_turns_tokens=_messages_tokens(messages[:start]),
                this_turn_tokens=_messages_tokens(messages[start:]),
            )
        )
        return self.decide(messages, info)


def _turn_start(messages: list[ModelMessage]) -> int:
    """Index of the latest customer message: what comes before it is earlier turns' history."""
    start = 0
    for index, message in enumerate(messages):
        if isinstance(message, ModelRequest) and any(
            isinstance(part, UserPromptPart) for part in message.parts
        ):
            start = index
    return start


def _messages_tokens(messages: list[ModelMessage]) -> int:
    """Tokens of these messages as a Chat Completions body renders them (framing included)."""
    rendered = render_messages(messages)
    return body_tokens({"messages": rendered}) - REPLY_PRIMING if rendered else 0


def _role(info: AgentInfo) -> str:
    """The router, the specialist whose instructions these are, or the single agent."""
    if any(tool.name == "route_to" for tool in info.output_tools):
        return "router"
    instructions = info.instructions or ""
    for spec in SPECIALISTS:  # by its instructions: a step may show only some of its tools
        if instructions.startswith(spec.job):
            return spec.name
    return SINGLE


# --- the single agent ------------------------------------------------------------------------

TOOL_OWNERS = {
    "book_appointment": "booking",
    "list_my_appointments": "appointments",
    "cancel_appointment": "appointments",
    "reschedule_appointment": "appointments",
    "search_faq": "faq",
    "handoff_to_human": "handoff",
}


SINGLE_HEADER = (
    "You are the scheduling assistant of a service business. Your jobs, each with its tools:"
)


def single_instructions() -> str:
    """Every specialist's instructions merged, without routing text (the single agent has
    nowhere to route); the transfer_to_router sentences do not apply to it either."""
    jobs = "\n".join(
        f"- {spec.name} ({spec.route_hint}): {_without_transfer(spec.instructions)}"
        for spec in SPECIALISTS
    )
    return f"{SINGLE_HEADER}\n{jobs}\n{COMMON_RULES}"


def _without_transfer(instructions: str) -> str:
    sentences = instructions.split(". ")
    return ". ".join(s for s in sentences if "transfer_to_router" not in s)


def single_tools() -> list[Callable[..., Any]]:
    """Every specialist's tools, each once, in the specs' order."""
    seen: dict[str, Callable[..., Any]] = {}
    for spec in SPECIALISTS:
        for tool in spec.tools:
            seen.setdefault(tool.__name__, tool)
    return [reporting_progress(tool) for tool in seen.values()]


def single_agent_function(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
    """The offline model's behaviour for one agent holding every tool.

    With no router and no graph-held "active specialist", the model must itself work out
    which job a message belongs to, from what it is sent: a pending action in the context
    block goes to its owner; a follow-up stays with the job of the previous turn (read off
    the tools called then) unless the message clearly asks for another job; anything else is
    classified as the router would. Then the specialist's own steps run.
    """
    ctx = read_context(messages, info.instructions)
    return STEPS[_job(messages, ctx)](ctx)


def _job(messages: list[ModelMessage], ctx: Any) -> str:
    names = [spec.name for spec in SPECIALISTS]
    if ctx.pending is not None:
        owner = PENDING_OWNERS.get(str(ctx.pending.get("tool")), "")
        if owner:
            return owner
    previous = _previous_job(messages)
    if previous and not _should_escape(ctx, previous):
        return previous
    return route(ctx, names)


def _previous_job(messages: list[ModelMessage]) -> str:
    """The job of the turn before the current message, from the tools called in it."""
    prompts = [
        index
        for index, message in enumerate(messages)
        if isinstance(message, ModelRequest)
        and any(isinstance(part, UserPromptPart) for part in message.parts)
    ]
    if len(prompts) < 2:
        return ""
    called: list[list[str]] = [
        [part.tool_name for part in message.parts if isinstance(part, ToolCallPart)]
        for message in messages[prompts[-2] : prompts[-1]]
        if isinstance(message, ModelResponse)
    ]
    tools = [name for batch in called for name in batch]
    for tool in tools:
        if tool in TOOL_OWNERS:
            return TOOL_OWNERS[tool]
    if any({"list_services", "list_professionals"} <= set(batch) for batch in called):
        return "booking"  # the booking steps look both up at once
    if "check_availability" in tools:
        return "booking"
    return "discovery" if tools else ""


def build_single_graph(model: FunctionModel) -> Any:
    """prepare → one agent with every tool → remember, through the graph's own nodes."""
    agent: Agent[AgentDeps, str] = Agent(
        model,
        deps_type=AgentDeps,
        output_type=str,
        instructions=[single_instructions(), _context],
        tools=single_tools(),
        # the same compact schemas, every tool on every step; a listing the model asks to show
        # ends the run as in the routed design (a tool's feature, not routing's)
        capabilities=[*tool_capabilities(), SystemReplies(proposals=False)],
        retries=1,
        name=SINGLE,
    )
    agents = AgentSet(router=agent, specialists={SINGLE: cast(Any, agent)})
    graph: StateGraph[ChatState, TurnContext, ChatState, ChatState] = StateGraph(
        ChatState, context_schema=TurnContext
    )
    graph.add_node("prepare", _prepare)
    graph.add_node(SINGLE, _specialist_node(agents, SINGLE))
    graph.add_node("remember", _remember)
    graph.add_edge(START, "prepare")
    graph.add_edge("prepare", SINGLE)
    graph.add_edge(SINGLE, "remember")
    graph.add_edge("remember", END)
    return graph.compile()


def build_routed_graph(model: FunctionModel) -> Any:
    """The production wiring: ``build_agents`` + ``build_graph`` over every specialist."""
    return build_graph(build_agents(model, SPECIALISTS, {}, 1), SPECIALISTS)


# --- running -------------------------------------------------------------------------------------


@dataclass
class Run:
    """One design over the whole conversation set."""

    meter: Meter
    turns: int = 0
    bookings: dict[str, int] = field(default_factory=dict)
    actions: dict[str, list[str]] = field(default_factory=dict)


async def play(
    build: Callable[[FunctionModel], Any],
    decide: ModelFunction,
    conversations: tuple[Conversation, ...],
    now: datetime,
) -> Run:
    meter = Meter(decide)
    run = Run(meter)
    graph = build(FunctionModel(meter, model_name="bench-intent"))
    for number, conversation in enumerate(conversations):
        harness = Harness(graph, InMemoryCalendar(), now)
        await harness.seed()
        customer = f"55119{number:08d}"
        await prepare(harness, conversation, customer)
        meter.conversation = conversation.name
        outcome = await run_conversation(harness, conversation, customer)
        run.turns += len(conversation.turns)
        run.bookings[conversation.name] = outcome.bookings
        run.actions[conversation.name] = outcome.actions
    return run


def percentile(values: list[int], fraction: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return 0.0
    rank = fraction * (len(ordered) - 1)
    low = int(rank)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (rank - low)


def summary(run: Run, conversations: tuple[Conversation, ...]) -> dict[str, Any]:
    requests = run.meter.requests
    tokens = [r.input_tokens for r in requests]
    chars4 = [r.input_tokens_chars4 for r in requests]
    routers = sum(r.role == "router" for r in requests)
    booking_names = {c.name for c in conversations if c.kind == "booking"}
    booking_requests = [r for r in requests if r.conversation in booking_names]
    completed = sum(run.bookings[name] for name in booking_names)
    by_role: dict[str, dict[str, float]] = {}
    for role in sorted({r.role for r in requests}):
        mine = [r for r in requests if r.role == role]
        by_role[role] = {
            "requests": len(mine),
            "mean_input_tokens": round(statistics.fmean(r.input_tokens for r in mine), 1),
            "mean_instructions_tokens": round(
                statistics.fmean(r.instructions_tokens for r in mine), 1
            ),
            "mean_tools_tokens": round(statistics.fmean(r.tools_tokens for r in mine), 1),
            "mean_context_tokens": round(statistics.fmean(r.context_tokens for r in mine), 1),
            "mean_earlier_turns_tokens": round(
                statistics.fmean(r.earlier_turns_tokens for r in mine), 1
            ),
            "mean_this_turn_tokens": round(statistics.fmean(r.this_turn_tokens for r in mine), 1),
            **cache_figures(mine),
        }
    return {
        "model_requests": len(requests),
        "user_turns": run.turns,
        "input_tokens_total": sum(tokens),
        "input_tokens_per_request_mean": round(statistics.fmean(tokens), 1),
        "input_tokens_per_request_p50": round(percentile(tokens, 0.50), 1),
        "input_tokens_per_request_p95": round(percentile(tokens, 0.95), 1),
        "requests_per_user_turn": round(len(requests) / run.turns, 3),
        "input_tokens_per_user_turn": round(sum(tokens) / run.turns, 1),
        "input_tokens_per_user_turn_chars4": round(sum(chars4) / run.turns, 1),
        "router_requests_per_user_turn": round(routers / run.turns, 3),
        "static_prefix_share": round(
            sum(r.static_prefix_tokens for r in requests) / max(1, sum(tokens)), 3
        ),
        **cache_figures(requests),
        "completed_bookings": sum(run.bookings.values()),
        "requests_per_completed_booking": (
            round(len(booking_requests) / completed, 3) if completed else None
        ),
        "input_tokens_per_completed_booking": (
            round(sum(r.input_tokens for r in booking_requests) / completed, 1)
            if completed
            else None
        ),
        "billed_equivalent_tokens_per_completed_booking": (
            round(
                sum(billed(r.input_tokens, r.cached_tokens) for r in booking_requests) / completed,
                1,
            )
            if completed
            else None
        ),
        "billed_equivalent_tokens_per_completed_booking_openai": (
            round(
                sum(
                    billed(r.input_tokens, openai_cached(r.cached_tokens)) for r in booking_requests
                )
                / completed,
                1,
            )
            if completed
            else None
        ),
        "input_tokens_per_user_turn_by_origin": by_origin(requests, run.turns),
        "by_role": by_role,
    }


def cache_figures(requests: list[Measured]) -> dict[str, float]:
    """Share of input tokens a prefix cache serves (``bench.prompt_cache``: ideal, and under
    OpenAI's 1,024-token minimum), and billed-equivalent tokens per request at the cached price."""
    total = max(1, sum(r.input_tokens for r in requests))
    cached = sum(r.cached_tokens for r in requests)
    openai = sum(openai_cached(r.cached_tokens) for r in requests)
    return {
        "cacheable_prefix_share": round(cached / total, 3),
        "cacheable_prefix_share_openai": round(openai / total, 3),
        "billed_equivalent_tokens_per_request": round(
            sum(billed(r.input_tokens, r.cached_tokens) for r in requests) / max(1, len(requests)),
            1,
        ),
    }


def by_origin(requests: list[Measured], turns: int) -> dict[str, float]:
    """Where a user turn's input tokens come from: the stable instructions, the per-turn
    context block, the tool schemas, earlier turns' kept messages, and this turn's own
    messages (the customer's message, tool calls and returns); the rest is message framing."""
    parts = {
        "instructions": sum(r.instructions_tokens - r.context_tokens for r in requests),
        "context_block": sum(r.context_tokens for r in requests),
        "tool_schemas": sum(r.tools_tokens for r in requests),
        "earlier_turns": sum(r.earlier_turns_tokens for r in requests),
        "this_turn": sum(r.this_turn_tokens for r in requests),
    }
    parts["framing"] = sum(r.input_tokens for r in requests) - sum(parts.values())
    return {name: round(value / max(1, turns), 1) for name, value in parts.items()}


async def measure(quick: bool = False) -> dict[str, Any]:
    conversations = (
        tuple(c for c in CONVERSATIONS if c.name in QUICK_CONVERSATIONS) if quick else CONVERSATIONS
    )
    now = assistant_now()
    routed = await play(build_routed_graph, offline_model_function, conversations, now)
    single = await play(build_single_graph, single_agent_function, conversations, now)
    routed_figures = summary(routed, conversations)
    single_figures = summary(single, conversations)
    reduction = 1 - (
        routed_figures["input_tokens_per_user_turn"] / single_figures["input_tokens_per_user_turn"]
    )
    differing = sorted(
        name for name in routed.actions if routed.actions[name] != single.actions[name]
    )
    missed = sorted(c.name for c in conversations if routed.bookings[c.name] != c.bookings_expected)
    routed_per_booking = routed_figures["requests_per_completed_booking"]
    single_per_booking = single_figures["requests_per_completed_booking"]
    return {
        "input_token_reduction": round(reduction, 4),
        "goal_input_token_reduction": GOAL_REDUCTION,
        "goal_met_tokens": reduction >= GOAL_REDUCTION,
        "goal_met_requests_per_booking": (
            routed_per_booking is not None
            and single_per_booking is not None
            and routed_per_booking <= single_per_booking
        ),
        "input_tokens_per_user_turn_reduction_chars4": round(
            1
            - routed_figures["input_tokens_per_user_turn_chars4"]
            / single_figures["input_tokens_per_user_turn_chars4"],
            4,
        ),
        "input_tokens_per_request_reduction": round(
            1
            - routed_figures["input_tokens_per_request_mean"]
            / single_figures["input_tokens_per_request_mean"],
            4,
        ),
        "conversations": len(conversations),
        "conversations_pt": sum(c.language == "pt" for c in conversations),
        "conversations_en": sum(c.language == "en" for c in conversations),
        "token_count": "tiktoken cl100k_base (offline) of the OpenAI Chat Completions body "
        "(system + messages + tool JSON schemas); *_chars4 = chars/4 for comparison",
        "prompt_cache": ASSUMPTION,
        **prefixed("routed", routed_figures),
        **prefixed("single_agent", single_figures),
        "outcomes_differ": differing,
        "bookings_not_as_scripted": missed,
    }


def prefixed(prefix: str, figures: dict[str, Any]) -> dict[str, Any]:
    """One level flattened (``prefix.key``), so the Markdown table gets a row per figure."""
    return {f"{prefix}.{key}": value for key, value in figures.items()}


def run(quick: bool = False) -> dict[str, Any]:
    configure_logging("WARNING")  # one model_usage info line per agent run otherwise
    return asyncio.run(measure(quick))


if __name__ == "__main__":
    sys.stdout.write(json.dumps(run(quick="--quick" in sys.argv[1:]), indent=2) + "\n")
