"""``agenda_bookings_total``: what the agent's write tools did, by operation and outcome."""

from __future__ import annotations

from typing import Literal

from prometheus_client import Counter

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
