"""The turn's reply is never the previous reply again (``application/repetition.py``): the
escalation's sentences come from the message catalog, the earlier replies from the stored
conversation, and the system's own lines (receipts, the confirmation question) stay last."""

from __future__ import annotations

from agent_service.application.repetition import Escalation, vary
from agent_service.domain.conversations import Conversation, Role
from agent_service.infrastructure.agent import messages
from agent_service.infrastructure.agent.deps import AgentDeps, PendingAction
from agent_service.infrastructure.agent.truth import receipts


def escalation(language: str) -> Escalation:
    return Escalation(
        rephrase=messages.text("repeat_rephrase", language),
        choices=messages.text("repeat_choices", language),
        human=messages.text("repeat_human", language),
    )


def not_repeated(
    deps: AgentDeps,
    conversation: Conversation,
    reply: str,
    pending: PendingAction | None,
    max_chars: int | None = None,
) -> str:
    earlier = [m.text for m in reversed(conversation.messages) if m.role is Role.ASSISTANT]
    system = receipts(deps) + ([pending.question] if pending is not None else [])
    return vary(reply, earlier, escalation(deps.turn.language), "\n\n".join(system), max_chars)
