"""The confirmation turn: no booking, reschedule or cancel without the customer's "yes".

Enforced here, not by the prompt: a write tool first records a ``PendingAction`` and returns
a question; only when the customer's NEXT message is affirmative (the graph sets
``confirmed``) and the model calls the same tool with the same arguments does it run.
At most one write runs per turn, so a looping model cannot book twice.
"""

from __future__ import annotations

from agent_service.infrastructure.agent.deps import AgentDeps, PendingAction

MAX_WRITES_PER_TURN = 1


def confirmation_gate(
    deps: AgentDeps, tool: str, arguments: dict[str, str], summary: str
) -> str | None:
    """None when the action may run now; otherwise the text to return to the model."""
    turn = deps.turn
    if turn.writes_this_turn >= MAX_WRITES_PER_TURN:
        return "NOT DONE: only one change per message. Tell the customer what was done."
    pending = turn.pending
    if pending and pending.tool == tool and pending.arguments == arguments and pending.confirmed:
        turn.pending = None
        turn.writes_this_turn += 1
        return None
    turn.pending = PendingAction(tool, arguments, summary)
    return (
        f"CONFIRMATION NEEDED: {summary}. Nothing has been changed yet. Ask the customer to "
        f"confirm (yes/no); when they confirm, call {tool} again with exactly the same arguments."
    )
