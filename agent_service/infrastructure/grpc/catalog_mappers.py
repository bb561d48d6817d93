"""CatalogService messages ↔ domain entities, checked field by field at the edge."""

from __future__ import annotations

from collections.abc import Iterable
from uuid import uuid4

from agenda.agent.v1 import catalog_service_pb2 as pb
from agent_service.application.catalog import etag_of
from agent_service.domain.catalog import (
    BookingPolicy,
    Customer,
    DateException,
    FaqEntry,
    LocalizedAliases,
    LocalizedFaq,
    LocalWindow,
    Professional,
    Service,
    Tenant,
    WorkingHours,
)
from agent_service.domain.errors import InvalidInputError
from agent_service.infrastructure.grpc.appointment_mappers import (
    appointment_message,
    to_appointment_filter,
)
from agent_service.infrastructure.grpc.catalog_fields import (
    build,
    local_date,
    local_time,
    parse_uuid,
    time_text,
    timestamp,
)

__all__ = ["appointment_message", "parse_uuid", "timestamp", "to_appointment_filter"]

MAX_ZONE_CHARS = 64  # the longest IANA zone name has 32 characters


def _policy(message: pb.BookingPolicy, present: bool) -> BookingPolicy:
    if not present:
        return BookingPolicy()
    return build(
        BookingPolicy,
        "tenant.policy",
        minimum_notice_minutes=message.minimum_notice_minutes,
        booking_horizon_days=message.booking_horizon_days or 60,
        cancellation_window_minutes=message.cancellation_window_minutes,
        slot_step_minutes=message.slot_step_minutes or 30,
    )


def to_tenant(message: pb.Tenant, *, with_id: bool) -> Tenant:
    """Empty zone and locale mean the defaults (UTC, pt-BR); an unset policy, the default one."""
    values: dict[str, object] = {
        "id": parse_uuid("tenant.id", message.id) if with_id else uuid4(),
        "name": message.name,
        "policy": _policy(message.policy, message.HasField("policy")),
    }
    if len(message.time_zone) > MAX_ZONE_CHARS:  # ZoneInfo raises OSError on such names
        raise InvalidInputError("tenant.time_zone", f"unknown time zone {message.time_zone[:64]!r}")
    if message.time_zone:
        values["time_zone"] = message.time_zone
    if message.locale:
        values["locale"] = message.locale
    return build(Tenant, "tenant", **values)


def tenant_message(tenant: Tenant) -> pb.Tenant:
    policy = tenant.policy
    return pb.Tenant(
        id=str(tenant.id),
        name=tenant.name,
        time_zone=tenant.time_zone,
        locale=tenant.locale,
        policy=pb.BookingPolicy(
            minimum_notice_minutes=policy.minimum_notice_minutes,
            booking_horizon_days=policy.booking_horizon_days,
            cancellation_window_minutes=policy.cancellation_window_minutes,
            slot_step_minutes=policy.slot_step_minutes,
        ),
        created_at=timestamp(tenant.created_at),
        etag=etag_of(tenant),
    )


def to_service(message: pb.Service, *, with_id: bool) -> Service:
    return build(
        Service,
        "service",
        id=parse_uuid("service.id", message.id) if with_id else uuid4(),
        tenant_id=parse_uuid("service.tenant_id", message.tenant_id),
        name=message.name,
        description=message.description,
        duration_minutes=message.duration_minutes,
        price_minor=message.price_minor,
        currency=message.currency or "BRL",
        aliases=tuple(message.aliases),
        localized_aliases=_localized("service", message.localized_aliases),
    )


def _localized(owner: str, entries: Iterable[pb.LocalizedAliases]) -> tuple[LocalizedAliases, ...]:
    return tuple(
        build(
            LocalizedAliases,
            f"{owner}.localized_aliases[{i}]",
            language=entry.language,
            aliases=tuple(entry.aliases),
        )
        for i, entry in enumerate(entries)
    )


def _localized_messages(entries: tuple[LocalizedAliases, ...]) -> list[pb.LocalizedAliases]:
    return [pb.LocalizedAliases(language=e.language, aliases=list(e.aliases)) for e in entries]


def service_message(service: Service) -> pb.Service:
    return pb.Service(
        id=str(service.id),
        tenant_id=str(service.tenant_id),
        name=service.name,
        description=service.description,
        duration_minutes=service.duration_minutes,
        price_minor=service.price_minor,
        currency=service.currency,
        aliases=list(service.aliases),
        localized_aliases=_localized_messages(service.localized_aliases),
        etag=etag_of(service),
    )


def _weekly(index: int, hours: pb.WorkingHours) -> WorkingHours:
    field = f"professional.weekly_hours[{index}]"
    return build(
        WorkingHours,
        field,
        day_of_week=hours.day_of_week,
        start=local_time(f"{field}.start_time", hours.start_time, is_end=False),
        end=local_time(f"{field}.end_time", hours.end_time, is_end=True),
    )


def _exception(index: int, day: pb.DateException) -> DateException:
    field = f"professional.exceptions[{index}]"
    windows = tuple(
        build(
            LocalWindow,
            f"{field}.hours[{i}]",
            start=local_time(f"{field}.hours[{i}].start_time", w.start_time, is_end=False),
            end=local_time(f"{field}.hours[{i}].end_time", w.end_time, is_end=True),
        )
        for i, w in enumerate(day.hours)
    )
    return build(
        DateException,
        field,
        date=local_date(f"{field}.date", day.date),
        hours=windows,
        reason=day.reason,
    )


def to_professional(message: pb.Professional, *, with_id: bool) -> Professional:
    return build(
        Professional,
        "professional",
        id=parse_uuid("professional.id", message.id) if with_id else uuid4(),
        tenant_id=parse_uuid("professional.tenant_id", message.tenant_id),
        name=message.name,
        specialty=message.specialty,
        calendar_id=message.calendar_id,
        weekly_hours=tuple(_weekly(i, h) for i, h in enumerate(message.weekly_hours)),
        exceptions=tuple(_exception(i, d) for i, d in enumerate(message.exceptions)),
        service_ids=tuple(
            parse_uuid(f"professional.service_ids[{i}]", sid)
            for i, sid in enumerate(message.service_ids)
        ),
        aliases=tuple(message.aliases),
        localized_aliases=_localized("professional", message.localized_aliases),
    )


def professional_message(professional: Professional) -> pb.Professional:
    return pb.Professional(
        id=str(professional.id),
        tenant_id=str(professional.tenant_id),
        name=professional.name,
        specialty=professional.specialty,
        calendar_id=professional.calendar_id,
        weekly_hours=[
            pb.WorkingHours(
                day_of_week=h.day_of_week, start_time=time_text(h.start), end_time=time_text(h.end)
            )
            for h in professional.weekly_hours
        ],
        exceptions=[
            pb.DateException(
                date=day.date.isoformat(),
                hours=[
                    pb.LocalWindow(start_time=time_text(w.start), end_time=time_text(w.end))
                    for w in day.hours
                ],
                reason=day.reason,
            )
            for day in professional.exceptions
        ],
        service_ids=[str(sid) for sid in professional.service_ids],
        aliases=list(professional.aliases),
        localized_aliases=_localized_messages(professional.localized_aliases),
        etag=etag_of(professional),
    )


def to_faq_entry(message: pb.FaqEntry, *, with_id: bool) -> FaqEntry:
    return build(
        FaqEntry,
        "entry",
        id=parse_uuid("entry.id", message.id) if with_id else uuid4(),
        tenant_id=parse_uuid("entry.tenant_id", message.tenant_id),
        question=message.question,
        answer=message.answer,
        tags=tuple(message.tags),
        localized=tuple(
            build(
                LocalizedFaq,
                f"entry.localized[{i}]",
                language=item.language,
                question=item.question,
                answer=item.answer,
            )
            for i, item in enumerate(message.localized)
        ),
    )


def faq_message(entry: FaqEntry) -> pb.FaqEntry:
    return pb.FaqEntry(
        id=str(entry.id),
        tenant_id=str(entry.tenant_id),
        question=entry.question,
        answer=entry.answer,
        tags=list(entry.tags),
        localized=[
            pb.LocalizedFaq(language=e.language, question=e.question, answer=e.answer)
            for e in entry.localized
        ],
        etag=etag_of(entry),
    )


def to_customer(message: pb.Customer) -> Customer:
    return build(
        Customer,
        "customer",
        tenant_id=parse_uuid("customer.tenant_id", message.tenant_id),
        channel=message.channel,
        external_id=message.external_id,
        name=message.name,
        phone=message.phone,
        email=message.email,
        preferences=tuple(message.preferences),
    )


def customer_message(customer: Customer) -> pb.Customer:
    return pb.Customer(
        id=str(customer.id),
        tenant_id=str(customer.tenant_id),
        name=customer.name,
        channel=customer.channel,
        external_id=customer.external_id,
        phone=customer.phone,
        email=customer.email,
        preferences=list(customer.preferences),
    )
