"""``init_agent_storage``: bind the agent's documents to a database and build the repositories."""

from __future__ import annotations

from typing import Any

from beanie import init_beanie
from pymongo import AsyncMongoClient

from agent_service.application.repositories import Repositories
from agent_service.infrastructure.mongo.appointment_repository import BeanieAppointmentRepository
from agent_service.infrastructure.mongo.booking_documents import (
    AppointmentDocument,
    SlotHoldDocument,
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
from agent_service.infrastructure.mongo.conversation_documents import (
    ConversationDocument,
    ProcessedTurnDocument,
)
from agent_service.infrastructure.mongo.conversation_repositories import (
    BeanieConversationRepository,
    BeanieTurnRepository,
)
from agent_service.infrastructure.mongo.customer_repository import BeanieCustomerRepository
from agent_service.infrastructure.mongo.errors import guarded

DOCUMENTS = [
    TenantDocument,
    ServiceDocument,
    ProfessionalDocument,
    FaqDocument,
    CustomerDocument,
    AppointmentDocument,
    SlotHoldDocument,
    ConversationDocument,
    ProcessedTurnDocument,
]


@guarded
async def init_agent_storage(client: AsyncMongoClient[Any], database: str) -> Repositories:
    """Create the indexes (idempotent) and return Beanie repositories on ``database``.

    Beanie binds documents to one database per process: the last call wins.
    """
    await init_beanie(database=client[database], document_models=DOCUMENTS)
    return Repositories(
        tenants=BeanieTenantRepository(),
        services=BeanieServiceRepository(),
        professionals=BeanieProfessionalRepository(),
        faq=BeanieFaqRepository(),
        customers=BeanieCustomerRepository(),
        appointments=BeanieAppointmentRepository(),
        conversations=BeanieConversationRepository(),
        turns=BeanieTurnRepository(),
    )
