"""``agenda_bookings_total``: what the agent's write tools did, by operation and outcome."""

from __future__ import annotations

from typing import Literal
from uuid import UUID

from prometheus_client import Counter

from agent_service.domain.conversations import ActionKind, TurnAction
from agent_service.infrastructure.agent import messages
from agent_service.infrastructure.agent.deps import AgentDeps

Operation = Literal["book", "cancel", "reschedule"]
Outcome = Literal[
    "booked",
    "cancelled",
    "already_cancelled",
    "rescheduled",
    "slot_taken",
    "policy_violation",
    "unconfirmed",
    "failed",
]

BOOKINGS = Counter(
    "agenda_bookings_total",
    "Confirmed write requests of the agent's booking tools, by operation and outcome",
    ["operation", "outcome"],
)


def record_booking(operation: Operation, outcome: Outcome) -> None:
    BOOKINGS.labels(operation, outcome).inc()


def record_outcome(
    deps: AgentDeps,
    operation: Operation,
    outcome: Outcome,
    what: str,
    *,
    taken: bool = False,
    appointment_id: UUID | None = None,
) -> None:
    """A confirmed write that could not be made: counted, and told to the customer as a
    ``CHANGE_FAILED`` action (its receipt says what was not done and why)."""
    record_booking(operation, outcome)
    reason = messages.text(
        "reason_slot_taken" if taken else "reason_not_possible", deps.turn.language
    )
    deps.turn.actions.append(
        TurnAction(
            kind=ActionKind.CHANGE_FAILED,
            appointment_id=appointment_id,
            detail=f"{what} ({reason})",
        )
    )
