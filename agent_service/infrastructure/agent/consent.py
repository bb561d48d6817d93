"""Consent: the customer agrees to exactly what happens.

Rules (enforced in code, whatever the model does):

* A write tool's first call records a ``PendingAction`` and the SYSTEM renders its question
  (:func:`render_question`) from the action itself; the reply ends with that question.
* The pending action lives for one answer: only the customer's very next message can confirm
  it, only if that message is a plain yes (:func:`is_plain_yes`: affirmative, short, no change
  request such as "sim, mas às 15h", no question, no date or time), and only within the time
  to live. A no declines it; any other message, a handoff, a hand-back or the end clears it.
* At most one write per turn; after a handoff nothing else runs in that turn.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from uuid import UUID

from agent_service.application.text import normalize
from agent_service.domain.conversations import ActionKind, PendingConfirmation, TurnAction
from agent_service.infrastructure.agent import messages
from agent_service.infrastructure.agent.deps import AgentDeps, PendingAction
from agent_service.infrastructure.agent.offline.intents import is_affirmative, is_negative
from agent_service.infrastructure.agent.offline.when import has_when_mention

MAX_WRITES_PER_TURN = 1
MAX_PLAIN_YES_CHARS = 60
_CHANGE = re.compile(
    r"(?<![a-z0-9])(?:mas|porem|so que|entretanto|contudo|exceto|menos|em vez|ao inves|troca\w*"
    r"|mud\w*|outr[oa]s?|altera\w*|but|however|except|instead|rather|change|another|other"
    r"|different|only if|se )(?![a-z0-9])"
)
_QUESTIONS = {
    ActionKind.APPOINTMENT_BOOKED: "question_book",
    ActionKind.APPOINTMENT_CANCELLED: "question_cancel",
    ActionKind.APPOINTMENT_RESCHEDULED: "question_reschedule",
}
HANDED_OFF_REFUSAL = (
    "NOT DONE: the conversation was handed to a human attendant; nothing else runs now. "
    "Do not call any tool; just tell the customer a person will answer."
)


@dataclass(frozen=True, slots=True)
class Proposal:
    """A write a tool wants to make, described for the customer.

    ``what`` is the full description in the conversation's language (service, professional,
    local weekday, date and time, price; old → new for a reschedule); ``details`` feed the
    structured ``PendingAction`` of the response.
    """

    kind: ActionKind
    what: str
    details: dict[str, str] = field(default_factory=dict)


def is_plain_yes(text: str) -> bool:
    """A yes that is only a yes: affirmative, short, and no new request inside it."""
    if "?" in text or not is_affirmative(text):
        return False
    folded = normalize(text)
    if len(folded) > MAX_PLAIN_YES_CHARS or any(char.isdigit() for char in folded):
        return False
    return not (_CHANGE.search(folded) or has_when_mention(text))


def render_question(kind: ActionKind, what: str, language: str) -> str:
    return messages.text(_QUESTIONS[kind], language, what=what)


def confirmation_gate(
    deps: AgentDeps, tool: str, arguments: dict[str, str], proposal: Proposal
) -> str | None:
    """None when the write may run now; otherwise the tool result for the model."""
    turn = deps.turn
    if turn.handoff_reason is not None:
        return HANDED_OFF_REFUSAL
    if turn.writes_this_turn >= MAX_WRITES_PER_TURN:
        return "NOT DONE: only one change per message. Tell the customer what was done."
    pending = turn.pending
    if pending and pending.confirmed and pending.tool == tool and pending.arguments == arguments:
        turn.pending = None
        turn.writes_this_turn += 1
        return None
    question = render_question(proposal.kind, proposal.what, turn.language)
    turn.pending = PendingAction(
        tool,
        arguments,
        proposal.what,
        kind=proposal.kind.value,
        question=question,
        details=dict(proposal.details),
        proposed_at=turn.now.isoformat(),
    )
    return (
        f"CONFIRMATION NEEDED: {proposal.what}. Nothing has been changed yet. The system ends "
        f"your reply with its own confirmation question; do not ask it yourself and never "
        f"say it is done. If the customer's next message is a plain yes, call {tool} again "
        f"with exactly the same arguments."
    )


def decide_pending(deps: AgentDeps, stored: PendingAction | None, message: str) -> None:
    """At the start of a turn: the stored pending action is confirmed (plain yes within the
    time to live), declined (a no), or dropped (anything else). Never carried further."""
    turn = deps.turn
    turn.pending = None
    if stored is None or stored.confirmed:
        return
    if is_negative(message):
        appointment = stored.details.get("appointment_id")
        turn.actions.append(
            TurnAction(
                kind=ActionKind.CHANGE_DECLINED,
                appointment_id=UUID(appointment) if appointment else None,
                detail=stored.summary,
            )
        )
        return
    if not _alive(stored, turn.now, turn.confirmation_ttl_seconds):
        if is_affirmative(message):
            turn.expired = stored  # the customer is told: that yes came too late
        return
    if is_plain_yes(message):
        stored.confirmed = True
        turn.pending = stored


def _alive(pending: PendingAction, now: datetime, ttl_seconds: float) -> bool:
    try:
        proposed = datetime.fromisoformat(pending.proposed_at)
    except ValueError:
        return False
    if proposed.tzinfo is None:
        return False
    return proposed <= now <= proposed + timedelta(seconds=ttl_seconds)


def still_pending(deps: AgentDeps) -> PendingAction | None:
    """What to keep for the next message: only a proposal made in this turn (not one that was
    confirmed and then not carried out), and nothing once the turn handed off."""
    pending = deps.turn.pending
    if pending is None or pending.confirmed or deps.turn.handoff_reason is not None:
        return None
    return pending


def pending_confirmation(deps: AgentDeps, pending: PendingAction) -> PendingConfirmation:
    """The structured pending action of the response (gateways render buttons from it)."""
    details = pending.details
    proposed = datetime.fromisoformat(pending.proposed_at)
    return PendingConfirmation(
        kind=ActionKind(pending.kind),
        question=pending.question,
        service_name=details.get("service", ""),
        professional_name=details.get("professional", ""),
        start=_instant(details.get("start")),
        new_start=_instant(details.get("new_start")),
        price=details.get("price", ""),
        appointment_id=UUID(details["appointment_id"]) if details.get("appointment_id") else None,
        expires_at=proposed + timedelta(seconds=deps.turn.confirmation_ttl_seconds),
    )


def _instant(value: str | None) -> datetime | None:
    return datetime.fromisoformat(value) if value else None
