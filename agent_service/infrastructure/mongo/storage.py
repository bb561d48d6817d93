"""``init_agent_storage``: bind the agent's documents to a database and build the repositories."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from beanie import init_beanie
from pymongo import AsyncMongoClient

from agent_service.application.catalog_cache import (
    CachedFaq,
    CachedProfessionals,
    CachedServices,
)
from agent_service.application.repositories import Repositories
from agent_service.application.tenant_cache import CachedTenants
from agent_service.infrastructure.mongo.appointment_repository import BeanieAppointmentRepository
from agent_service.infrastructure.mongo.booking_documents import (
    AppointmentDocument,
)
from agent_service.infrastructure.mongo.catalog_documents import (
    CustomerDocument,
    FaqDocument,
    ProfessionalDocument,
    ServiceDocument,
    TenantDocument,
)
from agent_service.infrastructure.mongo.catalog_repositories import (
    BeanieFaqRepository,
    BeanieProfessionalRepository,
    BeanieServiceRepository,
    BeanieTenantRepository,
)
from agent_service.infrastructure.mongo.claim_lanes import BeanieClaimLanes
from agent_service.infrastructure.mongo.claim_slots import SlotPolicy
from agent_service.infrastructure.mongo.clock import DatabaseClock, LocalClock, utc_now
from agent_service.infrastructure.mongo.conversation_documents import (
    ConversationDocument,
    ProcessedTurnDocument,
)
from agent_service.infrastructure.mongo.conversation_repositories import (
    BeanieConversationRepository,
)
from agent_service.infrastructure.mongo.customer_repository import BeanieCustomerRepository
from agent_service.infrastructure.mongo.errors import guarded
from agent_service.infrastructure.mongo.outbox_repository import (
    BeanieOutboxRepository,
    OutboxDocument,
)
from agent_service.infrastructure.mongo.pending_executions import (
    BeaniePendingExecutionRepository,
    PendingExecutionDocument,
)
from agent_service.infrastructure.mongo.turn_context import MongoTurnContextReader
from agent_service.infrastructure.mongo.turn_repository import BeanieTurnRepository

DOCUMENTS = [
    TenantDocument,
    ServiceDocument,
    ProfessionalDocument,
    FaqDocument,
    CustomerDocument,
    AppointmentDocument,
    ConversationDocument,
    ProcessedTurnDocument,
    OutboxDocument,
    PendingExecutionDocument,
]


DEFAULT_TURN_LEASE = timedelta(seconds=60)


@guarded
async def init_agent_storage(
    client: AsyncMongoClient[Any],
    database: str,
    *,
    turn_lease: timedelta = DEFAULT_TURN_LEASE,
    turn_slots: SlotPolicy | None = None,
    local_clock: LocalClock = utc_now,
) -> Repositories:
    """Run the start-up migrations, create the indexes (idempotent) and return Beanie
    repositories on ``database``; time-based rules use the database's clock (``local_clock``
    is only the base it is measured from). ``turn_slots``: the per-tenant limit of turns at
    once, kept on the message claims (none: unlimited).

    Beanie binds documents to one database per process: the last call wins.
    """
    await init_beanie(database=client[database], document_models=DOCUMENTS)
    clock = DatabaseClock(client, local_clock)
    turns = BeanieTurnRepository(clock, turn_lease, turn_slots)
    return Repositories(
        tenants=CachedTenants(BeanieTenantRepository()),
        services=CachedServices(BeanieServiceRepository()),
        professionals=CachedProfessionals(BeanieProfessionalRepository()),
        faq=CachedFaq(BeanieFaqRepository()),
        customers=BeanieCustomerRepository(),
        appointments=BeanieAppointmentRepository(clock),
        conversations=BeanieConversationRepository(),
        turns=turns,
        outbox=BeanieOutboxRepository(clock),
        lanes=BeanieClaimLanes(turns, clock, turn_lease),
        turn_context=MongoTurnContextReader(clock),
        executions=BeaniePendingExecutionRepository(clock),
    )
