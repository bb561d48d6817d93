"""Read tools: services, professionals and free times (docs/agents.md, "Specialists")."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from uuid import UUID

from pydantic_ai import ModelRetry, RunContext

from agenda_kit.calendar.errors import CalendarError
from agent_service.domain.availability import plan_day
from agent_service.domain.catalog import Service
from agent_service.domain.errors import NotFoundError
from agent_service.infrastructure.agent.calendar_errors import calendar_trouble
from agent_service.infrastructure.agent.deps import AgentDeps
from agent_service.infrastructure.agent.tools.bounds import check_day
from agent_service.infrastructure.agent.tools.formatting import (
    WEEKDAYS,
    professional_line,
    service_line,
)


async def list_services(ctx: RunContext[AgentDeps]) -> str:
    """The services offered: duration, price, id."""
    services = await ctx.deps.service_repository.list(ctx.deps.tenant_id)
    if not services:
        return "No services are registered."
    language = ctx.deps.turn.language
    return "Services:\n" + "\n".join(service_line(service, language) for service in services)


async def list_professionals(ctx: RunContext[AgentDeps]) -> str:
    """The professionals: specialty, services, id."""
    professionals = await ctx.deps.professional_repository.list(ctx.deps.tenant_id)
    if not professionals:
        return "No professionals are registered."
    services = {str(s.id): s for s in await ctx.deps.service_repository.list(ctx.deps.tenant_id)}
    lines = [professional_line(p, services, ctx.deps.turn.language) for p in professionals]
    return "Professionals:\n" + "\n".join(lines)


MAX_RANGE_DAYS = 7


async def check_availability(
    ctx: RunContext[AgentDeps],
    professional_id: UUID,
    target_date: date,
    service_id: UUID | None = None,
    end_date: date | None = None,
) -> str:
    """Free start times of a professional on a date, or on each date of a range.

    Args:
        professional_id: From list_professionals.
        target_date: YYYY-MM-DD, business time zone.
        service_id: From list_services; sets the length.
        end_date: Last date of a range, at most 7 days after target_date.
    """
    if end_date is not None and end_date != target_date:
        if end_date < target_date or (end_date - target_date).days >= MAX_RANGE_DAYS:
            raise ModelRetry(f"end_date must be within {MAX_RANGE_DAYS} days after target_date")
        days = [target_date + timedelta(days=n) for n in range((end_date - target_date).days + 1)]
        parts = [await check_availability(ctx, professional_id, day, service_id) for day in days]
        return "\n\n".join(parts)
    deps = ctx.deps
    check_day(deps, target_date)
    try:
        professional = await deps.professional_repository.get(deps.tenant_id, professional_id)
        duration, label = await _duration(ctx, professional.service_ids, service_id)
    except NotFoundError as error:
        return f"NOT FOUND: {error}"
    except ServiceNeededError as needed:
        return needed.answer(professional.name)
    try:
        starts = await deps.booking.free_slots.execute(
            deps.tenant, professional, target_date, duration
        )
    except CalendarError as error:
        return f"UNAVAILABLE: {calendar_trouble(error, deps.turn.language)}"
    weekday = WEEKDAYS[deps.turn.language][target_date.weekday()]
    header = (
        f"Free times for {professional.name} on {target_date.isoformat()} ({weekday}), "
        f"{label} ({duration} min), time zone {deps.tenant.time_zone}:"
    )
    if not starts:
        if plan_day(professional, target_date, deps.tenant.zone).closed:
            return header + "\nNONE (reason=closed_day): the professional does not work that day"
        return header + "\nNONE (no free time that day)"
    return header + "\n" + _times(starts, deps)


def _times(starts: list[datetime], deps: AgentDeps) -> str:
    zone = deps.tenant.zone
    local = [start.astimezone(zone) for start in starts]
    listed = ", ".join(f"{t:%H:%M}" for t in local[:40])
    more = f" (+{len(local) - 40} more)" if len(local) > 40 else ""
    first = local[0].isoformat()
    return f"{listed}{more}\nUse start_time values like {first} (ISO 8601 with offset)."


async def _duration(
    ctx: RunContext[AgentDeps], offered: tuple[UUID, ...], service_id: UUID | None
) -> tuple[int, str]:
    deps = ctx.deps
    if service_id is not None:
        service = await deps.service_repository.get(deps.tenant_id, service_id)
        return service.duration_minutes, service.name
    services = [s for s in await deps.service_repository.list(deps.tenant_id) if s.id in offered]
    if len({s.duration_minutes for s in services}) > 1:
        raise ServiceNeededError(services)
    return (services[0].duration_minutes if services else 30), "shortest service"


class ServiceNeededError(Exception):
    """The professional's services differ in length: the free times depend on which one."""

    def __init__(self, services: list[Service]) -> None:
        super().__init__("services of different lengths")
        self.services = services

    def answer(self, professional: str) -> str:
        listed = "; ".join(f"{s.name} ({s.duration_minutes} min)" for s in self.services)
        return (
            f"ASK SERVICE: {professional} offers services of different lengths ({listed}); "
            "ask the customer which one, then call again with its service_id."
        )
