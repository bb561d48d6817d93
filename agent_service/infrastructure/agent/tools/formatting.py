"""How tools describe things to the model: short, stable, parseable lines."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from agent_service.domain.appointments import Appointment
from agent_service.domain.catalog import Professional, Service

WEEKDAYS = {
    "pt": [
        "segunda-feira",
        "terça-feira",
        "quarta-feira",
        "quinta-feira",
        "sexta-feira",
        "sábado",
        "domingo",
    ],
    "en": ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"],
}


def service_line(service: Service) -> str:
    return (
        f"- {service.name} | {service.duration_minutes} min | {service.price_text()}"
        f" | id={service.id}"
    )


def professional_line(professional: Professional, services: dict[str, Service]) -> str:
    offered = ", ".join(
        services[str(sid)].name for sid in professional.service_ids if str(sid) in services
    )
    return (
        f"- {professional.name} | {professional.specialty or '-'} | services: {offered or '-'}"
        f" | id={professional.id}"
    )


def local_text(instant: datetime, zone: ZoneInfo, language: str) -> str:
    """``terça-feira 01/12/2026 10:00`` or ``Tuesday 2026-12-01 10:00``."""
    local = instant.astimezone(zone)
    weekday = WEEKDAYS[language][local.weekday()]
    if language == "pt":
        return f"{weekday} {local:%d/%m/%Y %H:%M}"
    return f"{weekday} {local:%Y-%m-%d %H:%M}"


def appointment_line(appointment: Appointment, zone: ZoneInfo, language: str) -> str:
    return (
        f"- {appointment.service_name} with {appointment.professional_name} | "
        f"{local_text(appointment.start, zone, language)} | status={appointment.status.value}"
        f" | id={appointment.id} | professional_id={appointment.professional_id}"
        f" | service_id={appointment.service_id}"
    )


_WITH = {"pt": "com", "en": "with"}
_ON = {"pt": "em", "en": "on"}
_TO = {"pt": "para", "en": "to"}


def describe(service: str, professional: str, when: str, language: str) -> str:
    """``Corte com Ana em terça-feira 01/12/2026 10:00`` / ``Cut with Ana on Tuesday …``."""
    return f"{service} {_WITH[language]} {professional} {_ON[language]} {when}"


def moved(description: str, new_when: str, language: str) -> str:
    return f"{description} {_TO[language]} {new_when}"
