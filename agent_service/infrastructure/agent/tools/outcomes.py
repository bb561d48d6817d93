"""``agenda_bookings_total``: what the agent's write tools did, by operation and outcome."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Literal
from uuid import UUID

from prometheus_client import Counter

from agent_service.application.ports import AppointmentFilter
from agent_service.domain.appointments import AppointmentStatus
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


async def pending_booking_at(deps: AgentDeps, start: datetime) -> UUID | None:
    """This customer's appointment at ``start`` that is still pending (its calendar write was
    ambiguous; the reconciler settles it), read back after a failed write."""
    selection = AppointmentFilter(
        customer_id=deps.customer_id,
        statuses=(AppointmentStatus.PENDING,),
        start_after=start,
        start_before=start + timedelta(minutes=1),
    )
    found, _ = await deps.appointment_repository.list(
        deps.tenant_id, selection, page_size=1, page_token=None
    )
    return found[0].id if found else None
