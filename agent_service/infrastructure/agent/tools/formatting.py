"""How tools describe things to the model: short, stable, parseable lines."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from agent_service.domain.appointments import Appointment
from agent_service.domain.catalog import Professional, Service
from agent_service.infrastructure.agent import messages

WEEKDAYS = {
    language: messages.text("weekdays", language).split("|") for language in messages.CATALOG
}


def service_line(service: Service, language: str | None = None) -> str:
    return (
        f"- {service.name} | {service.duration_minutes} min | {service.price_text()}"
        f"{_aka(service.words(language))} | id={service.id}"
    )


def professional_line(
    professional: Professional, services: dict[str, Service], language: str | None = None
) -> str:
    offered = ", ".join(
        services[str(sid)].name for sid in professional.service_ids if str(sid) in services
    )
    return (
        f"- {professional.name} | {professional.specialty or '-'} | services: {offered or '-'}"
        f"{_aka(professional.words(language))} | id={professional.id}"
    )


def _aka(aliases: tuple[str, ...]) -> str:
    """`` | also called: a; b`` (what customers may call it), or nothing."""
    return f" | also called: {'; '.join(aliases)}" if aliases else ""


def local_text(instant: datetime, zone: ZoneInfo, language: str) -> str:
    """``terça-feira 01/12/2026 10:00`` or ``Tuesday 2026-12-01 10:00``."""
    local = instant.astimezone(zone)
    weekday = WEEKDAYS.get(language, WEEKDAYS[messages.DEFAULT_LANGUAGE])[local.weekday()]
    return messages.text("local_time", language, weekday=weekday, local=local)


def appointment_line(appointment: Appointment, zone: ZoneInfo, language: str) -> str:
    return (
        f"- {appointment.service_name} with {appointment.professional_name} | "
        f"{local_text(appointment.start, zone, language)} | status={appointment.status.value}"
        f" | id={appointment.id} | professional_id={appointment.professional_id}"
        f" | service_id={appointment.service_id}"
    )


def describe(service: str, professional: str, when: str, language: str) -> str:
    """``Corte com Ana em terça-feira 01/12/2026 10:00`` / ``Cut with Ana on Tuesday …``."""
    with_, on = messages.text("with", language), messages.text("on", language)
    return f"{service} {with_} {professional} {on} {when}"


def moved(description: str, new_when: str, language: str) -> str:
    return f"{description} {messages.text('to', language)} {new_when}"
