"""Pydantic AI agents for the router and each specialist, built from their specs."""

from __future__ import annotations

import copy
import functools
import inspect
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import BaseModel, Field, GetJsonSchemaHandler, create_model
from pydantic.json_schema import JsonSchemaValue
from pydantic_ai import Agent, RunContext, SkipModelRequest, Tool, ToolOutput
from pydantic_ai.capabilities import AbstractCapability
from pydantic_ai.messages import ModelResponse, TextPart
from pydantic_ai.models import Model, ModelRequestContext
from pydantic_ai.settings import ModelSettings
from pydantic_ai.tools import ToolDefinition
from pydantic_core import CoreSchema

from agent_service.application.engine import ProgressEvent
from agent_service.infrastructure.agent.consent import HANDED_OFF_REFUSAL
from agent_service.infrastructure.agent.deps import AgentDeps
from agent_service.infrastructure.agent.grounded import grounded_output
from agent_service.infrastructure.agent.listings import shown_reply
from agent_service.infrastructure.agent.prompts import context_block, router_instructions
from agent_service.infrastructure.agent.specialists import Specialist, instructions_for
from agent_service.infrastructure.agent.streaming import StreamedReply, model_streams
from agent_service.infrastructure.agent.tools.schemas import ToolGate, compact_schema, one_line
from agent_service.infrastructure.agent.usage import MeteredModel

ROUTE_TOOL = "route_to"
ESCAPE_TOOL = "transfer_to_router"


class CompactSchema(BaseModel):
    """An output type whose JSON schema is already compact (``tools.schemas.compact_schema``)
    when the agent is built, so no capability has to compact it again on every request."""

    @classmethod
    def __get_pydantic_json_schema__(
        cls, core_schema: CoreSchema, handler: GetJsonSchemaHandler
    ) -> JsonSchemaValue:
        schema = handler.resolve_ref_schema(handler(core_schema))
        compact = compact_schema(schema)
        if "description" in schema:  # the output tool's description (compact keeps it apart)
            compact["description"] = one_line(schema["description"])
        schema.clear()
        schema.update(compact)
        return schema


class Escape(CompactSchema):
    """The customer asked for something outside this specialist's job."""

    reason: str = Field(description="What the customer wants, in a few words.")


@dataclass(frozen=True, slots=True)
class AgentSet:
    """The router and one agent per enabled specialist; ``streaming`` the same specialists
    streaming their responses (streaming.py), when the model streams; ``writes`` are the
    write and handoff tools as the agents call them, for the runs made in code (confirm.py),
    and ``model`` the model those calls' run context names."""

    router: Agent[AgentDeps, Any]
    specialists: dict[str, Agent[AgentDeps, str | Escape]]
    writes: dict[str, Tool[AgentDeps]] = field(default_factory=dict)
    model: Model | None = None
    streaming: dict[str, Agent[AgentDeps, str | Escape]] = field(default_factory=dict)

    def specialist(self, name: str, *, streams_text: bool) -> Agent[AgentDeps, str | Escape]:
        """``name``'s agent for a turn: the streaming one only when the turn's text reaches a
        caller (``engine.takes_text``). Streaming costs CPU on every step of a run (an event
        per chunk, the capability's checks), and a reply nobody receives streamed is the
        same reply asked for whole."""
        plain = self.specialists[name]
        return self.streaming.get(name, plain) if streams_text else plain


IN_CODE_TOOLS = frozenset(
    {"book_appointment", "cancel_appointment", "reschedule_appointment", "handoff_to_human"}
)


def route_decision_type(names: Sequence[str]) -> type[BaseModel]:
    """``RouteDecision`` whose ``specialist`` may only name an enabled specialist."""
    choice: Any = Literal[tuple(names)]
    return create_model(
        "RouteDecision",
        __base__=CompactSchema,
        specialist=(choice, Field(description="The specialist that should answer.")),
        __doc__="Which specialist answers the customer's message.",
    )


def build_agents(
    model: Model, specialists: Sequence[Specialist], settings: ModelSettings, retries: int
) -> AgentSet:
    """Agents are built once at start-up; per-turn data reaches them through ``AgentDeps``."""
    names = [s.name for s in specialists]
    model = MeteredModel(model)
    router: Agent[AgentDeps, Any] = Agent(
        model,
        deps_type=AgentDeps,
        output_type=ToolOutput(route_decision_type(names), name=ROUTE_TOOL),
        instructions=[router_instructions(specialists), _context],
        model_settings=settings,
        retries=retries,
        name="router",
    )
    agents = {s.name: _specialist_agent(model, s, settings, retries) for s in specialists}
    streaming = (
        {s.name: _specialist_agent(model, s, settings, retries, streams=True) for s in specialists}
        if model_streams(model)
        else {}
    )
    writes = {
        t.__name__: built_tool(t)
        for s in specialists
        for t in s.tools
        if t.__name__ in IN_CODE_TOOLS
    }
    return AgentSet(router, agents, writes, model, streaming)


def _specialist_agent(
    model: Model, spec: Specialist, settings: ModelSettings, retries: int, streams: bool = False
) -> Agent[AgentDeps, str | Escape]:
    reads_only = not IN_CODE_TOOLS.intersection(t.__name__ for t in spec.tools)
    streamed = [StreamedReply(mid_response=reads_only)] if streams else []
    agent: Agent[AgentDeps, str | Escape] = Agent(
        model,
        deps_type=AgentDeps,
        output_type=[str, ToolOutput(Escape, name=ESCAPE_TOOL)],
        instructions=[instructions_for(spec), _context],
        tools=gated(spec.tool_gate, [built_tool(t) for t in spec.tools]),
        capabilities=[*system_replies(spec), *streamed],
        model_settings=settings,
        retries=retries,
        name=spec.name,
    )
    agent.output_validator(grounded_output)  # an ungrounded reply goes back to the model once
    return agent


def built_tool(function: Callable[..., Awaitable[Any]]) -> Tool[AgentDeps]:
    """``function`` as a compact tool that reports progress: a copy of the one made per
    process, whose schema (pydantic's JSON schema generation, most of the cost of building the
    agents) is made once; a copy because an agent's toolset sets its own retries and metadata
    on it, and :func:`gated` its own ``prepare``."""
    return copy.copy(_built_once(function))


@functools.cache
def _built_once(function: Callable[..., Awaitable[Any]]) -> Tool[AgentDeps]:
    return compact_tool(reporting_progress(function))


def compact_tool(function: Callable[..., Awaitable[str]]) -> Tool[AgentDeps]:
    """A tool whose definition is what ``tools.schemas.compact`` makes of it — one-line
    description, compact parameter schema (arguments are still validated against the
    function's signature) — compacted once here rather than by a capability on every request:
    each capability adds a hook layer and a run-context copy to every step of every run."""
    tool: Tool[AgentDeps] = Tool(function)
    if tool.description:
        tool.description = one_line(tool.description)
    tool.function_schema.json_schema = compact_schema(tool.function_schema.json_schema)
    return tool


def gated(gate: ToolGate | None, tools: list[Tool[AgentDeps]]) -> list[Tool[AgentDeps]]:
    """``tools``, each offered on a request only when the specialist's step ``gate`` keeps it
    (the gate reads the run context and tool names, which are fixed once the tools are built).
    Each tool's own ``prepare`` asks the gate: no capability, whose hooks would wrap every step
    of every run, is needed for it."""
    if gate is None:
        return tools
    definitions = [tool.tool_def for tool in tools]

    async def offered(ctx: RunContext[AgentDeps], tool: ToolDefinition) -> ToolDefinition | None:
        return tool if any(kept.name == tool.name for kept in gate(ctx, definitions)) else None

    for tool in tools:
        tool.prepare = offered
    return tools


SHOW = "show_customer"
"""The argument with which a read tool's result is shown as the reply (listings.py)."""


@dataclass
class SystemReplies(AbstractCapability[AgentDeps]):
    """Replies the system renders itself: they end the run with no model request
    (``SkipModelRequest``), so the model spends no request on a reply the system would render
    anyway, and writes nothing beside it. One capability (each one adds a hook layer to every
    step of every run), for the specialists with a listing tool or a write:

    * **a proposal ends the run** (``proposals``): once a write tool recorded a proposal in
      this turn, the run ends with the system's own confirmation question;
    * **a listing ends the run when the model asks for it**: once a read tool was called with
      ``show_customer``, the run ends with the system's words for what it returned
      (listings.py); when none of it is a listing (a refusal, a failure), the model answers
      as usual, with the results in front of it.
    """

    proposals: bool = True

    @classmethod
    def get_serialization_name(cls) -> str | None:
        return None

    async def before_run(self, ctx: RunContext[AgentDeps]) -> None:
        ctx.deps.turn.shown.clear()  # what an earlier run of the turn was asked to show

    async def before_model_request(
        self, ctx: RunContext[AgentDeps], request_context: ModelRequestContext
    ) -> ModelRequestContext:
        turn = ctx.deps.turn
        if self.proposals and turn.proposed and turn.pending is not None:
            raise SkipModelRequest(ModelResponse(parts=[TextPart(turn.pending.question)]))
        if turn.shown:
            shown, turn.shown = turn.shown, []
            reply = shown_reply(shown, turn.language)
            if reply is not None:
                turn.system_text = reply
                raise SkipModelRequest(ModelResponse(parts=[TextPart(reply)]))
        return request_context


@dataclass
class WriteSteps(SystemReplies):
    """``SystemReplies`` of a specialist with writes, and its output tools per step
    (``gate``: the confirm step gets no escape, tools/steps.py)."""

    gate: ToolGate | None = None

    async def prepare_output_tools(
        self, ctx: RunContext[AgentDeps], tool_defs: list[ToolDefinition]
    ) -> list[ToolDefinition]:
        return tool_defs if self.gate is None else self.gate(ctx, tool_defs)


def system_replies(spec: Specialist) -> list[AbstractCapability[AgentDeps]]:
    """``WriteSteps`` for a specialist with a step gate (those with writes), ``SystemReplies``
    for one with a listing tool, else none."""
    if spec.output_gate is not None:
        return [WriteSteps(gate=spec.output_gate)]
    if any(SHOW in inspect.signature(tool).parameters for tool in spec.tools):
        return [SystemReplies()]
    return []


def reporting_progress(tool: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
    """The same tool (signature and docstring kept for the schema) announcing itself to a
    streaming caller before it runs; once the turn handed off to a human, no tool runs."""

    @functools.wraps(tool)
    async def run(ctx: RunContext[AgentDeps], *args: Any, **kwargs: Any) -> Any:
        if ctx.deps.turn.handoff_reason is not None:
            return HANDED_OFF_REFUSAL
        if ctx.deps.turn.progress is not None:
            await ctx.deps.turn.progress(ProgressEvent(progress=f"tool:{tool.__name__}"))
        return await tool(ctx, *args, **kwargs)

    return run


async def _context(ctx: RunContext[AgentDeps]) -> str:
    """Per-request context. A coroutine on purpose: Pydantic AI sends a plain function to a
    worker thread on every request, a thread hop that costs more CPU than building the text."""
    return context_block(ctx.deps)
