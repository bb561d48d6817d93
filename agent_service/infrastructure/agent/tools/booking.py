"""The write tool ``book_appointment``: book an appointment, after confirmation
(docs/architecture.md#a-booking-from-the-tool-to-google)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime, timedelta
from uuid import UUID

from pydantic_ai import RunContext

from agenda_kit.calendar.errors import CalendarError
from agent_service.application.ports import AppointmentFilter
from agent_service.application.turn_context import PENDING_READ
from agent_service.domain.appointments import Appointment, AppointmentStatus
from agent_service.domain.catalog import Professional, Service
from agent_service.domain.conversations import ActionKind, TurnAction
from agent_service.domain.errors import (
    AgendaError,
    BookingPendingError,
    NotFoundError,
    PolicyViolationError,
    SlotUnavailableError,
)
from agent_service.infrastructure.agent.calendar_errors import calendar_trouble, said
from agent_service.infrastructure.agent.deps import AgentDeps
from agent_service.infrastructure.agent.tools.bounds import check_start
from agent_service.infrastructure.agent.tools.confirmation import Proposal, confirmation_gate
from agent_service.infrastructure.agent.tools.formatting import describe, local_text
from agent_service.infrastructure.agent.tools.outcomes import (
    pending_booking_at,
    record_booking,
    record_outcome,
)
from agent_service.infrastructure.agent.tools.refusals import (
    day_off_cover,
    nearest,
    refusal_reason,
)


async def book_appointment(
    ctx: RunContext[AgentDeps], professional_id: UUID, service_id: UUID, start_time: datetime
) -> str:
    """Book a service with a professional. The first call only proposes it; repeat the
    call with the same arguments after the customer says yes.

    Args:
        professional_id: From list_professionals.
        service_id: From list_services.
        start_time: ISO 8601 with offset, as check_availability gave it.
    """
    deps = ctx.deps
    check_start(deps, start_time, "start_time")
    try:
        professional = await deps.professional_repository.get(deps.tenant_id, professional_id)
        service = await deps.service_repository.get(deps.tenant_id, service_id)
    except NotFoundError as error:
        return f"NOT FOUND: {error}"
    when = local_text(start_time, deps.tenant.zone, deps.turn.language)
    summary = (
        f"{describe(service.name, professional.name, when, deps.turn.language)}"
        f" ({service.price_text()})"
    )
    arguments = {
        "professional_id": str(professional_id),
        "service_id": str(service_id),
        "start_time": start_time.isoformat(),
    }
    if not professional.offers(service.id):
        return await not_offered(deps, professional, service)
    if not _confirming(deps, arguments):
        # Asking: never ask to confirm a time that is not free. Confirming: the saga
        # re-checks itself — and a redelivered "yes" must resume its own booking, whose
        # event already makes the time look taken.
        unavailable = await _not_free(deps, professional, service, start_time)
        if unavailable is not None:
            return unavailable
        summary += await _also_pending(deps)
    proposal = Proposal(
        ActionKind.APPOINTMENT_BOOKED,
        summary,
        {
            "service": service.name,
            "professional": professional.name,
            "start": start_time.isoformat(),
            "price": service.price_text(),
        },
    )
    blocked = confirmation_gate(deps, "book_appointment", arguments, proposal)
    if blocked is not None:
        return blocked
    return await _book(deps, professional_id, service_id, start_time, summary)


def _confirming(deps: AgentDeps, arguments: dict[str, str]) -> bool:
    """Whether this call is the confirmed run of the booking the customer said yes to."""
    pending = deps.turn.pending
    return (
        pending is not None
        and pending.confirmed
        and pending.tool == "book_appointment"
        and pending.arguments == arguments
    )


async def not_offered(deps: AgentDeps, professional: Professional, service: Service) -> str:
    """Never substitute a professional: say who does offer the service instead."""
    everyone = await deps.professional_repository.list(deps.tenant_id)
    who = ", ".join(p.name for p in everyone if p.offers(service.id)) or "nobody"
    return (
        f"NOT OFFERED: {professional.name} does not offer {service.name}. "
        f"Professionals who do: {who}. Ask the customer which one; never pick one for them."
    )


async def not_free(
    deps: AgentDeps,
    professional: Professional,
    service: Service,
    start: datetime,
    *,
    ignore: tuple[datetime, datetime] | None = None,
) -> str | None:
    """None when ``start`` is free for ``service`` with ``professional`` (a time inside
    ``ignore``, the appointment being moved, counts as free); else why not."""
    if ignore is not None and ignore[0] - (ignore[1] - ignore[0]) < start < ignore[1]:
        return None
    return await _not_free(deps, professional, service, start)


async def _not_free(
    deps: AgentDeps, professional: Professional, service: Service, start: datetime
) -> str | None:
    """Never ask the customer to confirm a time that is not free."""
    day = start.astimezone(deps.tenant.zone).date()
    try:
        starts = await deps.booking.free_slots.execute(
            deps.tenant, professional, day, service.duration_minutes
        )
    except CalendarError as error:
        return f"UNAVAILABLE: {calendar_trouble(error, deps.turn.language)}"
    if start in starts:
        return None
    zone = deps.tenant.zone
    span = (start, start + timedelta(minutes=service.duration_minutes))
    reason = refusal_reason(deps.tenant.policy, professional, zone, span, deps.turn.now)
    day_off = ""
    if reason == "closed_day":
        reason, day_off = await _day_off(deps, professional, service, day)
    offered = nearest(starts, start)
    free = ", ".join(f"{s.astimezone(zone):%H:%M}" for s in offered) or "none"
    more = len(starts) - len(offered)
    return (
        f"NOT AVAILABLE (reason={reason}): {local_text(start, zone, deps.turn.language)} is not "
        f"free for {service.name} with {professional.name}. Nearest free times that day: {free}"
        + (f" ({more} more; check_availability lists them all)." if more > 0 else ".")
        + (
            f" The booking horizon is {deps.tenant.policy.booking_horizon_days} days from today."
            if reason == "beyond_horizon"
            else ""
        )
        + day_off
    )


async def _day_off(
    deps: AgentDeps, professional: Professional, service: Service, day: date
) -> tuple[str, str]:
    """``closed_day`` when nobody works ``day``; else ``day_off`` and who offers the service."""
    team = await deps.professional_repository.list(deps.tenant_id)
    is_open, names = day_off_cover(team, professional, service.id, day, deps.tenant.zone)
    if not is_open:
        return "closed_day", ""
    who = f"; working that day for this service: {', '.join(names)}" if names else ""
    return "day_off", f" {professional.name} does not work that day{who}."


async def _book(
    deps: AgentDeps, professional_id: UUID, service_id: UUID, start: datetime, summary: str
) -> str:
    try:
        appointment = await deps.booking.book.execute(
            deps.tenant_id,
            deps.customer_id,
            professional_id,
            service_id,
            start,
            request_key=deps.turn.message_id or None,
        )
    except BookingPendingError as error:
        record_booking("book", "unconfirmed")
        deps.turn.actions.append(
            TurnAction(
                kind=ActionKind.APPOINTMENT_PENDING,
                appointment_id=error.appointment_id,
                detail=summary,
            )
        )
        return pending_result(summary)
    except (CalendarError, AgendaError) as error:
        return await _not_booked(deps, start, summary, error)
    if appointment.status is AppointmentStatus.PENDING:
        return _unsettled(deps, appointment.id, summary, "the calendar has not answered yet")
    record_booking("book", "booked")
    deps.turn.actions.append(
        TurnAction(
            kind=ActionKind.APPOINTMENT_BOOKED, appointment_id=appointment.id, detail=summary
        )
    )
    return f"BOOKED: {summary}. Appointment id={appointment.id}."


def pending_result(summary: str) -> str:
    """The tool result of a write whose outcome is not known yet: the truth, for the model."""
    return (
        f"PENDING: {summary}. The calendar has not confirmed yet. Tell the customer you are "
        "confirming with the calendar and will message them here in a moment. It is NOT booked "
        "yet and NOT failed: do not book it again and do not offer other times now."
    )


async def _also_pending(deps: AgentDeps) -> str:
    """While a booking of this customer is still being confirmed, a new one is asked about
    explicitly (the confirmation question names the pending one), never silently added."""
    pending = await _pending_bookings(deps)
    if not pending:
        return ""
    zone, language = deps.tenant.zone, deps.turn.language
    waiting = "; ".join(
        describe(a.service_name, a.professional_name, local_text(a.start, zone, language), language)
        for a in pending
    )
    if language == "pt":
        return f" — além de {waiting}, que ainda estou confirmando com a agenda"
    return f" — in addition to {waiting}, which I am still confirming with the calendar"


async def _pending_bookings(deps: AgentDeps) -> Sequence[Appointment]:
    """The customer's bookings still being confirmed: read with the turn's conversation (one
    round trip) while this turn has written nothing, else asked of the store."""
    read = deps.turn.upcoming_read
    if read is not None and read.pending is not None and deps.turn.writes_this_turn == 0:
        return read.pending
    selection = AppointmentFilter(
        customer_id=deps.customer_id, statuses=(AppointmentStatus.PENDING,)
    )
    pending, _ = await deps.appointment_repository.list(
        deps.tenant_id, selection, page_size=PENDING_READ, page_token=None
    )
    return pending


async def _not_booked(deps: AgentDeps, start: datetime, summary: str, error: Exception) -> str:
    """What the stored record says after a failed booking: still pending (the calendar write
    is ambiguous; the reconciler settles it) or not booked at all."""
    pending = await pending_booking_at(deps, start)
    if pending is not None:
        return _unsettled(deps, pending, summary, said(error, deps.turn.language))
    if isinstance(error, SlotUnavailableError):
        record_outcome(deps, "book", "slot_taken", summary, taken=True)
        return f"NOT BOOKED: that time was just taken ({summary}). Offer other free times."
    if isinstance(error, PolicyViolationError):
        record_outcome(deps, "book", "policy_violation", summary)
    else:
        record_outcome(deps, "book", "failed", summary)
    return f"NOT BOOKED: {said(error, deps.turn.language)}"


def _unsettled(deps: AgentDeps, appointment_id: UUID, summary: str, why: str) -> str:
    record_booking("book", "unconfirmed")
    deps.turn.actions.append(
        TurnAction(
            kind=ActionKind.APPOINTMENT_PENDING, appointment_id=appointment_id, detail=summary
        )
    )
    return f"NOT CONFIRMED YET: {why}. The booking may complete shortly; do not retry now."
