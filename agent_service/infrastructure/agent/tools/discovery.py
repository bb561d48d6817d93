"""Read tools: services, professionals and free times (docs/agents.md, "Specialists")."""

from __future__ import annotations

from datetime import date, time, timedelta
from uuid import UUID

from pydantic_ai import ModelRetry, RunContext

from agenda_kit.calendar.errors import CalendarError
from agent_service.domain.availability import local_instant, plan_day
from agent_service.domain.catalog import Service
from agent_service.domain.errors import NotFoundError
from agent_service.infrastructure.agent.calendar_errors import calendar_trouble
from agent_service.infrastructure.agent.deps import AgentDeps
from agent_service.infrastructure.agent.tools.bounds import check_day
from agent_service.infrastructure.agent.tools.formatting import (
    professional_item,
    service_item,
    weekday_name,
)
from agent_service.infrastructure.agent.tools.refusals import day_off_cover
from agent_service.infrastructure.agent.tools.results import (
    AskService,
    DayTimes,
    Failed,
    FreeTimes,
    Professionals,
    ServiceOption,
    Services,
)


async def list_services(ctx: RunContext[AgentDeps], show_customer: bool = False) -> Services:
    """The services offered: duration, price, id, what customers call them.

    Args:
        show_customer: Show the result to the customer as your reply.
    """
    services = await ctx.deps.service_repository.list(ctx.deps.tenant_id)
    language = ctx.deps.turn.language
    listed = Services(
        services=[service_item(service, language) for service in services],
        note="" if services else "No services are registered.",
    )
    return ctx.deps.turn.show(listed, show_customer)


async def list_professionals(
    ctx: RunContext[AgentDeps], show_customer: bool = False
) -> Professionals:
    """The professionals: specialty, services, id.

    Args:
        show_customer: Show the result to the customer as your reply.
    """
    professionals = await ctx.deps.professional_repository.list(ctx.deps.tenant_id)
    services = {str(s.id): s for s in await ctx.deps.service_repository.list(ctx.deps.tenant_id)}
    language = ctx.deps.turn.language
    listed = Professionals(
        professionals=[professional_item(p, services, language) for p in professionals],
        note="" if professionals else "No professionals are registered.",
    )
    return ctx.deps.turn.show(listed, show_customer)


SHORTEST_SERVICE = "shortest service"
"""``DayTimes.service`` when no service was named (the professional's services are all that
long: otherwise the customer is asked which one, ``AskService``)."""
MAX_RANGE_DAYS = 7
Availability = FreeTimes | AskService | Failed


async def check_availability(
    ctx: RunContext[AgentDeps],
    professional_id: UUID,
    target_date: date,
    service_id: UUID | None = None,
    end_date: date | None = None,
    show_customer: bool = False,
) -> Availability:
    """Free start times of a professional on a date, or on each date of a range.

    Args:
        professional_id: From list_professionals.
        target_date: YYYY-MM-DD, business time zone.
        service_id: From list_services; sets the length.
        end_date: Last date of a range, at most 7 days after target_date.
        show_customer: Show the result to the customer as your reply.
    """
    found = await _free_times(ctx, professional_id, target_date, service_id, end_date)
    return ctx.deps.turn.show(found, show_customer)


async def _free_times(
    ctx: RunContext[AgentDeps],
    professional_id: UUID,
    target_date: date,
    service_id: UUID | None,
    end_date: date | None,
) -> Availability:
    if end_date is not None and end_date != target_date:
        if end_date < target_date or (end_date - target_date).days >= MAX_RANGE_DAYS:
            raise ModelRetry(f"end_date must be within {MAX_RANGE_DAYS} days after target_date")
        days = [target_date + timedelta(days=n) for n in range((end_date - target_date).days + 1)]
        found = [await _free_times(ctx, professional_id, day, service_id, None) for day in days]
        failed = next((f for f in found if not isinstance(f, FreeTimes)), None)
        if failed is not None:
            return failed
        every = [day for result in found if isinstance(result, FreeTimes) for day in result.days]
        return FreeTimes(time_zone=ctx.deps.tenant.time_zone, days=every)
    deps = ctx.deps
    check_day(deps, target_date)
    try:
        professional = await deps.professional_repository.get(deps.tenant_id, professional_id)
        duration, label = await _duration(ctx, professional.service_ids, service_id)
    except NotFoundError as error:
        return Failed(result="NOT_FOUND", reason="not_found", note=f"NOT FOUND: {error}")
    except ServiceNeededError as needed:
        return needed.answer(professional.name)
    try:
        starts = await deps.booking.free_slots.execute(
            deps.tenant, professional, target_date, duration
        )
    except CalendarError as error:
        return Failed(
            result="UNAVAILABLE",
            reason="calendar_unavailable",
            note=calendar_trouble(error, deps.turn.language),
        )
    zone = deps.tenant.zone
    closed = not starts and plan_day(professional, target_date, zone).closed
    day_off = False
    if closed and (service_id or professional.service_ids):  # "closed": nobody works then
        team = await deps.professional_repository.list(deps.tenant_id)
        offered = service_id or professional.service_ids[0]
        day_off, _ = day_off_cover(team, professional, offered, target_date, zone)
        closed = not day_off
    local = [start.astimezone(zone) for start in starts]
    offset = local_instant(target_date, time(12), zone).astimezone(zone).strftime("%z")
    day = DayTimes(
        day=target_date.isoformat(),
        weekday=weekday_name(target_date, deps.turn.language),
        professional=professional.name,
        professional_id=str(professional.id),
        service=label,
        minutes=duration,
        times=[f"{t:%H:%M}" for t in local],
        utc_offset=f"{offset[:3]}:{offset[3:]}",
        closed=closed,
        day_off=day_off,
    )
    note = (
        "The business is closed that day (reason=closed_day)."
        if closed
        else "The professional does not work that day (reason=day_off)."
        if day_off
        else ""
    )
    return FreeTimes(time_zone=deps.tenant.time_zone, days=[day], note=note)


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
    return (services[0].duration_minutes if services else 30), SHORTEST_SERVICE


class ServiceNeededError(Exception):
    """The professional's services differ in length: the free times depend on which one."""

    def __init__(self, services: list[Service]) -> None:
        super().__init__("services of different lengths")
        self.services = services

    def answer(self, professional: str) -> AskService:
        return AskService(
            professional=professional,
            options=[ServiceOption(name=s.name, minutes=s.duration_minutes) for s in self.services],
            note="Ask the customer which service, then call again with its service_id.",
        )
