"""Reading the tools' stable line formats back (see tools/formatting.py)."""

from __future__ import annotations

import re
from dataclasses import dataclass

_UUID = r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"
_AKA = r"(?: \| also called: (.*?))?"
_SERVICE = re.compile(rf"^- (.+?) \| (\d+) min \| (.+?){_AKA} \| id=({_UUID})$", re.M)
_PROFESSIONAL = re.compile(rf"^- (.+?) \| (.+?) \| services: (.*?){_AKA} \| id=({_UUID})$", re.M)
_APPOINTMENT = re.compile(
    rf"^- (.+?) with (.+?) \| (.+?) \| status=(\w+) \| id=({_UUID})"
    rf" \| professional_id=({_UUID}) \| service_id=({_UUID})$",
    re.M,
)
_TIMES = re.compile(r"^((?:\d{2}:\d{2}(?:, )?)+)", re.M)


@dataclass(frozen=True)
class ServiceInfo:
    name: str
    minutes: int
    price: str
    id: str
    aliases: tuple[str, ...] = ()

    @property
    def words(self) -> tuple[str, ...]:
        """Every way to call it: the name, then its aliases."""
        return (self.name, *self.aliases)


@dataclass(frozen=True)
class ProfessionalInfo:
    name: str
    specialty: str
    services: tuple[str, ...]
    id: str
    aliases: tuple[str, ...] = ()

    @property
    def words(self) -> tuple[str, ...]:
        """Every way to call them: the name, then the aliases."""
        return (self.name, *self.aliases)


@dataclass(frozen=True)
class AppointmentInfo:
    service: str
    professional: str
    when: str
    status: str
    id: str
    professional_id: str
    service_id: str


def services(text: str) -> list[ServiceInfo]:
    return [
        ServiceInfo(m[0], int(m[1]), m[2], m[4], _aliases(m[3])) for m in _SERVICE.findall(text)
    ]


def _aliases(text: str) -> tuple[str, ...]:
    return tuple(a.strip() for a in text.split(";") if a.strip())


def professionals(text: str) -> list[ProfessionalInfo]:
    return [
        ProfessionalInfo(
            m[0], m[1], tuple(s.strip() for s in m[2].split(",") if s.strip()), m[4], _aliases(m[3])
        )
        for m in _PROFESSIONAL.findall(text)
    ]


def appointments(text: str) -> list[AppointmentInfo]:
    return [AppointmentInfo(*m) for m in _APPOINTMENT.findall(text)]


def free_times(text: str) -> list[str]:
    """``["09:00", "09:30", …]`` from a check_availability result."""
    match = _TIMES.search(text.split("\n", 1)[1] if "\n" in text else "")
    return match.group(1).split(", ") if match else []
