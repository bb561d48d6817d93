"""The scripted conversation set of the token and Google API economy benchmarks.

Every conversation runs against the test salon of ``tests.agent_service.conversation_fixtures``
(Ana: "Corte feminino", 60 min; Bruno: "Barba", 30 min; one FAQ entry, the address), through
the application's ``HandleMessage`` with any conversation engine and any calendar. Dates are
relative ("amanhã", "Thursday"), and the assistant's clock is the next Monday 09:00 in São
Paulo after the real now, so every run sees the same weekdays and the calendar's "not in the
past" check (real time) never hides a slot. No two scripts book the same professional at the
same time, so the whole set can also run against one shared salon (as the Google benchmark
does, to let customers share the caches).
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from pydantic_ai.usage import UsageLimits

from agenda_kit.calendar.port import ICalendarAdapter
from agent_service.application.conversation import HandleMessage, IncomingMessage
from agent_service.application.repositories import Repositories
from agent_service.bootstrap import wire_booking
from agent_service.domain.catalog import Customer
from agent_service.domain.conversations import ActionKind, TurnResult
from agent_service.infrastructure.agent.engine import LangGraphConversationEngine
from tests.agent_service.conversation_fixtures import Salon, seed_salon
from tests.fakes.agent_repositories import in_memory_repositories

# The same per-turn limits as the conversation tests' ``Assistant``.
LIMITS = UsageLimits(request_limit=8, tool_calls_limit=12)


@dataclass(frozen=True, slots=True)
class Prebooked:
    """An appointment the customer already has before the conversation starts (set up
    through ``Booking`` directly; no model request is spent on it)."""

    who: str  # "ana" or "bruno"
    days_ahead: int
    hour: int


@dataclass(frozen=True, slots=True)
class Conversation:
    name: str
    language: str  # "pt" or "en"
    kind: str  # booking, reschedule, cancel, faq, handoff, discovery, mixed
    turns: tuple[str, ...]
    prebooked: Prebooked | None = None
    bookings_expected: int = 0  # completed bookings the script leads to


CONVERSATIONS: tuple[Conversation, ...] = (
    # --- booking ---------------------------------------------------------------------------
    Conversation(
        "book-pt-one-shot",
        "pt",
        "booking",
        ("Quero agendar um corte feminino com a Ana amanhã às 10h", "sim"),
        bookings_expected=1,
    ),
    Conversation(
        "book-en-one-shot",
        "en",
        "booking",
        ("I'd like to book a Barba with Bruno on Tuesday at 3pm", "yes"),
        bookings_expected=1,
    ),
    Conversation(
        "book-pt-slot-filling",
        "pt",
        "booking",
        ("Oi", "Quero marcar uma barba", "amanhã", "às 14h", "pode sim"),
        bookings_expected=1,
    ),
    Conversation(
        "book-en-slot-filling",
        "en",
        "booking",
        ("I want to book a Corte feminino", "with Ana please", "on Wednesday", "11am", "yes"),
        bookings_expected=1,
    ),
    Conversation(
        "book-pt-availability-first",
        "pt",
        "booking",
        ("Tem horário para barba com o Bruno amanhã?", "Pode ser às 11h", "sim"),
        bookings_expected=1,
    ),
    Conversation(
        "book-en-availability-first",
        "en",
        "booking",
        ("Any slots for a Corte feminino with Ana on Thursday?", "4pm then", "confirm"),
        bookings_expected=1,
    ),
    Conversation(
        "book-pt-declined-then-other-time",
        "pt",
        "booking",
        (
            "Quero agendar um corte feminino com a Ana amanhã às 10h",
            "não",
            "Quero agendar corte feminino com a Ana amanhã às 15h",
            "sim",
        ),
        bookings_expected=1,
    ),
    Conversation(
        "book-en-after-prices",
        "en",
        "booking",
        (
            "What services do you have and how much?",
            "Book a Barba with Bruno tomorrow at 9am",
            "yes",
        ),
        bookings_expected=1,
    ),
    # --- rescheduling ----------------------------------------------------------------------
    Conversation(
        "reschedule-pt-direct",
        "pt",
        "reschedule",
        ("Quero remarcar meu horário para quinta às 13h", "sim"),
        prebooked=Prebooked("ana", 1, 12),
    ),
    Conversation(
        "reschedule-en-direct",
        "en",
        "reschedule",
        ("I need to reschedule my appointment to Friday at 2pm", "yes"),
        prebooked=Prebooked("bruno", 2, 11),
    ),
    Conversation(
        "reschedule-pt-list-first",
        "pt",
        "reschedule",
        ("Quais são meus agendamentos?", "Quero remarcar para quarta às 16h", "pode sim"),
        prebooked=Prebooked("ana", 3, 9),
    ),
    # --- cancelling ------------------------------------------------------------------------
    Conversation(
        "cancel-pt",
        "pt",
        "cancel",
        ("Quero cancelar meu agendamento", "sim"),
        prebooked=Prebooked("bruno", 1, 17),
    ),
    Conversation(
        "cancel-en",
        "en",
        "cancel",
        ("Please cancel my booking", "yes"),
        prebooked=Prebooked("ana", 2, 14),
    ),
    Conversation(
        "cancel-pt-declined",
        "pt",
        "cancel",
        ("Quero desmarcar meu horário", "não, deixa como está"),
        prebooked=Prebooked("ana", 4, 11),
    ),
    # --- FAQ -------------------------------------------------------------------------------
    Conversation("faq-pt-address", "pt", "faq", ("Qual é o endereço de vocês?",)),
    Conversation(
        "faq-en-two-questions", "en", "faq", ("Where are you located?", "Do you accept cards?")
    ),
    Conversation("faq-pt-unknown", "pt", "faq", ("Vocês aceitam pix?",)),
    # --- handoff ---------------------------------------------------------------------------
    Conversation("handoff-pt", "pt", "handoff", ("Quero falar com um atendente humano",)),
    Conversation(
        "handoff-en", "en", "handoff", ("This is ridiculous, I want to speak to a manager",)
    ),
    # --- discovery -------------------------------------------------------------------------
    Conversation("discovery-en-price", "en", "discovery", ("Hello", "How much is a Barba?")),
    Conversation(
        "discovery-pt-professionals", "pt", "discovery", ("Quais profissionais vocês têm?",)
    ),
    # --- mixed, multi-turn with confirmation ------------------------------------------------
    Conversation(
        "mixed-pt-faq-then-book",
        "pt",
        "mixed",
        ("Qual é o endereço?", "Quero agendar barba com o Bruno amanhã às 10h", "sim"),
        bookings_expected=1,
    ),
    Conversation(
        "mixed-en-staff-then-book",
        "en",
        "mixed",
        (
            "Hi",
            "Who works there?",
            "Book a Corte feminino with Ana on Thursday at 10am",
            "yes",
        ),
        bookings_expected=1,
    ),
    Conversation(
        "mixed-pt-book-list-cancel",
        "pt",
        "mixed",
        (
            "Quero agendar uma barba com o Bruno amanhã às 16h",
            "sim",
            "Quais são meus agendamentos?",
            "Quero cancelar",
            "sim",
        ),
        bookings_expected=1,
    ),
    Conversation(
        "mixed-pt-book-then-human",
        "pt",
        "mixed",
        (
            "Quero marcar corte feminino com a Ana sexta às 9h",
            "sim",
            "Quero falar com um atendente",
        ),
        bookings_expected=1,
    ),
)


def assistant_now(real_now: datetime | None = None) -> datetime:
    """The next Monday 09:00 in São Paulo (12:00 UTC) at least a day after the real now."""
    real_now = real_now or datetime.now(UTC)
    day = (real_now + timedelta(days=1)).date()
    day += timedelta(days=(7 - day.weekday()) % 7)
    return datetime(day.year, day.month, day.day, 12, 0, tzinfo=UTC)


@dataclass
class Outcome:
    """What one conversation produced."""

    name: str
    replies: list[str] = field(default_factory=list)
    specialists: list[str] = field(default_factory=list)
    actions: list[str] = field(default_factory=list)

    @property
    def bookings(self) -> int:
        return self.actions.count(ActionKind.APPOINTMENT_BOOKED.value)


class Harness:
    """``HandleMessage`` wired like bootstrap does, over in-memory repositories, with any
    compiled graph and any calendar, and a fixed clock."""

    def __init__(
        self,
        graph: Any,
        calendar: ICalendarAdapter,
        now: datetime,
        repos: Repositories | None = None,
    ) -> None:
        self.now = now
        self.repos = repos or in_memory_repositories()
        self.calendar = calendar
        self.booking = wire_booking(self.repos, calendar, lambda: now)
        engine = LangGraphConversationEngine(
            graph, self.repos, calendar, self.booking, LIMITS, clock=lambda: now
        )
        self.handle = HandleMessage(self.repos, engine)
        self.salon: Salon | None = None

    async def seed(self) -> Salon:
        self.salon = await seed_salon(self.repos)
        return self.salon

    async def say(self, text: str, customer: str) -> TurnResult:
        assert self.salon is not None
        handled = await self.handle.execute(
            IncomingMessage(
                tenant_id=self.salon.tenant.id,
                channel="whatsapp",
                external_id=customer,
                display_name="",
                conversation_id=None,
                message_id=uuid.uuid4().hex,
                text=text,
            )
        )
        return handled.result

    async def prebook(self, customer: str, booked: Prebooked) -> None:
        """Give ``customer`` an appointment without any model request."""
        salon = self.salon
        assert salon is not None
        found, _ = await self.repos.customers.upsert(
            Customer(tenant_id=salon.tenant.id, channel="whatsapp", external_id=customer)
        )
        professional, service = (
            (salon.ana, salon.cut) if booked.who == "ana" else (salon.bruno, salon.beard)
        )
        start = self.now + timedelta(days=booked.days_ahead, hours=booked.hour - 9)
        await self.booking.book.execute(
            salon.tenant.id, found.id, professional.id, service.id, start
        )


async def prepare(harness: Harness, conversation: Conversation, customer: str) -> None:
    """Set up what the script assumes the customer already has."""
    if conversation.prebooked is not None:
        await harness.prebook(customer, conversation.prebooked)


async def run_conversation(
    harness: Harness,
    conversation: Conversation,
    customer: str,
    between_turns: Callable[[], None] | None = None,
) -> Outcome:
    """Play the script's customer turns one by one (after ``prepare``); ``between_turns``
    runs before each turn."""
    outcome = Outcome(conversation.name)
    for text in conversation.turns:
        if between_turns is not None:
            between_turns()
        result = await harness.say(text, customer)
        outcome.replies.append(result.reply)
        outcome.specialists.append(result.specialist)
        outcome.actions.extend(action.kind.value for action in result.actions)
    return outcome
