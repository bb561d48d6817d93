# Over 300 lines: the customer's three appointment tools and the rules of each write.
"""The customer's own appointments: list, cancel, reschedule (writes after confirmation)."""

from __future__ import annotations

from datetime import datetime
from uuid import UUID

from pydantic_ai import ModelRetry, RunContext

from agenda_kit.calendar.errors import CalendarError
from agent_service.application.ports import AppointmentFilter
from agent_service.domain.appointments import Appointment, AppointmentStatus
from agent_service.domain.conversations import ActionKind, TurnAction
from agent_service.domain.errors import (
    AgendaError,
    BookingPendingError,
    NotFoundError,
    SlotUnavailableError,
)
from agent_service.infrastructure.agent import messages
from agent_service.infrastructure.agent.calendar_errors import said
from agent_service.infrastructure.agent.consent import confirmed_as_shown, confirmed_call
from agent_service.infrastructure.agent.deps import AgentDeps
from agent_service.infrastructure.agent.tools.booking import not_found, not_free, pending_result
from agent_service.infrastructure.agent.tools.bounds import check_start
from agent_service.infrastructure.agent.tools.confirmation import Proposal, gate
from agent_service.infrastructure.agent.tools.formatting import (
    appointment_item,
    describe,
    local_text,
    moved,
)
from agent_service.infrastructure.agent.tools.outcomes import (
    pending_booking_at,
    record_booking,
    record_outcome,
)
from agent_service.infrastructure.agent.tools.results import (
    Appointments,
    Done,
    Failed,
    NotAvailable,
    Pending,
    Proposed,
)

WriteResult = Proposed | Done | Pending | Failed | NotAvailable


async def list_my_appointments(
    ctx: RunContext[AgentDeps], show_customer: bool = False
) -> Appointments:
    """The customer's upcoming appointments, with ids.

    Args:
        show_customer: Show the result to the customer as your reply.
    """
    return ctx.deps.turn.show(await _upcoming(ctx), show_customer)


async def _upcoming(ctx: RunContext[AgentDeps]) -> Appointments:
    deps = ctx.deps
    selection = AppointmentFilter(
        customer_id=deps.customer_id,
        statuses=(AppointmentStatus.CONFIRMED,),
        start_after=deps.turn.now,
    )
    appointments, _ = await deps.appointment_repository.list(
        deps.tenant_id, selection, page_size=20, page_token=None
    )
    if not appointments:
        return Appointments(appointments=[], note="The customer has no upcoming appointments.")
    zone, language = deps.tenant.zone, deps.turn.language
    # The services' other names let the customer say which one ("my nails appointment").
    services = await deps.service_repository.list(deps.tenant_id)
    aliases = {s.id: s.words(language) for s in services}
    return Appointments(
        appointments=[
            appointment_item(a, zone, language, aliases.get(a.service_id, ())) for a in appointments
        ]
    )


MAX_CANCELLED = 20
"""At most so many appointments cancelled at once: every upcoming one the listing shows."""


async def cancel_appointment(
    ctx: RunContext[AgentDeps], appointment_id: UUID, also: str = ""
) -> WriteResult:
    """Cancel one of the customer's appointments, or several at once. The first call only
    proposes it; repeat it after the customer says yes.

    Args:
        appointment_id: From list_my_appointments.
        also: The further appointment ids to cancel with it, comma-separated, when the
            customer asks to cancel several or all of them. Empty for one.
    """
    deps = ctx.deps
    mine = deps.booking.customer_appointment
    try:  # the named one first: another's id is not found, whatever else was said
        appointments = [await mine.execute(deps.tenant_id, deps.customer_id, appointment_id)]
        ids = list(dict.fromkeys([appointment_id, *_ids(also)]))
        for further in ids[1:]:
            appointments.append(await mine.execute(deps.tenant_id, deps.customer_id, further))
    except NotFoundError as error:
        return not_found(error)
    zone, language = deps.tenant.zone, deps.turn.language
    summaries = [
        describe(a.service_name, a.professional_name, local_text(a.start, zone, language), language)
        for a in appointments
    ]
    summary = " + ".join(summaries)
    arguments = {"appointment_id": str(appointment_id)} | (
        {"also": ",".join(str(i) for i in ids[1:])} if len(ids) > 1 else {}
    )
    proposal = Proposal(ActionKind.APPOINTMENT_CANCELLED, summary, _cancel_terms(appointments))
    blocked = gate(deps, "cancel_appointment", arguments, proposal)
    if blocked is not None:
        return blocked
    done: list[str] = []
    failed: list[tuple[str, str]] = []  # (the appointment, why not)
    for appointment, what in zip(appointments, summaries, strict=True):
        why = await _cancel_one(deps, appointment.id, what)
        if why is None:
            done.append(str(appointment.id))
        else:
            failed.append((what, why))
    if not done:  # each one not cancelled is told (record_outcome), beside the others
        why = "; ".join(w if len(failed) == 1 else f"{what}: {w}" for what, w in failed)
        return Failed(result="NOT_CANCELLED", reason="not_possible", summary=summary,
                      note=f"NOT CANCELLED: {why}")  # fmt: skip
    return Done(result="CANCELLED", summary=summary, appointment_ids=done)


ALSO_FORMAT = "also: appointment ids from list_my_appointments, comma-separated"


def _ids(also: str) -> list[UUID]:
    """The further ids of ``also`` (comma-separated); a malformed one is the model's to fix."""
    pieces = [piece.strip() for piece in also.split(",") if piece.strip()]
    if len(pieces) >= MAX_CANCELLED:
        raise ModelRetry(f"also: at most {MAX_CANCELLED - 1} further appointment ids")
    try:
        return [UUID(piece) for piece in pieces]
    except ValueError as error:
        raise ModelRetry(ALSO_FORMAT) from error


def _cancel_terms(appointments: list[Appointment]) -> dict[str, str]:
    """What the customer is asked to confirm: each appointment's service, professional and
    start (the first's alone for one, as ``consent.restatement`` reads them)."""
    first = appointments[0]
    terms = {
        "service": first.service_name,
        "professional": first.professional_name,
        "start": first.start.isoformat(),
        "appointment_id": str(first.id),
    }
    if len(appointments) == 1:
        return terms
    return terms | {
        "appointment_ids": ",".join(str(a.id) for a in appointments),
        "services": " + ".join(a.service_name for a in appointments),
        "starts": ",".join(a.start.isoformat() for a in appointments),
    }


async def _cancel_one(deps: AgentDeps, appointment_id: UUID, summary: str) -> str | None:
    """Cancel one confirmed appointment and record its outcome; why not, when it failed."""
    try:
        _, changed = await deps.booking.cancel.execute(
            deps.tenant_id, appointment_id, reason="cancelled by the customer", enforce_window=True
        )
    except (CalendarError, AgendaError) as error:
        record_outcome(deps, "cancel", "failed", summary, appointment_id=appointment_id)
        return said(error, deps.turn.language)
    record_booking("cancel", "cancelled" if changed else "already_cancelled")
    done = TurnAction(
        kind=ActionKind.APPOINTMENT_CANCELLED, appointment_id=appointment_id, detail=summary
    )
    if changed:
        deps.turn.actions.append(done)
    else:  # cancelled since it was asked (by the business): told as it is, "already cancelled"
        deps.turn.already = (*deps.turn.already, done)
    return None


async def reschedule_appointment(
    ctx: RunContext[AgentDeps], appointment_id: UUID, new_start_time: datetime
) -> WriteResult:
    """Move one of the customer's appointments (same professional and service). The first
    call only proposes it; repeat it after the customer says yes.

    Args:
        appointment_id: From list_my_appointments.
        new_start_time: ISO 8601 with offset, from check_availability.
    """
    deps = ctx.deps
    check_start(deps, new_start_time, "new_start_time")
    try:
        old = await deps.booking.customer_appointment.execute(
            deps.tenant_id, deps.customer_id, appointment_id
        )
    except NotFoundError as error:
        return not_found(error)
    zone, language = deps.tenant.zone, deps.turn.language
    summary = moved(
        describe(
            old.service_name, old.professional_name, local_text(old.start, zone, language), language
        ),
        local_text(new_start_time, zone, language),
        language,
    )
    arguments = {
        "appointment_id": str(appointment_id),
        "new_start_time": new_start_time.isoformat(),
    }
    proposal = Proposal(
        ActionKind.APPOINTMENT_RESCHEDULED,
        summary,
        {
            "service": old.service_name,
            "professional": old.professional_name,
            "start": old.start.isoformat(),
            "new_start": new_start_time.isoformat(),
            "appointment_id": str(appointment_id),
        },
    )
    confirming = confirmed_as_shown(
        deps.turn.pending, "reschedule_appointment", arguments, proposal.details
    )
    asked = confirmed_call(deps.turn.pending, "reschedule_appointment", arguments)
    if new_start_time == old.start and asked:
        # a confirmed move to where it already is (moved there since it was asked): told as
        # it is, "already rescheduled"
        done = TurnAction(
            kind=ActionKind.APPOINTMENT_RESCHEDULED, appointment_id=appointment_id, detail=summary
        )
        deps.turn.already = (*deps.turn.already, done)
        return Done(result="RESCHEDULED", summary=summary, appointment_ids=[str(appointment_id)])
    if new_start_time == old.start:  # no move: never asked, never "moved" to where it is
        why = messages.text("reason_same_time", language)
        return Failed(result="NOT_RESCHEDULED", reason="same_time", summary=summary,
                      note=f"NOT RESCHEDULED: {why}")  # fmt: skip
    if not confirming:
        # Check before asking: never ask to confirm a move to a time that is not free.
        unavailable = await _move_not_free(deps, old, new_start_time)
        if unavailable is not None:
            return unavailable
    blocked = gate(deps, "reschedule_appointment", arguments, proposal)
    if blocked is not None:
        return blocked
    try:
        new = await deps.booking.reschedule.execute(
            deps.tenant_id, deps.customer_id, appointment_id, new_start_time
        )
    except BookingPendingError:
        record_booking("reschedule", "unconfirmed")
        deps.turn.actions.append(
            TurnAction(kind=ActionKind.APPOINTMENT_PENDING, appointment_id=appointment_id)
        )
        return pending_result(summary)
    except SlotUnavailableError:
        record_outcome(
            deps, "reschedule", "slot_taken", summary, taken=True, appointment_id=appointment_id
        )
        return Failed(result="NOT_RESCHEDULED", reason="slot_taken", summary=summary,
                      note="NOT RESCHEDULED: the new time is not free.")  # fmt: skip
    except (CalendarError, AgendaError) as error:
        pending = await pending_booking_at(deps, new_start_time)
        if pending is not None:
            record_booking("reschedule", "unconfirmed")
            deps.turn.actions.append(
                TurnAction(
                    kind=ActionKind.APPOINTMENT_PENDING, appointment_id=pending, detail=summary
                )
            )
            why = (
                f"{said(error, deps.turn.language)}. The change may complete shortly; do not retry."
            )
            return Pending(result="NOT_CONFIRMED_YET", summary=summary, note=why)
        record_outcome(deps, "reschedule", "failed", summary, appointment_id=appointment_id)
        return Failed(result="NOT_RESCHEDULED", reason="not_possible", summary=summary,
                      note=f"NOT RESCHEDULED: {said(error, deps.turn.language)}")  # fmt: skip
    record_booking("reschedule", "rescheduled")
    deps.turn.actions.append(
        TurnAction(kind=ActionKind.APPOINTMENT_RESCHEDULED, appointment_id=new.id, detail=summary)
    )
    return Done(result="RESCHEDULED", summary=summary, appointment_ids=[str(new.id)])


async def _move_not_free(
    deps: AgentDeps, old: Appointment, start: datetime
) -> NotAvailable | Failed | None:
    """Why the appointment cannot move to ``start`` (same professional and service), or None."""
    try:
        professional = await deps.professional_repository.get(deps.tenant_id, old.professional_id)
        service = await deps.service_repository.get(deps.tenant_id, old.service_id)
    except NotFoundError as error:
        return not_found(error)
    return await not_free(deps, professional, service, start, ignore=(old.start, old.end))
