"""Tools gated by the task's step (routed specialists only): a request carries the schemas of
the tools its step can use, and a gate is open whenever the customer could need the tool.

* Confirming: the customer said yes to a proposed write (decided in code, see consent.py),
  so the step is that one call, with the arguments the context's pending action carries.
  Made, it stays the only tool for the reply (one change per message; anything else the
  customer asked goes back to the router); not made (taken, refused, failed), every tool is
  back, to offer other times.
  Nothing else was asked (a plain yes, decided in code), so the step sends no escape
  (``confirm_outputs``: the reply is text) and its instructions leave the escape rule out.
* Proposed: the write was proposed during this run (its result asks for the customer's yes,
  which the system asks in code): the reply is all that is left, so the proposed write is the
  only tool (called again it only records the same proposal); the step's instructions are
  short too (specialists.py).
* Otherwise a step is sent every tool of its specialist, in the same order, on every request
  of the run: a provider's prompt cache serves a request's prefix only while the tool schemas
  are identical, so a tool withdrawn mid-run (a listing that already returned, as an earlier
  version did) would make the next request's whole prefix — tools, instructions and the run so
  far — uncached to save one schema (bench/prompt_cache.py measures it).
* Appointments: cancelling and moving need an upcoming appointment of the customer (the same
  selection ``list_my_appointments`` and the context's memory read); with none and nothing
  pending, only ``list_my_appointments`` is sent (it says there are none).
"""

from __future__ import annotations

from collections.abc import Collection

from pydantic_ai import RunContext
from pydantic_ai.messages import ModelMessage, ModelRequest, ToolReturnPart, UserPromptPart
from pydantic_ai.tools import ToolDefinition

from agent_service.domain.conversations import ActionKind
from agent_service.infrastructure.agent.deps import AgentDeps
from agent_service.infrastructure.agent.tools.results import result_code
from agent_service.infrastructure.agent.tools.schemas import ToolGate

LISTING = "list_my_appointments"
PROPOSAL = "CONFIRMATION_NEEDED"
"""The ``result`` of a write tool that only recorded the proposal (tools/results.py)."""
WRITE_TOOLS = frozenset({"book_appointment", "cancel_appointment", "reschedule_appointment"})
WRITTEN = frozenset(
    {
        ActionKind.APPOINTMENT_BOOKED,
        ActionKind.APPOINTMENT_CANCELLED,
        ActionKind.APPOINTMENT_RESCHEDULED,
        ActionKind.APPOINTMENT_PENDING,
    }
)
"""The confirmed write was made (or is settling): one change per message, nothing else to
call; the reply follows (and anything else the customer asked goes back to the router)."""


def returned_this_run(messages: list[ModelMessage], tool: str) -> bool:
    """Whether ``tool`` returned after the latest customer message."""
    start = 0
    for index, message in enumerate(messages):
        if isinstance(message, ModelRequest) and any(
            isinstance(part, UserPromptPart) for part in message.parts
        ):
            start = index
    return any(
        isinstance(part, ToolReturnPart) and part.tool_name == tool
        for message in messages[start:]
        if isinstance(message, ModelRequest)
        for part in message.parts
    )


def latest_return_this_run(messages: list[ModelMessage], tool: str) -> str | None:
    """The ``result`` code ``tool`` last returned after the latest customer message (its
    text for an unstructured return), if it ran."""
    for message in reversed(messages):
        if not isinstance(message, ModelRequest):
            continue
        for part in reversed(message.parts):
            if isinstance(part, ToolReturnPart) and part.tool_name == tool:
                return result_code(part.content) or part.model_response_str()
            if isinstance(part, UserPromptPart):
                return None
    return None


def confirming(ctx: RunContext[AgentDeps], names: Collection[str]) -> str | None:
    """The write the customer just confirmed, until it ran — and after, when it was made."""
    pending = ctx.deps.turn.pending
    confirmed = pending is not None and pending.confirmed and pending.tool in names
    if pending is not None and confirmed and not returned_this_run(ctx.messages, pending.tool):
        return pending.tool
    if any(action.kind in WRITTEN for action in ctx.deps.turn.actions):
        for tool in sorted(WRITE_TOOLS.intersection(names)):
            if returned_this_run(ctx.messages, tool):
                return tool
    return None  # no confirm step, or the write was not made (taken, refused, failed)


def proposed(ctx: RunContext[AgentDeps], names: Collection[str]) -> str | None:
    """The write proposed during this run and awaiting the customer's yes (asked in code)."""
    pending = ctx.deps.turn.pending
    if pending is None or pending.confirmed or pending.tool not in names:
        return None
    result = latest_return_this_run(ctx.messages, pending.tool)
    return pending.tool if result == PROPOSAL else None


def write_step(ctx: RunContext[AgentDeps], names: Collection[str]) -> str | None:
    """The write a confirm or proposed step is about (the only tool it needs), if any."""
    return confirming(ctx, names) or proposed(ctx, names)


def _names(tool_defs: list[ToolDefinition]) -> set[str]:
    return {tool.name for tool in tool_defs}


def booking_tools(
    ctx: RunContext[AgentDeps], tool_defs: list[ToolDefinition]
) -> list[ToolDefinition]:
    write = write_step(ctx, _names(tool_defs))
    if write is not None:
        return [tool for tool in tool_defs if tool.name == write]
    return tool_defs


def appointments_tools(
    ctx: RunContext[AgentDeps], tool_defs: list[ToolDefinition]
) -> list[ToolDefinition]:
    write = write_step(ctx, _names(tool_defs))
    if write is not None:
        return [tool for tool in tool_defs if tool.name == write]
    if ctx.deps.turn.pending is not None or ctx.deps.turn.upcoming:
        return tool_defs
    return [tool for tool in tool_defs if tool.name == LISTING]  # it says there are none


def confirm_outputs(names: Collection[str]) -> ToolGate:
    """Output tools (the escape to the router) of a specialist with the write tools ``names``:
    none while it confirms a plain yes (nothing else was asked); all on any other step."""
    tools = frozenset(names)

    def gate(ctx: RunContext[AgentDeps], tool_defs: list[ToolDefinition]) -> list[ToolDefinition]:
        return [] if confirming(ctx, tools) is not None else tool_defs

    return gate
