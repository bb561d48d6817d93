"""How tools describe things to the model: structured items, and the local date-time text a
customer reads (weekday names from CLDR via Babel, the sentence's frame from the catalog)."""

from __future__ import annotations

from datetime import date, datetime
from zoneinfo import ZoneInfo

from babel.dates import format_date

from agent_service.domain.appointments import Appointment
from agent_service.domain.catalog import Professional, Service
from agent_service.infrastructure.agent import messages
from agent_service.infrastructure.agent.tools.results import (
    AppointmentItem,
    ProfessionalItem,
    ServiceItem,
)
from agent_service.infrastructure.language.lexicon import service_lexicon

WEEKDAYS = {
    language: [format_date(date(2024, 1, 1 + n), "EEEE", locale=language) for n in range(7)]
    for language in messages.CATALOG
}
"""Weekday names per catalog language, Monday first (CLDR)."""


def weekday_name(day: date, language: str) -> str:
    return WEEKDAYS.get(language, WEEKDAYS[messages.DEFAULT_LANGUAGE])[day.weekday()]


def service_item(service: Service, language: str | None = None) -> ServiceItem:
    """A service as the model sees it; ``kinds`` are the lexicon's, strongest first."""
    kinds = service_lexicon().kinds_of((service.name, *service.words(language)))
    return ServiceItem(
        id=str(service.id),
        name=service.name,
        minutes=service.duration_minutes,
        price=service.price_text(),
        aliases=list(service.words(language)),
        kinds=sorted(kinds, key=lambda kind: (-kinds[kind], kind)),
    )


def professional_item(
    professional: Professional, services: dict[str, Service], language: str | None = None
) -> ProfessionalItem:
    offered = [services[str(s)].name for s in professional.service_ids if str(s) in services]
    return ProfessionalItem(
        id=str(professional.id),
        name=professional.name,
        specialty=professional.specialty or "",
        services=offered,
        aliases=list(professional.words(language)),
    )


def local_text(instant: datetime, zone: ZoneInfo, language: str) -> str:
    """``terça-feira 01/12/2026 10:00`` or ``Tuesday 2026-12-01 10:00``."""
    local = instant.astimezone(zone)
    weekday = weekday_name(local.date(), language)
    return messages.text("local_time", language, weekday=weekday, local=local)


def appointment_item(
    appointment: Appointment, zone: ZoneInfo, language: str, aliases: tuple[str, ...] = ()
) -> AppointmentItem:
    return AppointmentItem(
        id=str(appointment.id),
        service=appointment.service_name,
        professional=appointment.professional_name,
        when=local_text(appointment.start, zone, language),
        start=appointment.start.astimezone(zone).isoformat(),
        status=appointment.status.value,
        professional_id=str(appointment.professional_id),
        service_id=str(appointment.service_id),
        service_aliases=list(aliases),
    )


def describe(service: str, professional: str, when: str, language: str) -> str:
    """``Corte com Ana em terça-feira 01/12/2026 10:00`` / ``Cut with Ana on Tuesday …``."""
    with_, on = messages.text("with", language), messages.text("on", language)
    return f"{service} {with_} {professional} {on} {when}"


def moved(description: str, new_when: str, language: str) -> str:
    return f"{description} {messages.text('to', language)} {new_when}"
