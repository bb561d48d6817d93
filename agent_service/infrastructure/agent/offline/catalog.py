"""What the offline model reads from the tools' structured results (tools/results.py): the
fields, never the prose."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, time

from agent_service.infrastructure.agent.offline.context import ToolResult
from agent_service.infrastructure.agent.offline.matching import initials
from agent_service.infrastructure.agent.tools.results import (
    Appointments,
    FreeTimes,
    Professionals,
    Services,
)


@dataclass(frozen=True)
class ServiceInfo:
    name: str
    minutes: int
    price: str
    id: str
    aliases: tuple[str, ...] = ()

    @property
    def words(self) -> tuple[str, ...]:
        """Every way to call it: the name, its aliases, then its initials when the name has
        three words or more that are no function words ("RPG" for "Reeducação Postural
        Global": :func:`matching.initials`)."""
        short = initials(self.name)
        return (self.name, *self.aliases, *((short,) if short else ()))


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
    start: str = ""

    @property
    def words(self) -> tuple[str, ...]:
        return (self.service, *self.aliases)

    @property
    def day(self) -> date | None:
        return datetime.fromisoformat(self.start).date() if self.start else None

    @property
    def at(self) -> time | None:
        return (
            datetime.fromisoformat(self.start).time().replace(tzinfo=None) if self.start else None
        )


def services(result: ToolResult | None) -> list[ServiceInfo]:
    data = result.data if result is not None else None
    if not isinstance(data, Services):
        return []
    return [ServiceInfo(s.name, s.minutes, s.price, s.id, tuple(s.aliases)) for s in data.services]


def professionals(result: ToolResult | None) -> list[ProfessionalInfo]:
    data = result.data if result is not None else None
    if not isinstance(data, Professionals):
        return []
    return [
        ProfessionalInfo(p.name, p.specialty, tuple(p.services), p.id, tuple(p.aliases))
        for p in data.professionals
    ]


def appointments(result: ToolResult | None) -> list[AppointmentInfo]:
    data = result.data if result is not None else None
    if not isinstance(data, Appointments):
        return []
    return [
        AppointmentInfo(
            service=a.service, professional=a.professional, when=a.when, status=a.status,
            id=a.id, professional_id=a.professional_id, service_id=a.service_id,
            aliases=tuple(a.service_aliases), start=a.start,
        )
        for a in data.appointments
    ]  # fmt: skip


def checked_minutes(results: list[ToolResult]) -> int:
    """The length of the service whose free times were checked last (0: none yet)."""
    for result in reversed(results):
        if isinstance(result.data, FreeTimes) and result.data.days:
            return result.data.days[0].minutes
    return 0


def free_times(result: ToolResult | None) -> list[str]:
    """``["09:00", "09:30", …]``: the first day of a check_availability result."""
    data = result.data if result is not None else None
    if not isinstance(data, FreeTimes) or not data.days:
        return []
    return list(data.days[0].times)
