# Over 300 lines: one write tool; a visit's parts, checks, saga calls and results share one flow.
"""The write tool ``book_appointment``: book an appointment — or a visit of several services
one right after another — after confirmation
(docs/architecture.md#a-booking-from-the-tool-to-google).

A visit (``then``): every further service starts when the one before ends, on the slot grid
(the first grid start at or after that end), with the first professional unless another is
named. It is checked, proposed and confirmed as one: one question, one yes; each appointment
is then booked on its own saga, and each outcome has its own receipt (one that cannot be made
is said, never dropped).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from uuid import UUID

from pydantic_ai import ModelRetry, RunContext

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
from agent_service.infrastructure.agent import messages
from agent_service.infrastructure.agent.calendar_errors import calendar_trouble, said
from agent_service.infrastructure.agent.consent import confirmed_as_shown
from agent_service.infrastructure.agent.deps import AgentDeps
from agent_service.infrastructure.agent.memory import upcoming_appointments
from agent_service.infrastructure.agent.tools.bounds import check_start
from agent_service.infrastructure.agent.tools.confirmation import Proposal, gate
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
from agent_service.infrastructure.agent.tools.results import (
    Done,
    Failed,
    NotAvailable,
    NotOffered,
    Pending,
    Proposed,
    VisitItem,
)

BookResult = Proposed | Done | Pending | Failed | NotAvailable | NotOffered
MAX_VISIT = 4
THEN_FORMAT = "then: service_id or service_id:professional_id, comma-separated"


@dataclass(frozen=True, slots=True)
class Part:
    """One appointment of a visit."""

    professional: Professional
    service: Service
    start: datetime


async def book_appointment(
    ctx: RunContext[AgentDeps],
    professional_id: UUID,
    service_id: UUID,
    start_time: datetime,
    then: str = "",
) -> BookResult:
    """Book a service with a professional, or a visit of several services one after
    another. The first call only proposes it; repeat the call with the same arguments after
    the customer says yes.

    Args:
        professional_id: From list_professionals.
        service_id: From list_services.
        start_time: ISO 8601 with offset, as check_availability gave it.
        then: The visit's further services in order, comma-separated: service_id, or
            service_id:professional_id for another professional. Empty for one service.
    """
    deps = ctx.deps
    check_start(deps, start_time, "start_time")
    try:
        parts = await _visit(deps, professional_id, service_id, start_time, then)
    except NotFoundError as error:
        return not_found(error)
    for part in parts:
        if not part.professional.offers(part.service.id):
            return await not_offered(deps, part.professional, part.service)
    arguments = {
        "professional_id": str(professional_id),
        "service_id": str(service_id),
        "start_time": start_time.isoformat(),
    } | ({"then": then} if then else {})
    items = [_item(deps, part) for part in parts]
    summary = " + ".join(f"{describe(i.service, i.professional, i.when, deps.turn.language)}"
                         f" ({i.price})" for i in items)  # fmt: skip
    terms = _terms(parts, items) | {"what": summary}  # each item's own terms, no note
    if not confirmed_as_shown(deps.turn.pending, "book_appointment", arguments, terms):
        # Asking: never ask to confirm a time that is not free. Confirming: the saga
        # re-checks itself — and a redelivered "yes" must resume its own booking, whose
        # event already makes the time look taken.
        for part in parts:
            unavailable = await _not_free(deps, part.professional, part.service, part.start)
            if unavailable is not None:
                return unavailable
        summary += await _also_held(deps, parts) + await _also_pending(deps)
    proposal = Proposal(ActionKind.APPOINTMENT_BOOKED, summary, terms)
    blocked = gate(deps, "book_appointment", arguments, proposal, items)
    if blocked is not None:
        return blocked
    return await _book_visit(deps, parts, items)


async def _visit(
    deps: AgentDeps, professional_id: UUID, service_id: UUID, start: datetime, then: str
) -> list[Part]:
    """The visit's appointments, each starting on the grid when the one before ends."""
    professional = await deps.professional_repository.get(deps.tenant_id, professional_id)
    parts = [
        Part(professional, await deps.service_repository.get(deps.tenant_id, service_id), start)
    ]
    following = [piece.strip() for piece in then.split(",") if piece.strip()]
    if len(following) >= MAX_VISIT:
        raise ModelRetry(f"then: at most {MAX_VISIT - 1} further services")
    for piece in following:
        service_text, _, person_text = piece.partition(":")
        try:
            following_service = UUID(service_text)
            following_person = UUID(person_text) if person_text else professional_id
        except ValueError as error:
            raise ModelRetry(THEN_FORMAT) from error
        previous = parts[-1]
        end = previous.start + timedelta(minutes=previous.service.duration_minutes)
        parts.append(
            Part(
                await deps.professional_repository.get(deps.tenant_id, following_person),
                await deps.service_repository.get(deps.tenant_id, following_service),
                next_start(deps, end),
            )
        )
    return parts


def next_start(deps: AgentDeps, end: datetime) -> datetime:
    """The first start on the tenant's slot grid at or after ``end`` (local time)."""
    step = deps.tenant.policy.slot_step_minutes
    local = end.astimezone(deps.tenant.zone)
    minutes = local.hour * 60 + local.minute
    late = (-minutes) % step
    if late == 0 and local.second == 0 and local.microsecond == 0:
        return end
    return (local.replace(second=0, microsecond=0) + timedelta(minutes=late)).astimezone(end.tzinfo)


def _item(deps: AgentDeps, part: Part) -> VisitItem:
    return VisitItem(
        service=part.service.name,
        professional=part.professional.name,
        when=local_text(part.start, deps.tenant.zone, deps.turn.language),
        start=part.start.isoformat(),
        price=part.service.price_text(),
    )


def _terms(parts: Sequence[Part], items: Sequence[VisitItem]) -> dict[str, str]:
    """What the customer is asked to confirm, as the catalog gives it now (the proposal's
    details; a yes runs only on the same: ``consent.confirmed_as_shown``)."""
    professionals = list(dict.fromkeys(item.professional for item in items))
    total = sum(part.service.price_minor for part in parts)
    price = parts[0].service.model_copy(update={"price_minor": total}).price_text()
    return {
        "service": " + ".join(item.service for item in items),
        "professional": ", ".join(professionals),
        "start": items[0].start,
        "price": price,
        "minutes": str(sum(part.service.duration_minutes for part in parts)),
    }


def not_found(error: Exception) -> Failed:
    return Failed(result="NOT_FOUND", reason="not_found", note=f"NOT FOUND: {error}")


async def not_offered(deps: AgentDeps, professional: Professional, service: Service) -> NotOffered:
    """Never substitute a professional: say who does offer the service instead."""
    everyone = await deps.professional_repository.list(deps.tenant_id)
    return NotOffered(
        professional=professional.name,
        service=service.name,
        offered_by=[p.name for p in everyone if p.offers(service.id)],
        note="Ask the customer which professional; never pick one for them.",
    )


async def not_free(
    deps: AgentDeps,
    professional: Professional,
    service: Service,
    start: datetime,
    *,
    ignore: tuple[datetime, datetime] | None = None,
) -> NotAvailable | Failed | None:
    """None when ``start`` is free for ``service`` with ``professional`` (a time inside
    ``ignore``, the appointment being moved, counts as free); else why not."""
    if ignore is not None and ignore[0] - (ignore[1] - ignore[0]) < start < ignore[1]:
        return None
    return await _not_free(deps, professional, service, start)


async def _not_free(
    deps: AgentDeps, professional: Professional, service: Service, start: datetime
) -> NotAvailable | Failed | None:
    """Never ask the customer to confirm a time that is not free."""
    day = start.astimezone(deps.tenant.zone).date()
    try:
        starts = await deps.booking.free_slots.execute(
            deps.tenant, professional, day, service.duration_minutes
        )
    except CalendarError as error:
        return Failed(
            result="UNAVAILABLE",
            reason="calendar_unavailable",
            note=calendar_trouble(error, deps.turn.language),
        )
    if start in starts:
        return None
    zone = deps.tenant.zone
    span = (start, start + timedelta(minutes=service.duration_minutes))
    reason = refusal_reason(deps.tenant.policy, professional, zone, span, deps.turn.now)
    working: list[str] = []
    if reason == "closed_day":
        reason, working = await _day_off(deps, professional, service, day)
    offered = nearest(starts, start)
    return NotAvailable(
        reason=reason,
        asked=local_text(start, zone, deps.turn.language),
        service=service.name,
        professional=professional.name,
        nearest=[f"{s.astimezone(zone):%H:%M}" for s in offered],
        more=max(0, len(starts) - len(offered)),
        horizon_days=(
            deps.tenant.policy.booking_horizon_days if reason == "beyond_horizon" else None
        ),
        working_that_day=working,
        note="Offer the nearest free times (check_availability lists them all).",
    )


async def _day_off(
    deps: AgentDeps, professional: Professional, service: Service, day: date
) -> tuple[str, list[str]]:
    """``closed_day`` when nobody works ``day``; else ``day_off`` and who offers the service."""
    team = await deps.professional_repository.list(deps.tenant_id)
    is_open, names = day_off_cover(team, professional, service.id, day, deps.tenant.zone)
    return ("day_off", names) if is_open else ("closed_day", [])


async def _book_visit(
    deps: AgentDeps, parts: Sequence[Part], items: Sequence[VisitItem]
) -> BookResult:
    """Each appointment on its own saga; the visit's result says what was done."""
    results = []
    for n, (part, item) in enumerate(zip(parts, items, strict=True)):
        said = describe(item.service, item.professional, item.when, deps.turn.language)
        summary = f"{said} ({item.price})"
        key = deps.turn.message_id + (f"#{n}" if n else "")
        results.append(await _book(deps, part, summary, key))
    if len(results) == 1:
        return results[0]
    booked = [r for r in results if isinstance(r, Done)]
    if not booked:
        return results[0]
    return Done(
        result="BOOKED",
        summary=" + ".join(r.summary for r in booked),
        appointment_ids=[i for r in booked for i in r.appointment_ids],
        items=[i for r, i in zip(results, items, strict=True) if isinstance(r, Done)],
        note=" ".join(r.note or f"{r.result}: {r.summary}." for r in results),
    )


async def _book(deps: AgentDeps, part: Part, summary: str, key: str) -> Done | Pending | Failed:
    try:
        appointment = await deps.booking.book.execute(
            deps.tenant_id,
            deps.customer_id,
            part.professional.id,
            part.service.id,
            part.start,
            request_key=key or None,
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
        return await _not_booked(deps, part.start, summary, error)
    if appointment.status is AppointmentStatus.PENDING:
        return _unsettled(deps, appointment.id, summary, "the calendar has not answered yet")
    record_booking("book", "booked")
    deps.turn.actions.append(
        TurnAction(
            kind=ActionKind.APPOINTMENT_BOOKED, appointment_id=appointment.id, detail=summary
        )
    )
    return Done(result="BOOKED", summary=summary, appointment_ids=[str(appointment.id)])


def pending_result(summary: str) -> Pending:
    """The result of a write whose outcome is not known yet: the truth, for the model."""
    return Pending(
        result="PENDING",
        summary=summary,
        note=(
            "The calendar has not confirmed yet. Tell the customer you are confirming with the "
            "calendar and will message them here in a moment. It is NOT booked yet and NOT "
            "failed: do not book it again and do not offer other times now."
        ),
    )


async def _also_held(deps: AgentDeps, parts: Sequence[Part]) -> str:
    """A booking of a service the customer already has coming up is asked about as one
    more appointment: the confirmation question names the one they hold (a customer who
    meant to move it sees that a yes books a second one)."""
    services = {part.service.id for part in parts}
    held = [a for a in await upcoming_appointments(deps) if a.service_id in services]
    return _named("also_held", deps, held)


async def _also_pending(deps: AgentDeps) -> str:
    """While a booking of this customer is still being confirmed, a new one is asked about
    explicitly (the confirmation question names the pending one), never silently added."""
    return _named("also_pending", deps, await _pending_bookings(deps))


def _named(key: str, deps: AgentDeps, appointments: Sequence[Appointment]) -> str:
    """The catalog's ``key`` clause naming ``appointments`` ("" when there are none)."""
    if not appointments:
        return ""
    zone, language = deps.tenant.zone, deps.turn.language
    named = "; ".join(
        describe(a.service_name, a.professional_name, local_text(a.start, zone, language), language)
        for a in appointments
    )
    return messages.text(key, language, appointments=named)


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


async def _not_booked(
    deps: AgentDeps, start: datetime, summary: str, error: Exception
) -> Pending | Failed:
    """What the stored record says after a failed booking: still pending (the calendar write
    is ambiguous; the reconciler settles it) or not booked at all."""
    pending = await pending_booking_at(deps, start)
    if pending is not None:
        return _unsettled(deps, pending, summary, said(error, deps.turn.language))
    if isinstance(error, SlotUnavailableError):
        record_outcome(deps, "book", "slot_taken", summary, taken=True)
        why = "NOT BOOKED: that time was just taken. Offer other free times."
        return Failed(result="NOT_BOOKED", reason="slot_taken", summary=summary, note=why)
    if isinstance(error, PolicyViolationError):
        record_outcome(deps, "book", "policy_violation", summary)
    else:
        record_outcome(deps, "book", "failed", summary)
    return Failed(result="NOT_BOOKED", reason="not_possible", summary=summary,
                  note=f"NOT BOOKED: {said(error, deps.turn.language)}")  # fmt: skip


def _unsettled(deps: AgentDeps, appointment_id: UUID, summary: str, why: str) -> Pending:
    record_booking("book", "unconfirmed")
    deps.turn.actions.append(
        TurnAction(
            kind=ActionKind.APPOINTMENT_PENDING, appointment_id=appointment_id, detail=summary
        )
    )
    return Pending(
        result="NOT_CONFIRMED_YET",
        summary=summary,
        note=f"{why}. The booking may complete shortly; do not retry now.",
    )
