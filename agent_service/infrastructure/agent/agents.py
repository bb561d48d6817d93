"""Pydantic AI agents for the router and each specialist, built from their specs."""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, Field, GetJsonSchemaHandler, create_model
from pydantic.json_schema import JsonSchemaValue
from pydantic_ai import Agent, RunContext, Tool, ToolOutput
from pydantic_ai.capabilities import AbstractCapability, PrepareOutputTools
from pydantic_ai.models import Model
from pydantic_ai.settings import ModelSettings
from pydantic_ai.tools import ToolDefinition
from pydantic_core import CoreSchema

from agent_service.application.engine import ProgressEvent
from agent_service.infrastructure.agent.consent import HANDED_OFF_REFUSAL
from agent_service.infrastructure.agent.deps import AgentDeps
from agent_service.infrastructure.agent.prompts import context_block, router_instructions
from agent_service.infrastructure.agent.specialists import Specialist, instructions_for
from agent_service.infrastructure.agent.tools.results import result_text
from agent_service.infrastructure.agent.tools.schemas import ToolGate, compact_schema, one_line
from agent_service.infrastructure.agent.usage import MeteredModel

READ_TOOLS = frozenset(
    {
        "list_services",
        "list_professionals",
        "check_availability",
        "list_my_appointments",
        "search_faq",
    }
)
"""Tools whose results are stored data: the reply may quote them (see truth.py)."""
MAX_READ_TEXT = 20_000
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
    """The router and one agent per enabled specialist."""

    router: Agent[AgentDeps, Any]
    specialists: dict[str, Agent[AgentDeps, str | Escape]]


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
    return AgentSet(router, agents)


def _specialist_agent(
    model: Model, spec: Specialist, settings: ModelSettings, retries: int
) -> Agent[AgentDeps, str | Escape]:
    return Agent(
        model,
        deps_type=AgentDeps,
        output_type=[str, ToolOutput(Escape, name=ESCAPE_TOOL)],
        instructions=[instructions_for(spec), _context],
        tools=gated(spec.tool_gate, [compact_tool(reporting_progress(t)) for t in spec.tools]),
        capabilities=output_gating(spec.output_gate),
        model_settings=settings,
        retries=retries,
        name=spec.name,
    )


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


def output_gating(gate: ToolGate | None) -> list[AbstractCapability[AgentDeps]]:
    """The step's output tools (the confirm step gets no escape, see tools/steps.py). Output
    tools have no ``prepare`` of their own, so this one is a capability — only on the
    specialists that have such a gate (those with writes)."""
    if gate is None:
        return []

    def prepare_outputs(
        ctx: RunContext[AgentDeps], tool_defs: list[ToolDefinition]
    ) -> list[ToolDefinition]:
        return gate(ctx, tool_defs)

    return [PrepareOutputTools(prepare_outputs)]


def reporting_progress(tool: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
    """The same tool (signature and docstring kept for the schema) announcing itself to a
    streaming caller before it runs; once the turn handed off to a human, no tool runs."""

    @functools.wraps(tool)
    async def run(ctx: RunContext[AgentDeps], *args: Any, **kwargs: Any) -> Any:
        if ctx.deps.turn.handoff_reason is not None:
            return HANDED_OFF_REFUSAL
        if ctx.deps.turn.progress is not None:
            await ctx.deps.turn.progress(ProgressEvent(progress=f"tool:{tool.__name__}"))
        result = await tool(ctx, *args, **kwargs)
        if tool.__name__ in READ_TOOLS:
            ctx.deps.turn.read_texts.append(result_text(result)[:MAX_READ_TEXT])
        return result

    return run


async def _context(ctx: RunContext[AgentDeps]) -> str:
    """Per-request context. A coroutine on purpose: Pydantic AI sends a plain function to a
    worker thread on every request, a thread hop that costs more CPU than building the text."""
    return context_block(ctx.deps)
