"""``AgentDeps`` (what every agent and tool of a turn receives, see
docs/architecture.md#ports-and-adapters) and the per-turn context the tools share."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, TypeVar
from uuid import UUID

from agenda_kit.calendar.port import ICalendarAdapter
from agent_service.application.booking import Booking
from agent_service.application.consent_policy import Outcome, StructuredDecision
from agent_service.application.engine import ProgressSink
from agent_service.application.ports import (
    AppointmentRepository,
    FaqRepository,
    ProfessionalRepository,
    ServiceRepository,
    TenantRepository,
)
from agent_service.application.repeated_confirmations import Executed
from agent_service.application.turn_context import Upcoming
from agent_service.domain.catalog import Tenant
from agent_service.domain.conversations import TurnAction

_Result = TypeVar("_Result")


@dataclass
class PendingAction:
    """A write the assistant proposed and the customer has to confirm with their next message.

    ``id`` is opaque (random, never derived from the customer or the change): a gateway sends
    it back in a structured confirm/decline. ``tool`` and ``arguments`` are exactly what runs
    on a yes; ``confirmed`` is set in code (never by the model) by a structured confirm of this
    id or a plain yes within the time to live (consent.py). ``question`` is the
    system-rendered confirmation question the reply ended with; ``details`` are what it shows
    (service, professional, start, price...).
    """

    tool: str
    arguments: dict[str, str]
    summary: str
    confirmed: bool = False
    kind: str = ""
    question: str = ""
    details: dict[str, str] = field(default_factory=dict)
    proposed_at: str = ""
    id: str = ""
    asked_at: str = ""
    """When the reply ending with ``question`` was sent (its turn's end): a typed yes must
    come a reading interval later when ``replaces`` (consent.decide_pending)."""
    replaces: bool = False
    """Its question replaced another one open when it was proposed (a changed proposal)."""

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "tool": self.tool,
            "arguments": self.arguments,
            "summary": self.summary,
            "confirmed": self.confirmed,
            "kind": self.kind,
            "question": self.question,
            "details": self.details,
            "proposed_at": self.proposed_at,
            "asked_at": self.asked_at,
            "replaces": self.replaces,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any] | None) -> PendingAction | None:
        if not data:
            return None
        return cls(
            str(data["tool"]),
            dict(data["arguments"]),
            str(data["summary"]),
            bool(data.get("confirmed", False)),
            str(data.get("kind", "")),
            str(data.get("question", "")),
            {str(k): str(v) for k, v in dict(data.get("details") or {}).items()},
            str(data.get("proposed_at", "")),
            str(data.get("id", "")),
            str(data.get("asked_at", "")),
            bool(data.get("replaces", False)),
        )


@dataclass(frozen=True, slots=True)
class ToolText:
    """One tool return as the model saw it; ``this_turn``: after the latest customer message
    (grounded.tool_texts collects them)."""

    tool: str
    text: str
    this_turn: bool


@dataclass
class TurnState:
    """What the tools of one turn read and write besides the database."""

    now: datetime
    language: str
    pending: PendingAction | None = None
    actions: list[TurnAction] = field(default_factory=list)
    citations: list[dict[str, str]] = field(default_factory=list)
    handoff_reason: str | None = None
    writes_this_turn: int = 0
    memory: str = ""
    progress: ProgressSink | None = None
    message_id: str = ""
    """The write tools' request key: the channel message being handled, or ``pending:<id>``
    while a confirmed pending action runs in code (confirm.py) — a redelivery or a takeover
    after a crash resumes the same booking instead of colliding with its own hold."""
    conversation_id: str = ""
    confirmation_ttl_seconds: float = 900.0
    repeated_yes_seconds: float = 120.0
    confirmation_read_seconds: float = 0.0
    """How long after an execution a typed plain yes restates it (repeated_confirmations)."""
    expired: PendingAction | None = None
    upcoming: list[str] = field(default_factory=list)
    upcoming_read: Upcoming | None = None  # read with the conversation (one round trip)
    decision: StructuredDecision | None = None
    """The tapped quick reply this message carries, if any (consent.py)."""
    consent: Outcome = Outcome.NONE
    """What this message did to the stored pending action (consent.py)."""
    reask: PendingAction | None = None
    """The pending action asked again at the end of a turn whose answer changed something."""
    change_note: str = ""
    """What the customer's changed answer added, in their words (said when asking again)."""
    proposed: bool = False
    """A write tool recorded a new proposal in this turn (the run ends there)."""
    turned_down: tuple[str, dict[str, str]] | None = None
    """The proposal (tool, arguments) this message declined or dropped: not proposed again in
    the same turn (consent.confirmation_gate)."""
    dropped: PendingAction | None = None
    """The proposal this message's answer left without a yes or a plain no ("acho que sim",
    "yeah right", "não, mas..."): nothing was done, and the reply says so (truth.receipts)."""
    changes_dropped: bool = False
    """The proposal was dropped by a change asked of it ("mais cedo?", "someone else?"): the
    turn goes to the proposal's owner, which proposes the change (graph.py)."""
    already: tuple[TurnAction, ...] = ()
    """The outcome of the confirmed action when another message ran it first."""
    executed: Executed | None = None
    """The pending action this turn ran (or found run by another message), kept after it."""
    repeated: Executed | None = None
    """The earlier execution this message confirms again (its outcome is looked up in code)."""
    unsettled: PendingAction | None = None
    """The confirmed action another message is still running (its outcome not known yet)."""
    open_question: str = ""
    """The question open when this message arrived (the stored pending action's)."""
    open_summary: str = ""
    """What that open question proposed (said when a new proposal replaces it)."""
    asked_again: tuple[PendingAction, PendingAction] | None = None
    """The question asked again this turn with a fresh id (``consent.still_pending``), after
    the ``reask`` it renews: the id the state keeps is the id the response carries."""
    terms_changed: PendingAction | None = None
    """The confirmed action not run because its terms changed since the question
    (``consent.confirmed_as_shown``): the current terms are asked again."""
    tool_texts: list[ToolText] = field(default_factory=list)
    """The turn's grounding corpus of tool returns (grounded.tool_texts of every run)."""
    customer_texts: list[str] = field(default_factory=list)
    """The customer's own messages in this conversation (they ground what is theirs)."""
    catalog: list[str] | None = None
    """The tenant's catalog as text, read once per turn (grounded.catalog_lines)."""
    judged: dict[tuple[Any, ...], Any] = field(default_factory=dict)
    """``grounded.judge``'s verdicts of this turn, by everything each is a function of."""
    writer: bool = False
    """The specialist answering can write (booking, appointments): it may only ask or state
    what a tool returned when the turn changes nothing (grounded.py)."""
    truth_retried: bool = False
    """The model was already sent back once for an ungrounded or misstating reply."""
    stream_room: int = 0
    """How long a reply may be (``AGENT_MAX_REPLY_CHARS``); 0: nothing is streamed
    (streaming.py)."""
    previous_reply: str | None = None
    """The assistant's previous reply in this conversation (a repeat is said another way)."""
    streamed: str = ""
    """The model's text released to a streaming caller so far (the reply begins with it)."""
    streaming: object | None = None
    """The state of the model response being streamed (streaming.py)."""
    shown: list[Any] = field(default_factory=list)
    """The results of the current run's read tools called with ``show_customer``: the system
    shows them as the reply and the run ends there (listings.py, agents.SystemReplies)."""
    system_text: str = ""
    """A reply the system rendered itself: the listing it ended a run with (from the tools'
    results), or the greeting a greeting-only message gets (confirm.py). Sent as rendered
    (truth.py)."""

    def is_system_text(self, text: str) -> bool:
        """``text`` is the reply the system rendered itself in this turn."""
        return bool(self.system_text) and text == self.system_text

    def show(self, result: _Result, wanted: bool) -> _Result:
        """``result``, kept to be shown as the reply when the model ``wanted`` it."""
        if wanted:
            self.shown.append(result)
        return result


@dataclass(kw_only=True)
class AgentDeps:
    """The ports and use cases a turn's agents and tools use. ``tenant_id`` and
    ``customer_id`` come from the request (and the caller's credentials), never from the
    model; every id the model passes is checked against ``tenant_id``."""

    tenant_id: UUID
    customer_id: UUID
    tenant_repository: TenantRepository
    service_repository: ServiceRepository
    professional_repository: ProfessionalRepository
    appointment_repository: AppointmentRepository
    calendar_adapter: ICalendarAdapter
    faq_repository: FaqRepository
    booking: Booking
    tenant: Tenant
    turn: TurnState
