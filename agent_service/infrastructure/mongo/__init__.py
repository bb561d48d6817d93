"""MongoDB persistence of the agent service (Beanie documents live only in this package)."""

from agent_service.infrastructure.mongo.appointment_repository import BeanieAppointmentRepository
from agent_service.infrastructure.mongo.catalog_repositories import (
    BeanieFaqRepository,
    BeanieProfessionalRepository,
    BeanieServiceRepository,
    BeanieTenantRepository,
)
from agent_service.infrastructure.mongo.conversation_repositories import (
    BeanieConversationRepository,
)
from agent_service.infrastructure.mongo.customer_repository import BeanieCustomerRepository
from agent_service.infrastructure.mongo.storage import init_agent_storage
from agent_service.infrastructure.mongo.turn_repository import BeanieTurnRepository

__all__ = [
    "BeanieAppointmentRepository",
    "BeanieConversationRepository",
    "BeanieCustomerRepository",
    "BeanieFaqRepository",
    "BeanieProfessionalRepository",
    "BeanieServiceRepository",
    "BeanieTenantRepository",
    "BeanieTurnRepository",
    "init_agent_storage",
]
