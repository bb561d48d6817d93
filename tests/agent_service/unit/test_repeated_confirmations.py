"""Confirmations of a proposal that already ran (issue 21 item 6), in any order and grouping.

Property (in process: the application's HandleMessage with its lanes, the real engine, the
in-memory stores, a fixed clock): a booking is proposed, then a random mix of typed yeses (pt,
en, es), taps of its id and taps of foreign ids arrives at once in a random order (the lanes
group them into bursts as they come). Whatever the order: exactly one booking, no failed
record, no model request after the proposal, and every reply that did not book is either
``ALREADY_DONE`` with the booking's receipt or (a foreign tap) ``NOT_PENDING`` — never a
claim it booked. The pure rule (``repeated_confirmations.repeats``) is checked on its own for
ids, windows and an open question.
"""

from __future__ import annotations

import asyncio
import secrets
import uuid
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from pydantic_ai.messages import (
    ModelMessage,
    ModelRequest,
    ModelResponse,
    TextPart,
    ToolCallPart,
    UserPromptPart,
)
from pydantic_ai.models.function import AgentInfo, FunctionModel

from agent_service.application.consent_policy import StructuredDecision
from agent_service.application.incoming import IncomingMessage
from agent_service.application.ports import AppointmentFilter
from agent_service.application.repeated_confirmations import (
    Executed,
    after_turn,
    repeats,
    still_holds,
)
from agent_service.application.repositories import Repositories
from agent_service.domain.appointments import AppointmentStatus
from agent_service.domain.conversations import (
    EXECUTED_STATE_KEY,
    ActionKind,
    Conversation,
    DecisionResult,
    ReplyChoice,
)
from agent_service.infrastructure.agent import messages
from tests.agent_service.conversation_fixtures import NOW, Assistant, Salon, seed_salon
from tests.scale import size

BOOK = "quero um corte feminino com a Ana"
YESES = ("sim", "pode ser 👍", "ok, confirmo", "yes please", "sí, claro", "👍", "Sim!!")
TAP, FOREIGN = "<tap>", "<foreign>"
ALREADY = tuple(
    messages.text("already_appointment_booked", code, what="\0").split("\0")[0]
    for code in messages.CATALOG
)
"""The system's "It is already booked: " lead in every language of the catalog."""


class Booker:
    """Proposes one booking for ``BOOK`` and counts its requests."""

    def __init__(self, arguments: dict[str, Any]) -> None:
        self.arguments = arguments
        self.requests = 0

    def respond(self, messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        self.requests += 1
        if any(tool.name == "route_to" for tool in info.output_tools):
            return ModelResponse(parts=[ToolCallPart("route_to", {"specialist": "booking"})])
        prompt = next(
            part.content
            for message in reversed(messages)
            if isinstance(message, ModelRequest)
            for part in message.parts
            if isinstance(part, UserPromptPart)
        )
        offered = {tool.name for tool in info.function_tools}
        if prompt == BOOK and "book_appointment" in offered:
            return ModelResponse(parts=[ToolCallPart("book_appointment", self.arguments)])
        return ModelResponse(parts=[TextPart("Certo.")])


def _incoming(tenant: uuid.UUID, text: str, pending_id: str) -> IncomingMessage:
    decision = None
    if text in (TAP, FOREIGN):
        sent = pending_id if text == TAP else secrets.token_urlsafe(18)
        decision, text = StructuredDecision(ReplyChoice.CONFIRM, sent), ""
    return IncomingMessage(
        tenant_id=tenant,
        channel="whatsapp",
        external_id="5511988887777",
        display_name="",
        conversation_id=None,
        message_id=uuid.uuid4().hex,
        text=text,
        decision=decision,
    )


@dataclass
class Proposed:
    """A salon whose customer was just asked to confirm a booking."""

    repos: Repositories
    salon: Salon
    booker: Booker
    assistant: Assistant
    pending_id: str


async def _proposed() -> Proposed:
    probe = Assistant()
    salon = await seed_salon(probe.repos)
    booker = Booker(
        {
            "professional_id": str(salon.ana.id),
            "service_id": str(salon.cut.id),
            "start_time": "2026-12-01T10:00:00-03:00",
        }
    )
    assistant = Assistant(model=FunctionModel(booker.respond), repos=probe.repos)
    asked = await assistant.handle.execute(_incoming(salon.tenant.id, BOOK, ""))
    assert asked.result.pending is not None, asked.result.reply
    return Proposed(probe.repos, salon, booker, assistant, asked.result.pending.id)


async def _confirm_at_once(arrivals: list[str]) -> None:
    world = await _proposed()
    salon, booker, assistant = world.salon, world.booker, world.assistant
    requests = booker.requests
    sent = [_incoming(salon.tenant.id, text, world.pending_id) for text in arrivals]
    handled = await asyncio.gather(*(assistant.handle.execute(m) for m in sent))

    listed, _ = await world.repos.appointments.list(
        salon.tenant.id, AppointmentFilter(), page_size=50, page_token=None
    )
    assert [a.status for a in listed] == [AppointmentStatus.CONFIRMED], listed
    assert booker.requests == requests, f"{arrivals}: a confirmation asked the model"
    results = [h.result for h in handled if not h.result.covered_by]
    booked = [r for r in results if r.decision is DecisionResult.CONFIRMED]
    assert len(booked) <= 1, arrivals
    receipt = "Ana Souza"
    for result in results:
        if result.decision is DecisionResult.CONFIRMED:
            assert receipt in result.reply and result.actions, result.reply
        elif result.decision is DecisionResult.ALREADY_DONE:
            assert receipt in result.reply and not result.actions, result.reply
            assert any(lead in result.reply for lead in ALREADY), result.reply
        else:
            assert result.decision is DecisionResult.NOT_PENDING, (arrivals, result)
            assert not result.actions, result.reply


ARRIVALS = st.lists(st.sampled_from((*YESES, TAP, TAP, FOREIGN)), min_size=2, max_size=7).filter(
    lambda texts: any(t != FOREIGN for t in texts)
)


@settings(
    max_examples=size(12, 200),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(arrivals=ARRIVALS)
@example(arrivals=[FOREIGN, "sim", FOREIGN])  # a stale tap once swallowed the yes beside it
def test_confirmations_in_any_order_book_once_and_the_rest_say_already_booked(
    arrivals: list[str],
) -> None:
    asyncio.run(_confirm_at_once(arrivals))


def _yes(kind: str) -> bool:
    return True


EXECUTED = Executed("the-id", "appointment_booked", NOW)
AGES = st.integers(min_value=-10, max_value=2000)


@given(age=AGES, quiet=st.booleans(), open_question=st.booleans())
def test_a_typed_yes_repeats_only_the_last_quiet_execution_in_its_window(
    age: int, quiet: bool, open_question: bool
) -> None:
    executed = Executed("the-id", "appointment_booked", NOW, quiet=quiet)
    found = repeats(
        executed,
        decision=None,
        pending_open=open_question,
        plain_yes=_yes,
        now=NOW + timedelta(seconds=age),
        tap_seconds=900,
        yes_seconds=120,
    )
    assert found == (quiet and not open_question and 0 <= age <= 120)
    not_yes = repeats(
        executed, decision=None, pending_open=False, plain_yes=lambda kind: False,
        now=NOW, tap_seconds=900, yes_seconds=120,
    )  # fmt: skip
    assert not not_yes


@given(age=AGES, sent=st.text(max_size=30), decline=st.booleans(), open_question=st.booleans())
def test_a_tap_repeats_only_the_executed_id_within_the_confirmation_ttl(
    age: int, sent: str, decline: bool, open_question: bool
) -> None:
    for pending_id in (sent, EXECUTED.id):
        choice = ReplyChoice.DECLINE if decline else ReplyChoice.CONFIRM
        found = repeats(
            EXECUTED,
            decision=StructuredDecision(choice, pending_id),
            pending_open=open_question,
            plain_yes=_yes,
            now=NOW + timedelta(seconds=age),
            tap_seconds=900,
            yes_seconds=120,
        )
        own = pending_id == EXECUTED.id
        assert found == (own and 0 <= age <= 900)  # a decline of it is told what happened too
    assert not repeats(
        None, decision=None, pending_open=False, plain_yes=_yes,
        now=NOW, tap_seconds=900, yes_seconds=120,
    )  # fmt: skip


def test_any_later_action_ends_the_record_and_a_model_turn_makes_it_not_quiet() -> None:
    ran = Executed("new", "appointment_cancelled", NOW)
    assert after_turn(EXECUTED, ran, in_code=False, acted=True) == ran
    assert after_turn(EXECUTED, None, in_code=False, acted=True) is None
    assert after_turn(EXECUTED, None, in_code=True, acted=False) == EXECUTED
    assert after_turn(EXECUTED, None, in_code=False, acted=False) == Executed(
        "the-id", "appointment_booked", NOW, quiet=False
    )
    assert Executed.from_json(EXECUTED.to_json()) == EXECUTED
    assert Executed.from_json({"id": "x", "executed_at": "2026-01-01T00:00:00"}) is None


def test_handoff_hand_back_and_end_clear_the_last_execution() -> None:
    conversation = Conversation(
        tenant_id=uuid.uuid4(),
        customer_id=uuid.uuid4(),
        channel="whatsapp",
        engine_state={EXECUTED_STATE_KEY: EXECUTED.to_json(), "memory": {}},
    )  # a person may change what was booked: "already booked" is not said after them
    handed = conversation.handed_off("x")
    assert EXECUTED_STATE_KEY not in handed.engine_state and "memory" in handed.engine_state
    back = handed.model_copy(update={"engine_state": conversation.engine_state}).handed_back()
    assert EXECUTED_STATE_KEY not in back.engine_state
    assert EXECUTED_STATE_KEY not in conversation.ended().engine_state


async def test_a_tap_after_the_booking_was_cancelled_elsewhere_is_not_told_already_booked() -> None:
    world = await _proposed()
    salon, assistant, pending_id = world.salon, world.assistant, world.pending_id
    done = await assistant.handle.execute(_incoming(salon.tenant.id, TAP, pending_id))
    assert done.result.decision is DecisionResult.CONFIRMED
    again = await assistant.handle.execute(_incoming(salon.tenant.id, TAP, pending_id))
    assert again.result.decision is DecisionResult.ALREADY_DONE, again.result.reply
    (booked,) = [a.appointment_id for a in done.result.actions if a.appointment_id]
    appointment = await world.repos.appointments.get(salon.tenant.id, booked)
    await world.repos.appointments.save(
        appointment.model_copy(update={"status": AppointmentStatus.CANCELLED})
    )  # staff cancelled it meanwhile
    late = await assistant.handle.execute(_incoming(salon.tenant.id, TAP, pending_id))
    assert late.result.decision is DecisionResult.NOT_PENDING, late.result.reply
    assert not any(lead in late.result.reply for lead in ALREADY), late.result.reply
    assert still_holds(ActionKind.CHANGE_FAILED, None)
    assert not still_holds(ActionKind.APPOINTMENT_BOOKED, None)
