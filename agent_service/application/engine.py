"""The port to the conversational engine (LangGraph + Pydantic AI live behind it)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Protocol, cast, runtime_checkable

from agent_service.application.consent_policy import StructuredDecision
from agent_service.application.turn_context import Upcoming
from agent_service.domain.catalog import Customer, Tenant
from agent_service.domain.conversations import (
    Citation,
    Conversation,
    DecisionResult,
    PendingConfirmation,
    TurnAction,
)


@dataclass(frozen=True, slots=True, kw_only=True)
class TurnInput:
    """One customer message with everything known about who sent it and where."""

    tenant: Tenant
    customer: Customer
    conversation: Conversation
    text: str
    trace_id: str
    upcoming: Upcoming | None = None
    """The customer's next confirmed appointments, when read with the conversation."""
    decision: StructuredDecision | None = None
    """A tapped quick reply (a structured confirm/decline of a pending action's id)."""
    request_key: str = ""
    """The key of what this turn writes (a booking's request key): the channel id of the
    FIRST message it answers, the same on every run of it (a burst may grow when its turn is
    started again, never at its head). Empty: the conversation's last message id."""


@dataclass(frozen=True, slots=True, kw_only=True)
class TurnOutput:
    """What the engine decided: the reply, outcomes, and the state to keep for next turn."""

    reply: str
    specialist: str
    actions: tuple[TurnAction, ...] = ()
    engine_state: dict[str, Any] = field(default_factory=dict)
    active_specialist: str = ""
    summary: str = ""
    handoff_reason: str | None = None
    customer_name: str | None = None
    pending: PendingConfirmation | None = None
    citations: tuple[Citation, ...] = ()
    decision: DecisionResult = DecisionResult.NONE
    language: str = ""


@dataclass(frozen=True, slots=True)
class ProgressEvent:
    """A stage that started (``progress``) or a chunk of reply text (``text``)."""

    progress: str = ""
    text: str = ""


ProgressSink = Callable[[ProgressEvent], Awaitable[None]]


@runtime_checkable
class TextGateSink(Protocol):
    """A progress sink that says whether reply text sent to it reaches a caller."""

    takes_text: bool

    async def __call__(self, event: ProgressEvent) -> None: ...


def takes_text(sink: ProgressSink | None) -> bool:
    """Whether the reply's text, streamed to ``sink``, reaches anyone: not with no sink, and
    not when the sink says it drops text (a SendMessage turn); the engine then asks the model
    for its responses whole, with none of the streaming work."""
    if sink is None:
        return False
    # What ``isinstance(sink, TextGateSink)`` checks first (its two members, as the runtime
    # protocol reads them), without the protocol's slow generic check on every turn.
    if hasattr(sink, "takes_text") and getattr(sink, "__call__", None) is not None:  # noqa: B004
        return cast(TextGateSink, sink).takes_text
    return sink.takes_text if isinstance(sink, TextGateSink) else True


class ConversationEngine(Protocol):
    async def run_turn(self, turn: TurnInput, progress: ProgressSink | None = None) -> TurnOutput:
        """Answer one message. Business rules (tenant scoping, confirmation before any
        booking, usage limits) are enforced inside, whatever the model does."""
        ...
