"""Every repository the application uses, wired once by the composition root."""

from __future__ import annotations

from dataclasses import dataclass

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
