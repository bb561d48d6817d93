"""Ports the application needs: small repositories, each scoped by tenant.

Business rules every implementation keeps:
- every read and write is scoped by ``tenant_id``; an id of another tenant is ``NotFoundError``;
- ``add`` is idempotent on the entity id: adding an id that exists returns the stored entity;
- ``update`` of a tenant, service, professional or FAQ entry is conditional: it stores the
  entity only if the stored ``revision`` is the entity's (the one read), as ``revision + 1``;
  else ``ConflictError`` (``NotFoundError`` when there is none); ``get(..., fresh=True)``
  reads past any cache (what an update reads);
- nothing returns a persistence type: only domain entities cross this boundary.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Protocol
from uuid import UUID

from agent_service.domain.appointments import Appointment, AppointmentStatus
from agent_service.domain.catalog import Customer, FaqEntry, Professional, Service, Tenant
from agent_service.domain.conversations import Conversation, TurnFailure, TurnResult
from agent_service.domain.outbox import OutboxCursor, OutboxMessage


class TenantRepository(Protocol):
    async def add(self, tenant: Tenant) -> Tenant: ...
    async def get(self, tenant_id: UUID, *, fresh: bool = False) -> Tenant: ...
    async def update(self, tenant: Tenant) -> Tenant: ...
    async def list(
        self, *, page_size: int, page_token: str | None
    ) -> tuple[list[Tenant], str | None]: ...


class ServiceRepository(Protocol):
    async def add(self, service: Service) -> Service: ...
    async def get(self, tenant_id: UUID, service_id: UUID, *, fresh: bool = False) -> Service: ...
    async def update(self, service: Service) -> Service: ...
    async def delete(self, tenant_id: UUID, service_id: UUID) -> bool: ...
    async def list(self, tenant_id: UUID) -> list[Service]: ...


class ProfessionalRepository(Protocol):
    async def add(self, professional: Professional) -> Professional: ...
    async def get(
        self, tenant_id: UUID, professional_id: UUID, *, fresh: bool = False
    ) -> Professional: ...
    async def update(self, professional: Professional) -> Professional: ...
    async def delete(self, tenant_id: UUID, professional_id: UUID) -> bool: ...
    async def list(
        self, tenant_id: UUID, *, service_id: UUID | None = None
    ) -> list[Professional]: ...


class FaqRepository(Protocol):
    async def add(self, entry: FaqEntry) -> FaqEntry: ...
    async def get(self, tenant_id: UUID, entry_id: UUID, *, fresh: bool = False) -> FaqEntry: ...
    async def update(self, entry: FaqEntry) -> FaqEntry: ...
    async def delete(self, tenant_id: UUID, entry_id: UUID) -> bool: ...
    async def search(self, tenant_id: UUID, query: str, limit: int = 3) -> list[FaqEntry]:
        """The tenant's entries sharing most words with ``query`` (question, tags and answer;
        accents, case and stopwords ignored), best first; entries sharing none are left out."""
        ...

    async def list(self, tenant_id: UUID) -> list[FaqEntry]: ...


class CustomerRepository(Protocol):
    async def upsert(
        self, customer: Customer, *, likely_new: bool = False
    ) -> tuple[Customer, bool]:
        """Create or update by (tenant, channel, external_id); returns it and whether new.
        ``likely_new``: the caller just saw no such customer (a store may try creating first)."""
        ...

    async def get(self, tenant_id: UUID, customer_id: UUID) -> Customer: ...
    async def update(self, customer: Customer) -> Customer: ...
    async def list(
        self, tenant_id: UUID, *, page_size: int, page_token: str | None
    ) -> tuple[list[Customer], str | None]: ...


@dataclass(frozen=True, slots=True, kw_only=True)
class AppointmentFilter:
    """Which appointments to list; None means no constraint."""

    professional_id: UUID | None = None
    customer_id: UUID | None = None
    statuses: tuple[AppointmentStatus, ...] = ()
    start_after: datetime | None = None
    start_before: datetime | None = None


class AppointmentRepository(Protocol):
    async def reserve(self, appointment: Appointment) -> Appointment | None:
        """Store a pending appointment with its slot holds, atomically as far as the store
        allows, and return None. When an appointment with its id is already stored (a retry
        whose first attempt was stored, an earlier delivery of the same request) nothing is
        written and the stored one is returned, whatever its status.
        ``SlotUnavailableError`` when any hold of the professional overlaps."""
        ...

    async def save(self, appointment: Appointment) -> Appointment:
        """Store a status change; holds are released when it is no longer active."""
        ...

    async def get(self, tenant_id: UUID, appointment_id: UUID) -> Appointment: ...

    # The reconciler's queries (any tenant). Times are the STORE's clock (one clock for every
    # replica): ``updated_at`` is stamped by the store on each write.
    async def due_pending(self, grace: timedelta, limit: int) -> list[Appointment]:
        """Pending appointments not written for ``grace`` whose ``next_attempt_at`` (if any)
        has come, oldest first."""
        ...

    async def defer(self, appointment: Appointment, delay: timedelta) -> None:
        """Count a failed attempt and set ``next_attempt_at`` to now + ``delay`` (if pending)."""
        ...

    async def stale_moves(self, grace: timedelta, limit: int) -> list[Appointment]:
        """Confirmed appointments whose move has been in progress for ``grace``."""
        ...

    async def with_orphan_events(self, limit: int) -> list[Appointment]:
        """Appointments recording an event that must still be cancelled."""
        ...

    async def due_event_checks(self, grace: timedelta, limit: int) -> list[Appointment]:
        """Appointments with ``event_check_due`` not written for ``grace``."""
        ...

    async def clear_event_check(self, tenant_id: UUID, appointment_id: UUID) -> None: ...

    async def set_orphan_event(
        self, tenant_id: UUID, appointment_id: UUID, event_id: str | None
    ) -> None: ...

    async def settled_awaiting_notice(self, limit: int) -> list[Appointment]:
        """Appointments whose customer awaits a notice and whose outcome is now known
        (confirmed or failed, no move in progress)."""
        ...

    async def clear_awaiting_notice(self, tenant_id: UUID, appointment_id: UUID) -> None: ...

    # Rescheduling as one operation (see ``application.moves``).
    async def begin_move(self, appointment: Appointment, new_start: datetime) -> Appointment:
        """Hold the new time's units (those not already its own) and record ``moving_to``,
        only if the stored appointment is still confirmed at ``appointment.start`` with no
        move in progress (else ``ConflictError``); ``SlotUnavailableError`` when taken."""
        ...

    async def finish_move(self, appointment: Appointment) -> Appointment:
        """Start at ``moving_to``; the old start joins ``previous_starts``; the holds not
        covering the new time are released."""
        ...

    async def abort_move(self, appointment: Appointment) -> Appointment:
        """Forget ``moving_to`` and release the holds not covering the current time."""
        ...

    async def list(
        self,
        tenant_id: UUID,
        selection: AppointmentFilter,
        *,
        page_size: int,
        page_token: str | None,
    ) -> tuple[list[Appointment], str | None]: ...


class ConversationRepository(Protocol):
    async def add(self, conversation: Conversation) -> Conversation: ...
    async def get(self, tenant_id: UUID, conversation_id: UUID) -> Conversation: ...
    async def find_open(
        self, tenant_id: UUID, customer_id: UUID, channel: str
    ) -> Conversation | None:
        """The customer's latest conversation on that channel that has not ended."""
        ...

    async def save(self, conversation: Conversation) -> Conversation:
        """Store if ``version`` still matches (then increment it), else ``ConflictError``."""
        ...


@dataclass(frozen=True, slots=True)
class StoredTurn:
    """What is stored under a channel message id: its claim's ``digest`` (who sent what; ""
    for claims stored before digests), its ``sender`` (the first delivery's ``customer_ref``,
    known from the claim on, while its turn still runs; "" for claims stored before senders
    were recorded, e.g. by an older replica during a rolling upgrade), and its reply or
    retryable failure once known."""

    result: TurnResult | None = None
    failure: TurnFailure | None = None
    digest: str = ""
    sender: str = ""


class TurnRepository(Protocol):
    """Channel message ids already handled, and their replies."""

    async def claim(
        self, tenant_id: UUID, channel: str, message_id: str, digest: str = "", sender: str = ""
    ) -> bool:
        """True for the first claim of this message id, or when the previous claim has no
        result and its lease expired (its holder died) or its turn failed (``fail``), and it
        was claimed with the same ``digest`` (or none); False otherwise. The claim records
        ``sender`` (who sent it: ``customer_ref``) apart from the digest; a takeover records
        it on a claim that had none."""
        ...

    async def renew(self, tenant_id: UUID, channel: str, message_id: str) -> None:
        """Extend the lease of a claim still being handled."""
        ...

    async def complete(
        self, tenant_id: UUID, channel: str, message_id: str, result: TurnResult
    ) -> None: ...

    async def fail(
        self, tenant_id: UUID, channel: str, message_id: str, failure: TurnFailure
    ) -> None:
        """Store a retryable failure instead of a result: the claim is free to be taken
        again at once (a retry runs the message again); its turn slot is freed."""
        ...

    async def stored(self, tenant_id: UUID, channel: str, message_id: str) -> StoredTurn | None:
        """The claim's digest and outcome; None when the message id is not claimed."""
        ...

    async def result(self, tenant_id: UUID, channel: str, message_id: str) -> TurnResult | None:
        """The stored reply, or None while the first delivery is still being handled."""
        ...

    async def release(self, tenant_id: UUID, channel: str, message_id: str) -> None:
        """Forget a claim whose turn failed, so a redelivery can try again."""
        ...


class AppointmentCanceller(Protocol):
    """Cancels an appointment and its calendar event; returns it and False when it already was
    cancelled. ``enforce_window`` applies the tenant's cancellation window (customers), the
    back office skips it (``CancelAppointment`` in production)."""

    async def execute(
        self, tenant_id: UUID, appointment_id: UUID, *, reason: str, enforce_window: bool
    ) -> tuple[Appointment, bool]: ...


class OutboxRepository(Protocol):
    """Durable proactive messages (booking outcomes now, reminders later) that gateways
    stream and acknowledge; every read and ack is scoped by tenant."""

    async def add(self, message: OutboxMessage) -> bool:
        """Store it; False when a message of that id exists (adding is idempotent)."""
        ...

    async def due(
        self,
        tenant_id: UUID,
        after: OutboxCursor | None,
        limit: int,
        *,
        channels: frozenset[str] | None = None,
    ) -> list[OutboxMessage]:
        """Unacknowledged messages due to be delivered (``deliver_at`` passed, store's clock,
        older than the settle time so no write in flight sorts before them), after ``after``,
        ordered by (deliver_at, id); only those on ``channels`` (None: every channel)."""
        ...

    async def ack(
        self, tenant_id: UUID, message_ids: list[UUID], *, channels: frozenset[str] | None = None
    ) -> int:
        """Mark delivered (only messages on ``channels``; None: every channel); returns how
        many were newly acknowledged."""
        ...
