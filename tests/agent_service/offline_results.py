"""Structured tool results as the offline model reads them, for unit tests of its rules
(the same models the tools return: agent/tools/results.py)."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from agent_service.infrastructure.agent.offline.context import ToolResult
from agent_service.infrastructure.agent.tools.results import (
    AppointmentItem,
    Appointments,
    NotAvailable,
    Reason,
)

SP = ZoneInfo("America/Sao_Paulo")
ID = "00000000-0000-0000-0000-0000000000{:02d}"


def appointment(
    n: int, service: str, who: str, start: datetime, aliases: tuple[str, ...] = ()
) -> AppointmentItem:
    local = start.astimezone(SP)
    return AppointmentItem(
        id=ID.format(n),
        service=service,
        professional=who,
        when=f"{local:%A %d/%m/%Y %H:%M}",
        start=local.isoformat(),
        status="confirmed",
        professional_id=ID.format(n + 10),
        service_id=ID.format(n + 20),
        service_aliases=list(aliases),
    )


def listed(*items: AppointmentItem) -> ToolResult:
    """A ``list_my_appointments`` return."""
    data = Appointments(appointments=list(items))
    return ToolResult("list_my_appointments", data.model_dump_json(), data=data)


def refused(reason: Reason, nearest: tuple[str, ...] = (), **fields: object) -> ToolResult:
    """A ``NOT_AVAILABLE`` return of ``book_appointment``."""
    values: dict[str, object] = {
        "asked": "Monday 10:00", "service": "Corte", "professional": "Lucas",
    } | fields  # fmt: skip
    data = NotAvailable(reason=reason, nearest=list(nearest), **values)
    return ToolResult("book_appointment", data.model_dump_json(), data=data)
