"""Turns settled in code, with no model request: a confirmed pending action, a decline, a late
yes, a stale structured decision, a handoff the customer explicitly asked for, and a message
that only greets.

Rules:

* **Confirmed** (a structured confirm of the open id, or a plain yes, before it expires): the
  pending action's own tool runs once with exactly its stored arguments (validated against
  the tool's signature, as a model call would be), through the consent gate, under the
  request key of the pending action's id; its outcome is what the tool recorded (booked,
  failed, pending). The same pending action runs at most once across messages and replicas
  (``application/pending_executions.OnceOnly``): a second confirmation restates the first
  one's outcome ("already booked") and runs nothing.
* **Already done** (a tap of the id of the action this conversation already executed, or a
  plain yes right after it: ``application/repeated_confirmations``): its stored outcome is
  looked up in the run-once store and restated; nothing runs. Found nothing (it never
  completed): the message is handled as it would have been.
* **Declined**, **expired** (with nothing else in the message) and **not pending**: nothing
  runs; the reply is the system's account alone (truth.py).
* **Handoff requested** ("quero falar com um atendente", the ``[handoff]`` phrases of
  ``application/handoff_policy``): the handoff tool runs in code whatever a model would do.
* **Only a greeting** as a conversation's first message ("oi", "bom dia!", "hi, how are
  you?": ``application/greeting_policy``): the reply is the system's greeting, sent as
  rendered; the conversation goes on with discovery, as a greeting routed to it would.
"""

from __future__ import annotations

from typing import Any

import structlog
from pydantic import ValidationError
from pydantic_ai import ModelRetry, RunContext, Tool
from pydantic_ai.models import Model
from pydantic_ai.usage import RunUsage

from agent_service.application.consent_policy import Outcome
from agent_service.application.greeting_policy import greets_only
from agent_service.application.handoff_policy import asks_for_person
from agent_service.application.pending_executions import OnceOnly
from agent_service.application.repeated_confirmations import (
    Executed,
    execution_key,
    still_holds,
)
from agent_service.domain.conversations import ActionKind, TurnAction
from agent_service.domain.errors import NotFoundError
from agent_service.infrastructure.agent import messages
from agent_service.infrastructure.agent.agents import AgentSet
from agent_service.infrastructure.agent.deps import AgentDeps, PendingAction
from agent_service.infrastructure.agent.state import ChatState
from agent_service.infrastructure.language.rules import language_rules

log = structlog.get_logger("agenda.confirm")
HANDOFF_TOOL = "handoff_to_human"
GREETER = "discovery"
"""The specialist a greeting-only message's conversation goes on with (as the router sends a
greeting to it)."""
PENDING_OWNERS = {
    "book_appointment": "booking",
    "cancel_appointment": "appointments",
    "reschedule_appointment": "appointments",
}
"""The specialist that owns each write tool (its pending action goes back to it)."""
TASK_ENDS = frozenset(
    {
        ActionKind.APPOINTMENT_BOOKED,
        ActionKind.APPOINTMENT_CANCELLED,
        ActionKind.APPOINTMENT_RESCHEDULED,
    }
)
"""Outcomes that end a task: the next request of any specialist starts from the summary. (A
declined change does not: the customer usually goes on to pick another time, and the
declined one must not be offered again.)"""


def settled_without_model(deps: AgentDeps) -> bool:
    """The message's outcome needs no model: it confirmed, declined, came too late with
    nothing else to say, answered a question that is not open, or said that the open one was
    not understood (the system asks it again)."""
    consent = deps.turn.consent
    if consent is Outcome.EXPIRED:
        return not deps.turn.change_note
    return consent in (
        Outcome.CONFIRMED,
        Outcome.DECLINED,
        Outcome.NOT_PENDING,
        Outcome.ALREADY_DONE,
        Outcome.UNCLEAR,
        Outcome.UNSEEN,
    )


def greets_only_now(deps: AgentDeps, message: str) -> bool:
    """The conversation's first message only greets, and no action waits for an answer
    (``greeting_policy``): none is pending, none is asked again, and the message did nothing
    to one."""
    turn = deps.turn
    waiting = turn.pending or turn.reask or turn.consent is not Outcome.NONE
    if turn.previous_reply is not None or waiting:
        return False
    rules = language_rules()
    greetings = [rules.greeting(code) for code in rules.in_play(deps.turn.language)]
    return greets_only(message, greetings)


def handoff_requested(deps: AgentDeps, message: str) -> bool:
    """The customer explicitly asked to talk to a person (the language data's phrases)."""
    rules = language_rules()
    phrases = [rules.handoff(code) for code in rules.in_play(deps.turn.language)]
    return asks_for_person(message, phrases)


async def run_tool(
    deps: AgentDeps, tool: Tool[AgentDeps], model: Model, arguments: dict[str, Any]
) -> Any:
    """``tool`` called in code as a model's call would be: arguments validated against its
    signature, the same function (progress reporting included)."""
    schema = tool.function_schema
    validated = schema.validator.validate_python(arguments)
    ctx = RunContext(deps=deps, model=model, usage=RunUsage(), tool_name=tool.name)
    return await schema.call(validated, ctx)


async def run_confirmed(
    deps: AgentDeps,
    pending: PendingAction,
    tool: Tool[AgentDeps],
    model: Model,
    once: OnceOnly,
) -> None:
    """Run the confirmed ``pending`` action at most once (see the module's rules)."""
    turn = deps.turn
    key = execution_key(turn.conversation_id, pending.id)

    async def work() -> tuple[TurnAction, ...]:
        before = len(turn.actions)
        turn.message_id = f"pending:{pending.id}"  # the write's request key (resumable)
        try:
            await run_tool(deps, tool, model, dict(pending.arguments))
        except (ModelRetry, ValidationError) as error:
            log.warning("confirmed_action_refused", tool=pending.tool, error=str(error)[:300])
        if len(turn.actions) == before and not turn.proposed and not turn.already:
            # nothing ran and nothing is asked again (what it names is gone, the call was
            # refused): the customer's yes is answered with a failed change, never silence
            reason = messages.text("reason_not_possible", turn.language)
            turn.actions.append(
                TurnAction(kind=ActionKind.CHANGE_FAILED, detail=f"{pending.summary} ({reason})")
            )
        return tuple(turn.actions[before:])

    execution = await once.run(deps.tenant_id, key, work)
    asked_again = turn.pending if turn.proposed and turn.pending is not pending else None
    turn.pending = asked_again  # the terms changed since the question: asked again as they are
    if asked_again is not None:
        turn.terms_changed = pending
    if execution.settled:
        turn.executed = Executed(pending.id, pending.kind, turn.now)
    if not execution.first:
        turn.already = execution.actions if execution.settled else ()
        turn.unsettled = None if execution.settled else pending


async def restate_repeated(deps: AgentDeps, once: OnceOnly) -> None:
    """A confirmation of the conversation's already executed action (``turn.repeated``) is
    answered by that execution's stored outcome: ``Outcome.ALREADY_DONE``."""
    turn = deps.turn
    repeated = turn.repeated
    if repeated is None:
        return
    key = execution_key(turn.conversation_id, repeated.id)
    stored = await once.outcome(deps.tenant_id, key)
    if not stored or not await _still_true(deps, stored):
        turn.repeated = None  # never completed, told nothing, or changed since: not restated
        return
    turn.already = stored
    turn.consent = Outcome.ALREADY_DONE


async def _still_true(deps: AgentDeps, actions: tuple[TurnAction, ...]) -> bool:
    """Every appointment the outcome names is still in the state it tells (still_holds)."""
    for action in actions:
        if action.appointment_id is None:
            continue
        try:
            found = await deps.appointment_repository.get(deps.tenant_id, action.appointment_id)
        except NotFoundError:
            found = None
        if not still_holds(action.kind, found.status if found is not None else None):
            return False
    return True


async def settle_in_code(
    state: ChatState,
    deps: AgentDeps,
    agents: AgentSet,
    names: list[str],
    once: OnceOnly | None,
) -> dict[str, Any] | None:
    """The update of a turn settled with no model request (confirm.py), or None: a confirmed
    pending action runs here; a decline, a late yes or a stale decision needs nothing more;
    an explicit request for a person hands off here; a greeting-only message is greeted."""
    pending = deps.turn.pending
    if once is not None:
        await restate_repeated(deps, once)
    if settled_without_model(deps):
        owner = PENDING_OWNERS.get(pending.tool, "") if pending is not None else ""
        histories = dict(state.get("histories", {}))
        if deps.turn.consent is Outcome.CONFIRMED and pending is not None:
            tool = agents.writes.get(pending.tool)
            if tool is None or once is None or agents.model is None:
                deps.turn.pending = None  # its specialist is off: nothing can run it
            else:
                await run_confirmed(deps, pending, tool, agents.model, once)
            if any(a.kind in TASK_ENDS for a in deps.turn.actions):
                histories = {}
        active = owner if owner in names else state.get("active_specialist", "")
        return {"active_specialist": active, "answered_by": active, "histories": histories}
    tool = agents.writes.get(HANDOFF_TOOL)
    if tool is not None and agents.model is not None and "handoff" in names:
        message = state.get("message", "")
        if handoff_requested(deps, message):
            reason = f"the customer asked for a person: {message.strip()}"[:300]
            await run_tool(deps, tool, agents.model, {"reason": reason})
            return {"active_specialist": "", "answered_by": "handoff", "histories": {}}
    if GREETER in names and greets_only_now(deps, state.get("message", "")):
        greeting = messages.text("greeting", deps.turn.language, business=deps.tenant.name)
        deps.turn.system_text = greeting
        return {"response": greeting, "active_specialist": GREETER, "answered_by": GREETER}
    return None
