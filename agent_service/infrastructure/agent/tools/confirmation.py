"""The confirmation turn: no booking, reschedule or cancel without the customer's "yes".

The rules live in :mod:`agent_service.infrastructure.agent.consent`; the tools call them
through :func:`gate`, which turns the gate's answer into a structured result.
"""

from __future__ import annotations

from collections.abc import Sequence

from agent_service.infrastructure.agent.consent import (
    MAX_WRITES_PER_TURN,
    QUESTION_OPEN,
    TURNED_DOWN,
    Proposal,
    confirmation_gate,
)
from agent_service.infrastructure.agent.deps import AgentDeps
from agent_service.infrastructure.agent.tools.results import Failed, Proposed, VisitItem

__all__ = ["MAX_WRITES_PER_TURN", "Proposal", "confirmation_gate", "gate"]


def gate(
    deps: AgentDeps,
    tool: str,
    arguments: dict[str, str],
    proposal: Proposal,
    items: Sequence[VisitItem] = (),
) -> Proposed | Failed | None:
    """None when the write may run now; else the result for the model: the proposal just
    recorded (``CONFIRMATION_NEEDED``, the gate's instruction as its note) or why nothing
    may be done now (``NOT_DONE``)."""
    blocked = confirmation_gate(deps, tool, arguments, proposal)
    if blocked is None:
        return None
    pending = deps.turn.pending
    recorded = (
        pending is not None
        and not pending.confirmed
        and pending.tool == tool
        and pending.arguments == arguments
    )
    if recorded:
        return Proposed(summary=proposal.what, items=list(items), note=blocked)
    if blocked.startswith(TURNED_DOWN):
        reason = "turned_down"
    elif blocked.startswith(QUESTION_OPEN):
        reason = "question_open"  # the system asks the open question itself: nothing to say
    else:
        reason = "not_done"
    return Failed(result="NOT_DONE", reason=reason, note=blocked)
