"""Documents of bookings: appointments and the slot holds that make overlaps impossible."""

from __future__ import annotations

from datetime import datetime
from uuid import UUID

from beanie import Document

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

    class Settings:
        name = "appointments"
        indexes = [  # noqa: RUF012
            index("tenant_id", "start", name="tenant_start"),
            index("tenant_id", "customer_id", "start", name="tenant_customer_start"),
            index("tenant_id", "professional_id", "start", name="tenant_professional_start"),
            index("status", "updated_at", name="status_updated"),
        ]

    @classmethod
    def from_domain(cls, appointment: Appointment) -> AppointmentDocument:
        fields = appointment.model_dump()
        for name in ("start", "end", "created_at", "updated_at"):
            fields[name] = stored_instant(fields[name])
        return cls(**fields)

    def to_domain(self) -> Appointment:
        fields = self.model_dump(exclude={"revision_id"})
        for name in ("start", "end", "created_at", "updated_at"):
            fields[name] = stored_instant(fields[name])
        return Appointment.model_validate(fields)


class SlotHoldDocument(Document):
    """One 5-minute unit of a professional's time taken by an active appointment.

    The unique (tenant, professional, unit) index is what makes two overlapping bookings
    impossible, across replicas too (DESIGN §5).
    """

    tenant_id: UUID
    professional_id: UUID
    unit_start: datetime
    appointment_id: UUID

    class Settings:
        name = "slot_holds"
        indexes = [  # noqa: RUF012
            index(
                "tenant_id", "professional_id", "unit_start", name="one_hold_per_unit", unique=True
            ),
            index("appointment_id", name="by_appointment"),
        ]

    @classmethod
    def for_unit(cls, appointment: Appointment, unit_start: datetime) -> SlotHoldDocument:
        return cls(
            tenant_id=appointment.tenant_id,
            professional_id=appointment.professional_id,
            unit_start=unit_start,
            appointment_id=appointment.id,
        )
