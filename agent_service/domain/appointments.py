"""Appointments and their life: pending → confirmed → cancelled, or pending → failed."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from enum import StrEnum
from uuid import UUID, uuid4

from pydantic import Field, model_validator

from agent_service.domain.catalog import Entity
from agent_service.domain.errors import ConflictError


class AppointmentStatus(StrEnum):
    PENDING = "pending"
    CONFIRMED = "confirmed"
    CANCELLED = "cancelled"
    FAILED = "failed"


_ALLOWED = {
    AppointmentStatus.PENDING: {AppointmentStatus.CONFIRMED, AppointmentStatus.FAILED},
    AppointmentStatus.CONFIRMED: {AppointmentStatus.CANCELLED},
    AppointmentStatus.CANCELLED: set(),
    AppointmentStatus.FAILED: set(),
}


class Appointment(Entity):
    """One booking; ``external_event_id`` is the calendar event once confirmed."""

    id: UUID = Field(default_factory=uuid4)
    tenant_id: UUID
    customer_id: UUID
    professional_id: UUID
    service_id: UUID
    calendar_id: str
    start: datetime
    end: datetime
    status: AppointmentStatus = AppointmentStatus.PENDING
    external_event_id: str | None = None
    service_name: str = ""
    professional_name: str = ""
    created_at: datetime = Field(default_factory=lambda: datetime.now(UTC))
    updated_at: datetime = Field(default_factory=lambda: datetime.now(UTC))
    cancel_reason: str = ""
    rescheduled_from: UUID | None = None
    awaiting_notice: bool = False
    """The customer was told "being confirmed": when it settles, a message goes to the outbox."""
    attempts: int = 0
    """Reconciler passes that could not settle it (the calendar did not answer)."""
    next_attempt_at: datetime | None = None
    """When the reconciler may look at it again (database clock); None: after the grace."""
    orphan_event_id: str | None = None
    """An event written for it that must still be cancelled (it failed or was cancelled)."""
    event_check_due: bool = False
    """Failed by the reconciler while its write may still have been in flight: once the grace
    has passed, look for an event with its key once more (and cancel it)."""
    moving_to: datetime | None = None
    """The new start of a reschedule in progress (its new holds are taken; the event moves)."""
    previous_starts: tuple[datetime, ...] = ()
    """Where it was before each reschedule, oldest first: it keeps its id across moves."""

    @model_validator(mode="after")
    def _ordered(self) -> Appointment:
        if self.start.tzinfo is None or self.end.tzinfo is None:
            raise ValueError("start and end must be timezone-aware")
        if self.end <= self.start:
            raise ValueError("end must be after start")
        return self

    @property
    def duration(self) -> timedelta:
        return self.end - self.start

    @property
    def is_active(self) -> bool:
        """Pending or confirmed: it holds its slot."""
        return self.status in (AppointmentStatus.PENDING, AppointmentStatus.CONFIRMED)

    def moved_to(self, status: AppointmentStatus, **changes: object) -> Appointment:
        """The appointment in ``status``; illegal transitions raise ``ConflictError``."""
        if status not in _ALLOWED[self.status]:
            raise ConflictError(f"appointment {self.id} cannot go from {self.status} to {status}")
        return self.model_copy(
            update={"status": status, "updated_at": datetime.now(UTC), **changes}
        )
