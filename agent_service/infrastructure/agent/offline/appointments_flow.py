"""The my-appointments specialist's offline behaviour: list, then cancel or reschedule the one
the customer means, after confirmation."""

from __future__ import annotations

import re

from pydantic_ai.messages import ModelResponse

from agent_service.domain.availability import local_instant
from agent_service.infrastructure.agent.offline import catalog
from agent_service.infrastructure.agent.offline.context import OfflineContext
from agent_service.infrastructure.agent.offline.nlu import (
    best_match,
    classify_intent,
    is_negative,
    normalize,
    ordinal_choice,
    parse_when,
)
from agent_service.infrastructure.agent.offline.refusals import refusal_text
from agent_service.infrastructure.agent.offline.replies import say
from agent_service.infrastructure.agent.offline.responses import (
    call,
    confirmation_summary,
    done_summary,
    failure_detail,
    text,
)

_CANCEL = re.compile(r"\b(cancel\w*|desmarc\w*)\b")
_MOVE = re.compile(r"\b(remarc\w*|reagend\w*|mud\w*|troc\w*|reschedul\w*|move|change)\b")
WRITES = ("cancel_appointment", "reschedule_appointment")


def appointments_step(ctx: OfflineContext) -> ModelResponse:
    pending = ctx.pending or {}
    confirmed = pending.get("tool") in WRITES and pending.get("confirmed")
    if confirmed and not ctx.called(pending["tool"]):
        return call(pending["tool"], **pending["arguments"])
    for tool in WRITES:
        result = ctx.result(tool)
        if result is not None:
            return _after_write(ctx, tool, result.text)
    if _declines(ctx) and not ctx.results:
        return text(say("declined", ctx.language))
    listed = ctx.result("list_my_appointments")
    if listed is None:
        return call("list_my_appointments")
    return _act(ctx, catalog.appointments(listed.text))


def _declines(ctx: OfflineContext) -> bool:
    """A "no" declines a pending confirmation; with none pending, a message that reads as
    negative only because it starts with "cancel" ("Cancel my appointment") is the request."""
    if not is_negative(ctx.text):
        return False
    return ctx.pending is not None or classify_intent(ctx.text)[0] != "appointments"


def _act(ctx: OfflineContext, appointments: list[catalog.AppointmentInfo]) -> ModelResponse:
    if not appointments:
        return text(say("no_appointments", ctx.language))
    words = " ".join(normalize(t) for t in ctx.texts[:2])
    wants_move = bool(_MOVE.search(words))
    wants_cancel = bool(_CANCEL.search(words)) and not wants_move
    if not (wants_move or wants_cancel):
        return text(say("appointments", ctx.language, items=_items(appointments)))
    chosen = _choose(ctx, appointments)
    if chosen is None:
        return text(say("which_appointment", ctx.language, items=_items(appointments)))
    if wants_cancel:
        return call("cancel_appointment", appointment_id=chosen.id)
    return _reschedule(ctx, chosen)


def _reschedule(ctx: OfflineContext, chosen: catalog.AppointmentInfo) -> ModelResponse:
    when = parse_when(ctx.text, ctx.now)
    if when.day is None or when.at is None:
        return text(say("ask_new_time", ctx.language, service=chosen.service))
    start = local_instant(when.day, when.at, ctx.zone).astimezone(ctx.zone)
    return call(
        "reschedule_appointment", appointment_id=chosen.id, new_start_time=start.isoformat()
    )


def _choose(
    ctx: OfflineContext, appointments: list[catalog.AppointmentInfo]
) -> catalog.AppointmentInfo | None:
    if len(appointments) == 1:
        return appointments[0]
    index = ordinal_choice(ctx.text, len(appointments))
    if index is None:
        index = best_match(
            ctx.text, [f"{a.service} {a.professional} {a.when}" for a in appointments]
        )
    return appointments[index] if index is not None else None


def _after_write(ctx: OfflineContext, tool: str, result: str) -> ModelResponse:
    summary = confirmation_summary(result)
    if summary is not None:
        key = "confirm_cancel" if tool == "cancel_appointment" else "confirm_reschedule"
        return text(say(key, ctx.language, summary=summary))
    done = done_summary(result)
    if done is not None:
        key = "cancelled" if tool == "cancel_appointment" else "rescheduled"
        return text(say(key, ctx.language, summary=done))
    if result.startswith("PENDING:"):
        return text(say("pending", ctx.language))
    refusal = refusal_text(result, ctx.language)
    if refusal is not None:
        return text(refusal)
    return text(say("failed", ctx.language, detail=failure_detail(result)))


def _items(appointments: list[catalog.AppointmentInfo]) -> str:
    return "\n".join(
        f"{n}. {a.service} — {a.professional} — {a.when}" for n, a in enumerate(appointments, 1)
    )
