"""The coordinator/dispatcher specialists (docs/agents.md): each sees only its tools.

Adding a specialist is one entry here (instructions, tools, route hint, flag), plus its
flag in ``AgentSettings``; see docs/agents.md.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic_ai import RunContext

from agent_service.infrastructure.agent.deps import AgentDeps
from agent_service.infrastructure.agent.tools.appointments import (
    cancel_appointment,
    list_my_appointments,
    reschedule_appointment,
)
from agent_service.infrastructure.agent.tools.booking import book_appointment
from agent_service.infrastructure.agent.tools.discovery import (
    check_availability,
    list_professionals,
    list_services,
)
from agent_service.infrastructure.agent.tools.faq import search_faq
from agent_service.infrastructure.agent.tools.handoff import handoff_to_human
from agent_service.infrastructure.agent.tools.schemas import ToolGate
from agent_service.infrastructure.agent.tools.steps import (
    WRITE_TOOLS,
    appointments_tools,
    booking_tools,
    confirm_outputs,
)
from agent_service.infrastructure.language.grammar.asks import Ask

ESCAPE_RULE = (
    "If the customer asks for something outside your job, call transfer_to_router at once "
    "instead of saying you cannot help."
)
COMMON_RULES = (
    "Answer in the customer's language (Portuguese or English), briefly, one question at a "
    "time. Use only facts returned by your tools; never invent ids, times or prices. "
    "Times are in the business's time zone."
)


@dataclass(frozen=True, slots=True)
class Specialist:
    """One specialist: its stable instructions come first so providers can cache them."""

    name: str
    flag: str | None
    route_hint: str
    instructions: str
    tools: tuple[Callable[..., Any], ...]
    asks: Ask | str | None = None
    """What a message asks for (``language/grammar/asks``, the language data's ``[intents]``)
    when it is, alone, clearly a new task of this specialist's (see intent.py); another name
    is an ``[intents]`` table of its own."""
    tool_gate: ToolGate | None = None
    """Which of ``tools`` the task's current step can use (see tools/steps.py); all if None."""
    done_results: str = ""
    """For a specialist with writes: the results that mean a write was made ("BOOKED"); its
    confirm and proposed steps then get short instructions (``instructions_for``) and its
    confirm step no escape (``output_gate``)."""

    confirm_only: tuple[str, ...] = ()
    """Parts of ``instructions`` only the confirm step needs (how to confirm, the receipt):
    the routed confirm step has its own instructions, so the other steps leave them out (a
    single agent without steps keeps them all)."""

    @property
    def step_instructions(self) -> str:
        """``instructions`` without the confirm-only parts: what every other step gets."""
        text = self.instructions
        for part in self.confirm_only:
            if part not in text:
                raise ValueError(f"{self.name}: confirm-only text not in its instructions")
            text = text.replace(f" {part}", "")
        return text

    @property
    def output_gate(self) -> ToolGate | None:
        """Which output tools (the escape) a step gets; all if None (see tools/steps.py)."""
        if not self.done_results:
            return None
        return confirm_outputs(WRITE_TOOLS.intersection(t.__name__ for t in self.tools))

    @property
    def job(self) -> str:
        """The instructions' first sentence, which every step's instructions start with."""
        first = self.instructions.split(". ", 1)[0]
        return first if first.endswith(".") else f"{first}."


SPECIALISTS: tuple[Specialist, ...] = (
    Specialist(
        name="discovery",
        flag=None,
        route_hint="services, prices, professionals, or free times without booking yet",
        instructions=(
            "You present the business's services, prices and professionals, and free times. "
            "To show a list as it is, call its tool with show_customer=true: the system shows "
            "the result as your reply. When the customer wants to book, call transfer_to_router."
        ),
        tools=(list_services, list_professionals, check_availability),
        asks="discovery",
    ),
    Specialist(
        name="booking",
        flag="enable_booking",
        route_hint="book a new appointment (service, professional, day and time)",
        instructions=(
            "You book appointments. Find the service and professional ids with list_services "
            "and list_professionals, check free times with check_availability, then call "
            "book_appointment (list_my_appointments when the customer places it by one of "
            "theirs: the same professional, right after it). Its first call only records "
            "the proposal: the system itself "
            "ends your reply with the confirmation question, so do not ask it or repeat the "
            "details. If the customer's next message is a plain yes, call book_appointment "
            "again with the same arguments. The system adds a receipt of every change. Never "
            "say an appointment is booked unless book_appointment returned BOOKED."
        ),
        tools=(
            list_services,
            list_professionals,
            check_availability,
            list_my_appointments,
            book_appointment,
        ),
        asks="booking",
        tool_gate=booking_tools,
        done_results="BOOKED",
        confirm_only=(
            "If the customer's next message is a plain yes, call book_appointment again with "
            "the same arguments.",
            "The system adds a receipt of every change.",
        ),
    ),
    Specialist(
        name="appointments",
        flag="enable_cancellation",
        route_hint="the customer's existing appointments: list, cancel or reschedule",
        instructions=(
            "You manage the customer's existing appointments. Start with list_my_appointments "
            "(show_customer=true when they only want to see them: the system shows the list). "
            "cancel_appointment and reschedule_appointment first only record the proposal: "
            "the system itself ends your reply with the confirmation question, so do not ask "
            "it. If the customer's next message is a plain yes, call them again with the same "
            "arguments. To cancel several or all, call cancel_appointment once, the further "
            "ids in also. Never say a change was made unless the tool returned CANCELLED or "
            "RESCHEDULED."
        ),
        tools=(
            list_my_appointments,
            cancel_appointment,
            reschedule_appointment,
            check_availability,
        ),
        asks="appointments",
        tool_gate=appointments_tools,
        done_results="CANCELLED or RESCHEDULED",
        confirm_only=(
            "If the customer's next message is a plain yes, call them again with the same "
            "arguments.",
        ),
    ),
    Specialist(
        name="faq",
        flag="enable_faq",
        route_hint="questions about the business: address, hours, payment, policies",
        instructions=(
            "You answer questions from the business's FAQ. Call search_faq and answer only from "
            "the entries returned, in the customer's language; with show_customer=true the "
            "system shows the best answer as your reply. Never write ids or [faq:...] "
            "tags: the system attaches the citations. An answer that starts with a note that "
            "the salon has it only in another language is repeated as given, note and quote. "
            "If nothing matches, say plainly that you do not know and offer a human attendant."
        ),
        tools=(search_faq,),
        asks="faq",
    ),
    Specialist(
        name="handoff",
        flag="enable_handoff",
        route_hint="the customer wants a human attendant, or is upset",
        instructions=(
            "You hand the conversation to a human: call handoff_to_human with a short reason, "
            "then tell the customer a person will answer soon."
        ),
        tools=(handoff_to_human,),
        # An explicit request to talk to a person hands off in code (the [handoff] phrases of
        # the language data, confirm.py); a lone "humano" or "gerente" is no request. A
        # complaint is routed here and the model decides.
        asks="complaint",
    ),
)


Instructions = str | Callable[[RunContext[AgentDeps]], Awaitable[str]]


def instructions_for(spec: Specialist) -> Instructions:
    """A specialist's instructions: the same text on every step (a stable prefix providers can
    cache). A confirmed write runs in code and a proposal ends the run (confirm.py, agents.py),
    so no step needs instructions of its own; the confirm-only parts, which only a single agent
    that confirms through the model needs, are left out."""
    return f"{spec.step_instructions}\n{COMMON_RULES}\n{ESCAPE_RULE}"


def enabled_specialists(flags: dict[str, bool]) -> tuple[Specialist, ...]:
    """The specialists whose flag is on (discovery has none and is always on)."""
    return tuple(s for s in SPECIALISTS if s.flag is None or flags.get(s.flag, True))


def validate_flags(flags: dict[str, bool]) -> None:
    """Inconsistent combinations fail at start-up with a clear message."""
    if flags.get("enable_cancellation", True) and not flags.get("enable_booking", True):
        raise ValueError(
            "AGENT_ENABLE_CANCELLATION=true needs AGENT_ENABLE_BOOKING=true "
            "(cancelling and rescheduling rebook through the booking flow)"
        )


def by_name(specialists: Sequence[Specialist]) -> dict[str, Specialist]:
    return {s.name: s for s in specialists}
