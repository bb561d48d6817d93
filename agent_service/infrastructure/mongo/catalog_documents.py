"""Documents of what a business offers: tenants, services, professionals, FAQ, customers."""

from __future__ import annotations

from datetime import datetime
from typing import Any
from uuid import UUID

from beanie import Document

from agent_service.application.faq_ranking import entry_terms
from agent_service.domain.catalog import (
    BookingPolicy,
    Customer,
    DateException,
    FaqEntry,
    LocalizedAliases,
    LocalizedFaq,
    Professional,
    Service,
    Tenant,
    WorkingHours,
)
from agent_service.infrastructure.mongo.base import ScopedDocument, index, stored_instant


class TenantDocument(Document):
    """A business; ``_id`` is the tenant id (so "indexed by tenant first" holds trivially)."""

    id: UUID  # type: ignore[assignment]
    name: str
    time_zone: str
    locale: str
    policy: dict[str, int]
    created_at: datetime
    revision: int = 0  # absent in documents written before revisions

    class Settings:
        name = "tenants"
        indexes = [index("created_at", "_id", name="created")]  # noqa: RUF012

    @classmethod
    def from_domain(cls, tenant: Tenant) -> TenantDocument:
        return cls(
            id=tenant.id,
            name=tenant.name,
            time_zone=tenant.time_zone,
            locale=tenant.locale,
            policy=tenant.policy.model_dump(),
            created_at=stored_instant(tenant.created_at),
            revision=tenant.revision,
        )

    def to_domain(self) -> Tenant:
        return Tenant(
            id=self.id,
            name=self.name,
            time_zone=self.time_zone,
            locale=self.locale,
            policy=BookingPolicy.model_validate(self.policy),
            created_at=stored_instant(self.created_at),
            revision=self.revision,
        )


class ServiceDocument(ScopedDocument):
    name: str
    description: str
    duration_minutes: int
    price_minor: int
    currency: str
    revision: int = 0  # absent in documents written before revisions
    aliases: list[str] = []  # noqa: RUF012 (absent in documents written before aliases)
    localized_aliases: list[dict[str, Any]] = []  # noqa: RUF012 (absent in older documents)

    class Settings:
        name = "services"
        indexes = [index("tenant_id", "name", name="tenant_name")]  # noqa: RUF012

    @classmethod
    def from_domain(cls, service: Service) -> ServiceDocument:
        return cls(**service.model_dump())

    def to_domain(self) -> Service:
        return Service.model_validate(self.model_dump(exclude={"revision_id"}))


class ProfessionalDocument(ScopedDocument):
    """Hours and dates are kept as their JSON form ("09:00:00", "2031-03-03")."""

    name: str
    specialty: str
    calendar_id: str
    weekly_hours: list[dict[str, Any]]
    exceptions: list[dict[str, Any]]
    service_ids: list[UUID]
    revision: int = 0  # absent in documents written before revisions
    aliases: list[str] = []  # noqa: RUF012 (absent in documents written before aliases)
    localized_aliases: list[dict[str, Any]] = []  # noqa: RUF012 (absent in older documents)

    class Settings:
        name = "professionals"
        indexes = [  # noqa: RUF012
            index("tenant_id", "name", name="tenant_name"),
            index("tenant_id", "service_ids", name="tenant_services"),
        ]

    @classmethod
    def from_domain(cls, professional: Professional) -> ProfessionalDocument:
        return cls(
            id=professional.id,
            tenant_id=professional.tenant_id,
            name=professional.name,
            specialty=professional.specialty,
            calendar_id=professional.calendar_id,
            weekly_hours=[hours.model_dump(mode="json") for hours in professional.weekly_hours],
            exceptions=[day.model_dump(mode="json") for day in professional.exceptions],
            service_ids=list(professional.service_ids),
            revision=professional.revision,
            aliases=list(professional.aliases),
            localized_aliases=[e.model_dump(mode="json") for e in professional.localized_aliases],
        )

    def to_domain(self) -> Professional:
        return Professional(
            id=self.id,
            tenant_id=self.tenant_id,
            name=self.name,
            specialty=self.specialty,
            calendar_id=self.calendar_id,
            weekly_hours=tuple(WorkingHours.model_validate(h) for h in self.weekly_hours),
            exceptions=tuple(DateException.model_validate(d) for d in self.exceptions),
            service_ids=tuple(self.service_ids),
            revision=self.revision,
            aliases=tuple(self.aliases),
            localized_aliases=tuple(
                LocalizedAliases.model_validate(e) for e in self.localized_aliases
            ),
        )


class FaqDocument(ScopedDocument):
    """``terms`` are the entry's searchable words (see ``faq_ranking``), indexed per tenant."""

    question: str
    answer: str
    tags: list[str]
    terms: list[str]
    revision: int = 0  # absent in documents written before revisions
    localized: list[dict[str, Any]] = []  # noqa: RUF012 (absent in older documents)

    class Settings:
        name = "faq_entries"
        indexes = [index("tenant_id", "terms", name="tenant_terms")]  # noqa: RUF012

    @classmethod
    def from_domain(cls, entry: FaqEntry) -> FaqDocument:
        return cls(
            id=entry.id,
            tenant_id=entry.tenant_id,
            question=entry.question,
            answer=entry.answer,
            tags=list(entry.tags),
            terms=sorted(entry_terms(entry)),
            revision=entry.revision,
            localized=[e.model_dump(mode="json") for e in entry.localized],
        )

    def to_domain(self) -> FaqEntry:
        return FaqEntry(
            id=self.id,
            tenant_id=self.tenant_id,
            question=self.question,
            answer=self.answer,
            tags=tuple(self.tags),
            revision=self.revision,
            localized=tuple(LocalizedFaq.model_validate(e) for e in self.localized),
        )


class CustomerDocument(ScopedDocument):
    """Unique per (tenant, channel, external id): the channel's identity of one person."""

    channel: str
    external_id: str
    name: str
    phone: str
    email: str
    preferences: list[str]

    class Settings:
        name = "customers"
        indexes = [  # noqa: RUF012
            index("tenant_id", "channel", "external_id", name="tenant_identity", unique=True),
            index("tenant_id", "_id", name="tenant_id_order"),
        ]

    @classmethod
    def from_domain(cls, customer: Customer) -> CustomerDocument:
        return cls(**customer.model_dump())

    def to_domain(self) -> Customer:
        return Customer.model_validate(self.model_dump(exclude={"revision_id"}))
