"""Handing the conversation to a human."""

from __future__ import annotations

from pydantic_ai import RunContext

from agent_service.domain.conversations import ActionKind, TurnAction
from agent_service.infrastructure.agent.deps import AgentDeps
from agent_service.infrastructure.agent.tools.results import HandedOff


async def handoff_to_human(ctx: RunContext[AgentDeps], reason: str) -> HandedOff:
    """Hand the conversation to a human attendant.

    Args:
        reason: Why, in one short sentence for the attendant.
    """
    turn = ctx.deps.turn
    turn.handoff_reason = reason.strip()[:500] or "customer asked for a human"
    turn.actions.append(TurnAction(kind=ActionKind.HANDED_OFF, detail=turn.handoff_reason))
    return HandedOff(note="A human attendant will continue this conversation.")
