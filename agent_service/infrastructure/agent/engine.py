"""``ConversationEngine`` implemented with the LangGraph graph and Pydantic AI agents."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, cast
from uuid import UUID

import structlog
from langgraph.graph.state import CompiledStateGraph
from pydantic_ai.usage import RunUsage, UsageLimits

from agenda_kit.calendar.port import ICalendarAdapter
from agent_service.application.booking import Booking
from agent_service.application.consent_policy import Outcome
from agent_service.application.engine import ProgressSink, TurnInput, TurnOutput
from agent_service.application.pending_executions import InProcessExecutions, OnceOnly
from agent_service.application.repositories import Repositories
from agent_service.domain.conversations import (
    EXECUTED_STATE_KEY,
    Citation,
    DecisionResult,
    Role,
)
from agent_service.infrastructure.agent.consent import pending_confirmation, still_pending
from agent_service.infrastructure.agent.deps import AgentDeps, PendingAction, TurnState
from agent_service.infrastructure.agent.graph import TurnContext
from agent_service.infrastructure.agent.repetition import not_repeated
from agent_service.infrastructure.agent.state import ChatState
from agent_service.infrastructure.agent.truth import final_reply, verdict_for

log = structlog.get_logger("agenda.streaming")
STATE_KEYS = (
    "histories",
    "pending_action",
    EXECUTED_STATE_KEY,
    "memory",
    "summary",
    "active_specialist",
    "conversation_language",
)


@dataclass(frozen=True, slots=True)
class ReplyPolicy:
    """``AGENT_CONFIRMATION_TTL_SECONDS``, ``AGENT_MAX_REPLY_CHARS``,
    ``AGENT_REPEATED_YES_SECONDS`` and ``AGENT_CONFIRMATION_READ_SECONDS`` (0 here: an engine
    built without the service's settings, as tests on one fixed clock do, holds no yes back)."""

    confirmation_ttl_seconds: float = 900.0
    max_reply_chars: int = 2000
    repeated_yes_seconds: float = 120.0
    confirmation_read_seconds: float = 0.0


class LangGraphConversationEngine:
    """Runs one turn through the compiled graph; the conversation's ``engine_state`` is the
    checkpoint (kept in MongoDB by the application), so any replica continues any conversation."""

    def __init__(
        self,
        graph: CompiledStateGraph[Any, Any, Any, Any],
        repos: Repositories,
        calendar: ICalendarAdapter,
        booking: Booking,
        limits: UsageLimits,
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
        policy: ReplyPolicy = ReplyPolicy(),
        execution_lease_seconds: float = 60.0,
    ) -> None:
        """``execution_lease_seconds``: how long a confirmed action's claim outlives a holder
        that died running it (the turn lease: a redelivery that takes the message over takes
        the action over too and resumes it under the same key)."""
        self._graph = graph
        self._repos = repos
        self._calendar = calendar
        self._booking = booking
        self._limits = limits
        self._clock = clock
        self._policy = policy
        self._once = OnceOnly(
            repos.executions or InProcessExecutions(clock), lease_seconds=execution_lease_seconds
        )

    async def run_turn(self, turn: TurnInput, progress: ProgressSink | None = None) -> TurnOutput:
        deps = self._deps(turn)
        deps.turn.progress = progress
        context = TurnContext(
            deps=deps, usage=RunUsage(), limits=self._limits, progress=progress, once=self._once
        )
        output = await self._graph.ainvoke(self._initial_state(turn), context=context)
        final = cast(ChatState, output)
        engine_state = {key: final.get(key) for key in STATE_KEYS}
        pending = still_pending(deps)
        text, limit = final.get("response", ""), self._policy.max_reply_chars
        reply = final_reply(
            deps,
            text,
            pending,
            stopped=final.get("status") == "error",
            max_chars=limit,
            verdict=await verdict_for(deps, text, pending, limit),
        )
        reply = not_repeated(deps, turn.conversation, reply, pending, self._policy.max_reply_chars)
        stored = engine_state.get("pending_action")
        if (
            pending is not None
            and isinstance(stored, dict)
            and stored.get("id") == pending.id
            and not stored.get("asked_at")  # asked again: sent when it was first shown
        ):
            # its question is this reply's last words, sent now
            engine_state["pending_action"] = {**stored, "asked_at": self._clock().isoformat()}
        if not reply.startswith(deps.turn.streamed):  # streaming.py makes this impossible
            log.error("streamed_text_not_in_reply", streamed=len(deps.turn.streamed))
        return TurnOutput(
            reply=reply,
            pending=pending_confirmation(deps, pending) if pending is not None else None,
            specialist=final.get("answered_by", "") or final.get("active_specialist", ""),
            actions=tuple(deps.turn.actions),
            engine_state=engine_state,
            active_specialist=final.get("active_specialist", ""),
            summary=final.get("summary", ""),
            handoff_reason=deps.turn.handoff_reason,
            customer_name=final.get("memory", {}).get("name") or None,
            citations=cited(deps.turn.citations, reply),
            decision=decision_result(deps),
            language=deps.turn.language,
        )

    def _deps(self, turn: TurnInput) -> AgentDeps:
        pending = PendingAction.from_json(turn.conversation.engine_state.get("pending_action"))
        return AgentDeps(
            tenant_id=turn.tenant.id,
            customer_id=turn.customer.id,
            tenant_repository=self._repos.tenants,
            service_repository=self._repos.services,
            professional_repository=self._repos.professionals,
            appointment_repository=self._repos.appointments,
            calendar_adapter=self._calendar,
            faq_repository=self._repos.faq,
            booking=self._booking,
            tenant=turn.tenant,
            turn=TurnState(
                now=self._clock(),
                language=turn.tenant.language,
                pending=pending,
                message_id=_message_id(turn),
                confirmation_ttl_seconds=self._policy.confirmation_ttl_seconds,
                repeated_yes_seconds=self._policy.repeated_yes_seconds,
                confirmation_read_seconds=self._policy.confirmation_read_seconds,
                upcoming_read=turn.upcoming,
                decision=turn.decision,
                conversation_id=str(turn.conversation.id),
                customer_texts=customer_texts(turn),
                stream_room=self._policy.max_reply_chars,
                previous_reply=previous_reply(turn),
            ),
        )

    def _initial_state(self, turn: TurnInput) -> ChatState:
        saved = turn.conversation.engine_state
        memory = dict(saved.get("memory") or {})
        if turn.customer.name and not memory.get("name"):
            memory["name"] = turn.customer.name
        return ChatState(
            message=turn.text,
            memory=memory,
            active_specialist=saved.get("active_specialist") or "",
            conversation_language=saved.get("conversation_language") or "",
            pending_action=saved.get("pending_action"),
            last_executed=saved.get(EXECUTED_STATE_KEY),
            histories=dict(saved.get("histories") or {}),
            summary=saved.get("summary") or "",
            escaped_from=[],
            status="new",
            error=None,
        )


_DECISIONS = {
    Outcome.CONFIRMED: DecisionResult.CONFIRMED,
    Outcome.DECLINED: DecisionResult.DECLINED,
    Outcome.EXPIRED: DecisionResult.EXPIRED,
    Outcome.NOT_PENDING: DecisionResult.NOT_PENDING,
    Outcome.ALREADY_DONE: DecisionResult.ALREADY_DONE,
}


def decision_result(deps: AgentDeps) -> DecisionResult:
    """What the message did to the pending action it answered (the response's ``decision``)."""
    if deps.turn.consent is Outcome.CONFIRMED and (deps.turn.already or deps.turn.unsettled):
        return DecisionResult.ALREADY_DONE
    if deps.turn.terms_changed is not None:
        return DecisionResult.NONE  # nothing ran: the changed terms are asked again
    return _DECISIONS.get(deps.turn.consent, DecisionResult.NONE)


def previous_reply(turn: TurnInput) -> str | None:
    """The assistant's latest reply in this conversation, if any."""
    said = [m.text for m in turn.conversation.messages if m.role is Role.ASSISTANT]
    return said[-1] if said else None


CUSTOMER_TEXTS = 20


def customer_texts(turn: TurnInput) -> list[str]:
    """The customer's latest messages in this conversation (what their own words ground)."""
    said = [m.text for m in turn.conversation.messages if m.role is Role.CUSTOMER]
    return said[-CUSTOMER_TEXTS:]


def _message_id(turn: TurnInput) -> str:
    """The channel message id this turn's writes are keyed by (``TurnInput.request_key``)."""
    if turn.request_key:
        return turn.request_key
    messages = turn.conversation.messages
    return messages[-1].message_id if messages else ""


def cited(found: list[dict[str, str]], reply: str) -> tuple[Citation, ...]:
    """The FAQ entries the reply answers from: those whose answer it repeats, else every entry
    the FAQ search returned this turn (a model may paraphrase); none without a search."""
    unique = {item["faq_id"]: item for item in found}.values()
    quoted = [item for item in unique if item.get("answer") and item["answer"] in reply]
    return tuple(
        Citation(faq_id=UUID(item["faq_id"]), question=item.get("question", ""))
        for item in (quoted or unique)
    )
