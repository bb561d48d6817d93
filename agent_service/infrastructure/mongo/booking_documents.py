"""Documents of bookings: appointments (whether a time is free is the calendar service's
create-if-free; the agent keeps no slot holds)."""

from __future__ import annotations

from datetime import datetime
from typing import Any
from uuid import UUID

from agent_service.domain.appointments import Appointment, AppointmentStatus
from agent_service.infrastructure.mongo.base import ScopedDocument, index, stored_instant


class AppointmentDocument(ScopedDocument):
    customer_id: UUID
    professional_id: UUID
    service_id: UUID
    calendar_id: str
    start: datetime
    end: datetime
    status: AppointmentStatus
    external_event_id: str | None
    service_name: str
    professional_name: str
    created_at: datetime
    updated_at: datetime
    cancel_reason: str
    rescheduled_from: UUID | None
    awaiting_notice: bool = False
    attempts: int = 0
    next_attempt_at: datetime | None = None
    orphan_event_id: str | None = None
    event_check_due: bool = False
    moving_to: datetime | None = None
    previous_starts: list[datetime] = []  # noqa: RUF012

    class Settings:
        name = "appointments"
        indexes = [  # noqa: RUF012
            index("tenant_id", "start", name="tenant_start"),
            index("tenant_id", "customer_id", "start", name="tenant_customer_start"),
            index("tenant_id", "professional_id", "start", name="tenant_professional_start"),
            index("status", "updated_at", name="status_updated"),
            index("status", "next_attempt_at", name="status_next_attempt"),
            index("awaiting_notice", "status", name="awaiting_notice"),
            index("orphan_event_id", name="orphan_event"),
            index("event_check_due", "updated_at", name="event_check_due"),
        ]

    @classmethod
    def from_domain(cls, appointment: Appointment) -> AppointmentDocument:
        fields = _instants(appointment.model_dump())
        fields["previous_starts"] = list(fields["previous_starts"])
        return cls(**fields)

    def to_domain(self) -> Appointment:
        fields = _instants(self.model_dump(exclude={"revision_id"}))
        fields["previous_starts"] = tuple(fields["previous_starts"])
        return Appointment.model_validate(fields)


_INSTANTS = ("start", "end", "created_at", "updated_at", "next_attempt_at", "moving_to")


def _instants(fields: dict[str, Any]) -> dict[str, Any]:
    """Every instant as BSON keeps it: UTC, whole milliseconds."""
    for name in _INSTANTS:
        if fields.get(name) is not None:
            fields[name] = stored_instant(fields[name])
    fields["previous_starts"] = [stored_instant(s) for s in fields.get("previous_starts", ())]
    return fields
