"""Tools gated by the task's step (routed specialists only): a request carries the schemas of
the tools its step can use, and a gate is open whenever the customer could need the tool.

* Confirming: the customer said yes to a proposed write (decided in code, see consent.py),
  so the step is that one call, with the arguments the context's pending action carries.
  Made, it stays the only tool for the reply (one change per message; anything else the
  customer asked goes back to the router); not made (taken, refused, failed), every tool is
  back, to offer other times.
* Appointments: cancelling and moving need an upcoming appointment of the customer (the same
  selection ``list_my_appointments`` and the context's memory read); with none and nothing
  pending, only ``list_my_appointments`` is sent (it says there are none).
"""

from __future__ import annotations

from pydantic_ai import RunContext
from pydantic_ai.messages import ModelMessage, ModelRequest, ToolReturnPart, UserPromptPart
from pydantic_ai.tools import ToolDefinition

from agent_service.domain.conversations import ActionKind
from agent_service.infrastructure.agent.deps import AgentDeps

LISTING = "list_my_appointments"
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


def confirming(ctx: RunContext[AgentDeps], tool_defs: list[ToolDefinition]) -> str | None:
    """The write the customer just confirmed, until it ran — and after, when it was made."""
    names = {tool.name for tool in tool_defs}
    pending = ctx.deps.turn.pending
    confirmed = pending is not None and pending.confirmed and pending.tool in names
    if pending is not None and confirmed and not returned_this_run(ctx.messages, pending.tool):
        return pending.tool
    if any(action.kind in WRITTEN for action in ctx.deps.turn.actions):
        for tool in sorted(WRITE_TOOLS & names):
            if returned_this_run(ctx.messages, tool):
                return tool
    return None  # no confirm step, or the write was not made (taken, refused, failed)


def booking_tools(
    ctx: RunContext[AgentDeps], tool_defs: list[ToolDefinition]
) -> list[ToolDefinition]:
    write = confirming(ctx, tool_defs)
    return tool_defs if write is None else [tool for tool in tool_defs if tool.name == write]


def appointments_tools(
    ctx: RunContext[AgentDeps], tool_defs: list[ToolDefinition]
) -> list[ToolDefinition]:
    write = confirming(ctx, tool_defs)
    if write is not None:
        return [tool for tool in tool_defs if tool.name == write]
    if ctx.deps.turn.pending is not None or ctx.deps.turn.upcoming:
        return tool_defs
    return [tool for tool in tool_defs if tool.name == LISTING]
