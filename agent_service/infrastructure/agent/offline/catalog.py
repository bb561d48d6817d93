"""Reading the tools' stable line formats back (see tools/formatting.py)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, time

_UUID = r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"
_AKA = r"(?: \| also called: (.*?))?"
_SERVICE = re.compile(rf"^- (.+?) \| (\d+) min \| (.+?){_AKA} \| id=({_UUID})$", re.M)
_PROFESSIONAL = re.compile(rf"^- (.+?) \| (.+?) \| services: (.*?){_AKA} \| id=({_UUID})$", re.M)
_APPOINTMENT = re.compile(
    rf"^- (.+?) with (.+?) \| (.+?) \| status=(\w+) \| id=({_UUID})"
    rf" \| professional_id=({_UUID}) \| service_id=({_UUID})"
    r"(?: \| service also called: (.*?))?$",
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
    aliases: tuple[str, ...] = ()
    """The service's other names ("unha em gel", "gel nails"), to tell appointments apart."""

    @property
    def words(self) -> tuple[str, ...]:
        return (self.service, *self.aliases)

    @property
    def day(self) -> date | None:
        """The local date in :attr:`when` (``terça-feira 01/12/2026 10:00`` or
        ``Tuesday 2026-12-01 10:00``)."""
        found = _DMY.search(self.when)
        if found:
            return date(int(found[3]), int(found[2]), int(found[1]))
        found = _YMD.search(self.when)
        return date(int(found[1]), int(found[2]), int(found[3])) if found else None

    @property
    def at(self) -> time | None:
        found = _HM.search(self.when)
        return time(int(found[1]), int(found[2])) if found else None


_DMY = re.compile(r"\b(\d{2})/(\d{2})/(\d{4})\b")
_YMD = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b")
_HM = re.compile(r"\b(\d{2}):(\d{2})\b")


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
    return [
        AppointmentInfo(
            service=m[0], professional=m[1], when=m[2], status=m[3], id=m[4],
            professional_id=m[5], service_id=m[6], aliases=_aliases(m[7]),
        )
        for m in _APPOINTMENT.findall(text)
    ]  # fmt: skip


def free_times(text: str) -> list[str]:
    """``["09:00", "09:30", …]`` from a check_availability result."""
    match = _TIMES.search(text.split("\n", 1)[1] if "\n" in text else "")
    return match.group(1).split(", ") if match else []
