"""``prepare`` and ``remember``: what the assistant knows before a turn and keeps after it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from agent_service.application.consent_policy import Outcome
from agent_service.application.customer_names import extract_name
from agent_service.application.ports import AppointmentFilter
from agent_service.application.repeated_confirmations import Executed, after_turn
from agent_service.application.text import normalize
from agent_service.domain.appointments import Appointment, AppointmentStatus
from agent_service.domain.errors import StorageUnavailableError
from agent_service.infrastructure.agent.catalog_facts import entity_words
from agent_service.infrastructure.agent.consent import decide_pending, still_pending
from agent_service.infrastructure.agent.deps import AgentDeps, PendingAction
from agent_service.infrastructure.agent.state import ChatState
from agent_service.infrastructure.agent.tools.formatting import WEEKDAYS, describe, local_text
from agent_service.infrastructure.language import language_detector
from agent_service.infrastructure.language.grammar.asks import QUESTION
from agent_service.infrastructure.language.rules import language_rules

UPCOMING_IN_MEMORY = 3
DONE_IN_MEMORY = 3
DONE_CHARS = 120


def task_summary(done: list[str], deps: AgentDeps) -> list[str]:
    """What earlier tasks achieved, newest last, built in code from the turn's outcomes (no
    model call): e.g. ``appointment booked: Corte with Ana, Tue 10:00``. A specialist starting a
    new task gets this instead of the earlier tasks' messages."""
    lines = [
        f"{action.kind.value.replace('_', ' ')}: {action.detail}"[:DONE_CHARS]
        for action in deps.turn.actions
    ]
    return [*done, *lines][-DONE_IN_MEMORY:]


AWAITING = "; awaiting confirmation: "


def memory_text(memory: dict[str, Any], pending: PendingAction | None) -> str:
    """The context block's memory line. A write the customer just confirmed is shown in full
    as the pending action: the summary does not repeat it (what still awaits an answer is
    named only when the customer did not confirm, e.g. they asked something else)."""
    shown = dict(memory)
    if pending is not None and shown.get("summary"):
        shown["summary"] = str(shown["summary"]).replace(AWAITING + pending.summary, "")
    return "; ".join(f"{key}: {value}" for key, value in shown.items() if value)


async def _names(deps: AgentDeps) -> frozenset[str] | None:
    """The folded words of the tenant's names a question beside a proposal is read against;
    ``None`` when the catalog cannot be read now (the question is then no aside)."""
    try:
        return await entity_words(deps)
    except StorageUnavailableError:
        return None


async def prepare_turn(state: ChatState, deps: AgentDeps) -> dict[str, Any]:
    """Date and weekday in the tenant's zone, the customer's memory, and the confirmation
    decision (consent.decide_pending, in code: a structured confirm of the open id or a plain
    yes confirms; the graph's router then runs the action with no model request)."""
    turn, tenant = deps.turn, deps.tenant
    message = state.get("message", "")
    settled = state.get("conversation_language") or None
    language, is_settled = language_detector().conversation_language(
        message, settled, turn.language
    )
    turn.language = language
    stored = PendingAction.from_json(state.get("pending_action"))
    names = (
        await _names(deps) if stored is not None and QUESTION.search(normalize(message)) else None
    )
    decide_pending(deps, stored, message, Executed.from_json(state.get("last_executed")), names)
    memory = await _memory(state, deps)
    turn.upcoming = list(memory["upcoming"])
    turn.memory = memory_text(memory, turn.pending)
    local_now = turn.now.astimezone(tenant.zone)
    return {
        "language": turn.language,
        "conversation_language": language if is_settled else "",
        "current_datetime": local_now.isoformat(timespec="minutes"),
        "current_weekday": WEEKDAYS[turn.language][local_now.weekday()],
        "memory": memory,
        "status": "routing",
    }


async def upcoming_appointments(deps: AgentDeps) -> Sequence[Appointment]:
    """The customer's first ``UPCOMING_IN_MEMORY`` confirmed appointments from now on, by
    start: the ones the context's memory names (read with the conversation: no query when
    that read tells)."""
    read = deps.turn.upcoming_read
    known = None if read is None else read.from_(deps.turn.now, UPCOMING_IN_MEMORY)
    if known is not None:
        return known
    selection = AppointmentFilter(
        customer_id=deps.customer_id,
        statuses=(AppointmentStatus.CONFIRMED,),
        start_after=deps.turn.now,
    )
    upcoming, _ = await deps.appointment_repository.list(
        deps.tenant_id, selection, page_size=UPCOMING_IN_MEMORY, page_token=None
    )
    return upcoming


async def _memory(state: ChatState, deps: AgentDeps) -> dict[str, Any]:
    upcoming = await upcoming_appointments(deps)
    zone, language = deps.tenant.zone, deps.turn.language
    return {
        "name": state.get("memory", {}).get("name", ""),
        "upcoming": [
            describe(
                a.service_name, a.professional_name, local_text(a.start, zone, language), language
            )
            for a in upcoming
        ],
        "summary": state.get("summary", ""),
        "done": " / ".join(state.get("memory", {}).get("done", [])),
    }


def remember_turn(state: ChatState, deps: AgentDeps) -> dict[str, Any]:
    """A short memory for the next turn: the customer's name if they said it, what was
    discussed, and any write still waiting for confirmation."""
    memory = dict(state.get("memory", {}))
    rules = language_rules()
    phrases = [rules.names(code) for code in rules.in_play(deps.turn.language)]
    name = extract_name(state.get("message", ""), phrases)
    if name:
        memory["name"] = name
    memory["done"] = task_summary(memory.get("done", []), deps)
    pending = still_pending(deps)
    topic = state.get("answered_by") or state.get("active_specialist") or "none"
    summary = f"last topic: {topic}"
    if pending is not None:
        summary += f"{AWAITING}{pending.summary}"
    if deps.turn.handoff_reason:
        summary += f"; handed off: {deps.turn.handoff_reason}"
    active = "" if deps.turn.handoff_reason else state.get("active_specialist", "")
    kept = after_turn(
        Executed.from_json(state.get("last_executed")),
        deps.turn.executed,
        in_code=deps.turn.consent in (Outcome.ALREADY_DONE, Outcome.NOT_PENDING),
        acted=bool(deps.turn.actions),
    )
    return {
        "memory": memory,
        "summary": summary,
        "pending_action": pending.to_json() if pending is not None else None,
        "last_executed": kept.to_json() if kept is not None else None,
        "active_specialist": active,
        "status": "error" if state.get("status") == "error" else "done",
    }
