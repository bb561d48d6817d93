"""Every repository the application uses, wired once by the composition root."""

from __future__ import annotations

from dataclasses import dataclass

from agent_service.application.bursts import LaneRepository
from agent_service.application.ports import (
    AppointmentRepository,
    ConversationRepository,
    CustomerRepository,
    FaqRepository,
    OutboxRepository,
    ProfessionalRepository,
    ServiceRepository,
    TenantRepository,
    TurnRepository,
)
from agent_service.application.turn_context import TurnContextReader


@dataclass(frozen=True, slots=True, kw_only=True)
class Repositories:
    """The agent service's storage ports (Beanie in production, in-memory fakes in tests)."""

    tenants: TenantRepository
    services: ServiceRepository
    professionals: ProfessionalRepository
    faq: FaqRepository
    customers: CustomerRepository
    appointments: AppointmentRepository
    conversations: ConversationRepository
    turns: TurnRepository
    outbox: OutboxRepository
    lanes: LaneRepository
    """Customers' lanes: the messages waiting for the turn that answers them (``bursts``)."""
    turn_context: TurnContextReader | None = None
    """A turn's customer, conversation and upcoming appointments in one read, when the store
    can join them (None: the repositories are read one by one)."""
