"""A confirmation that arrives after its proposal was already carried out.

Customers tap "Sim" and type "sim" at once, or tap again later; the customer's lane answers
them one turn after another, so every confirmation but the first finds the question closed.
Such a confirmation is answered in code, with no model request, by the stored outcome of that
execution ("Já está agendado: ..."), and nothing runs again.

Rules (pure; the conversation keeps its last execution as :class:`Executed`):

* a **tap** (a structured confirm *or decline*) counts only for the executed action's own id
  (compared in constant time), within ``tap_seconds`` of the execution (the confirmation's
  time to live: the button was never live for longer). A decline of an action that already
  ran is told what happened, like a confirm ("Já está agendado: ..."): "nothing was
  changed" would be false while the booking exists (to undo it the customer asks to cancel);
* a **typed plain yes** counts only for the conversation's *last* execution, only when no
  other proposal is open, no turn answered by a model came between (``quiet``: a yes after
  the model said something answers that, not the booking; turns settled in code with no
  action — a repeated or stale confirmation — keep it quiet) and within ``yes_seconds``;
* anything else — a foreign, expired, unknown or other conversation's id, a typed no, a yes
  with something in it — is not a repeated confirmation: nothing here applies.

A later write or any other action of the conversation ends the record (:func:`after_turn`),
and an outcome is restated only while the appointment it names still is in that state
(:func:`still_holds`: booked and moved ones confirmed, a cancelled one cancelled, a pending one
pending), so "already booked" is never said of something changed since (by staff, the
calendar's reconciler, another channel).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any

from agent_service.application.consent_policy import StructuredDecision, same_id
from agent_service.domain.appointments import AppointmentStatus
from agent_service.domain.conversations import ActionKind, ReplyChoice

_HOLDS = {
    ActionKind.APPOINTMENT_BOOKED: AppointmentStatus.CONFIRMED,
    ActionKind.APPOINTMENT_RESCHEDULED: AppointmentStatus.CONFIRMED,
    ActionKind.APPOINTMENT_CANCELLED: AppointmentStatus.CANCELLED,
    ActionKind.APPOINTMENT_PENDING: AppointmentStatus.PENDING,
}


@dataclass(frozen=True, slots=True)
class Executed:
    """The conversation's last executed pending action: its id, kind and when it ran;
    ``quiet`` while no other turn came after it (besides repeated confirmations)."""

    id: str
    kind: str
    executed_at: datetime
    quiet: bool = True

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "kind": self.kind,
            "executed_at": self.executed_at.isoformat(),
            "quiet": self.quiet,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any] | None) -> Executed | None:
        if not data or not data.get("id"):
            return None
        try:
            at = datetime.fromisoformat(str(data["executed_at"]))
        except (KeyError, ValueError):
            return None
        if at.tzinfo is None:
            return None
        return cls(str(data["id"]), str(data.get("kind", "")), at, bool(data.get("quiet")))


def execution_key(conversation_id: str, pending_id: str) -> str:
    """The run-once key of a pending action: scoped to its conversation (and, in the store,
    its tenant), so another conversation's id never finds it."""
    return f"{conversation_id}:{pending_id}"


def repeats(
    executed: Executed | None,
    *,
    decision: StructuredDecision | None,
    pending_open: bool,
    plain_yes: Callable[[str], bool],
    now: datetime,
    tap_seconds: float,
    yes_seconds: float,
) -> bool:
    """Whether a message (a tapped ``decision``, or a text that ``plain_yes`` reads for the
    executed kind) repeats the confirmation of ``executed`` (see the module's rules)."""
    if executed is None:
        return False
    age = now - executed.executed_at
    if age < timedelta(0):
        return False
    if decision is not None:
        return (
            decision.choice in (ReplyChoice.CONFIRM, ReplyChoice.DECLINE)
            and same_id(decision.pending_id, executed.id)
            and age <= timedelta(seconds=tap_seconds)
        )
    if pending_open or not executed.quiet or age > timedelta(seconds=yes_seconds):
        return False
    return plain_yes(executed.kind)


def after_turn(
    prior: Executed | None, ran: Executed | None, *, in_code: bool, acted: bool
) -> Executed | None:
    """What the conversation keeps after a turn: the execution it ran; else nothing after any
    other action; the prior one unchanged after a turn settled in code; otherwise the prior
    one, no longer quiet."""
    if ran is not None:
        return ran
    if prior is None or acted:
        return None
    return prior if in_code else replace(prior, quiet=False)


def still_holds(kind: ActionKind, status: AppointmentStatus | None) -> bool:
    """Whether an outcome of ``kind`` is still true of an appointment now in ``status`` (None:
    it is gone). Outcomes that name no state of an appointment (a failure) always hold."""
    expected = _HOLDS.get(kind)
    return expected is None or status is expected
