"""A typed yes confirms only a question the customer could have read (session 44, blind
consent review, HIGH: a change ("¿y una hora después?") and a yes sent 20–250 ms apart; the
change turn stored its new proposal first and the yes, written for the question before it,
booked the changed one). A typed yes that arrives sooner after a question that replaced
another was sent than the reading interval (``AGENT_CONFIRMATION_READ_SECONDS``) confirms
nothing and the question is asked again; the next yes, read in time, books it once. A first
question (it replaced none) is confirmed by a yes at once, and a tap names its question: never
held back. Over delays on both sides of the interval; the clock is the test's, moved by hand.

Also (found while writing this): a question asked again with a fresh id (after an aside) sent
one id and kept another, so a tap of the button under it was NOT_PENDING."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import pytest
from pydantic_ai.messages import (
    ModelMessage,
    ModelRequest,
    ModelResponse,
    TextPart,
    ToolCallPart,
    ToolReturnPart,
)
from pydantic_ai.models.function import AgentInfo, FunctionModel

from agent_service.application.consent_policy import StructuredDecision
from agent_service.application.conversation import IncomingMessage
from agent_service.domain.conversations import ActionKind, DecisionResult, ReplyChoice
from agent_service.infrastructure.agent.engine import ReplyPolicy
from tests.agent_service.conversation_fixtures import NOW, Assistant, seed_salon

READ = 1.5
PROPOSAL = "Quero agendar barba com o Bruno amanhã às 10h"
CHANGE = "na verdade prefiro às 11h"


class Clock:
    def __init__(self) -> None:
        self.now = NOW

    def __call__(self) -> datetime:
        return self.now


async def _proposed(change: bool = True) -> tuple[Assistant, Clock, Any, str]:
    """A proposal, and (``change``) the customer's change of its time: the question asked."""
    clock = Clock()
    assistant = Assistant(clock=clock, policy=ReplyPolicy(confirmation_read_seconds=READ))
    salon = await seed_salon(assistant.repos)
    asked = await assistant.say(salon.tenant.id, PROPOSAL)
    assert asked.result.pending is not None, asked.result.reply
    if change:
        clock.now += timedelta(seconds=5)
        asked = await assistant.say(salon.tenant.id, CHANGE)
    pending = asked.result.pending
    assert pending is not None, asked.result.reply
    assert "11:00" in pending.question or not change
    # a question in place of the open one says what it replaces
    assert ("Em vez de:" in asked.result.reply and "10:00" in asked.result.reply) or not change
    return assistant, clock, salon, pending.question


@pytest.mark.parametrize("delay", [0.0, 0.02, 0.25, 1.0, 1.49])
async def test_a_yes_sooner_than_a_changed_question_could_be_read_asks_again(
    delay: float,
) -> None:
    assistant, clock, salon, question = await _proposed()
    clock.now += timedelta(seconds=delay)
    early = await assistant.say(salon.tenant.id, "sim")
    assert ActionKind.APPOINTMENT_BOOKED not in [a.kind for a in early.result.actions]
    again = early.result.pending
    assert again is not None and again.question == question, early.result.reply
    assert early.result.reply.endswith(question), early.result.reply
    assert early.result.decision is DecisionResult.NONE
    clock.now += timedelta(seconds=READ)
    read = await assistant.say(salon.tenant.id, "sim")
    assert [a.kind for a in read.result.actions] == [ActionKind.APPOINTMENT_BOOKED]
    assert "11:00" in read.result.reply


@pytest.mark.parametrize("delay", [1.5, 2.0, 30.0])
async def test_a_yes_after_the_reading_interval_books(delay: float) -> None:
    assistant, clock, salon, _ = await _proposed()
    clock.now += timedelta(seconds=delay)
    yes = await assistant.say(salon.tenant.id, "sim")
    assert [a.kind for a in yes.result.actions] == [ActionKind.APPOINTMENT_BOOKED]


async def test_a_yes_to_a_first_question_is_never_held_back() -> None:
    assistant, _clock, salon, _ = await _proposed(change=False)
    yes = await assistant.say(salon.tenant.id, "sim")
    assert [a.kind for a in yes.result.actions] == [ActionKind.APPOINTMENT_BOOKED]


async def test_a_tap_of_the_questions_id_is_never_held_back() -> None:
    assistant, clock, salon, _ = await _proposed()
    conversation = await assistant.say(salon.tenant.id, "qual o endereço?")
    pending = conversation.result.pending
    assert pending is not None
    clock.now += timedelta(seconds=0.05)
    tap = await assistant.handle.execute(
        IncomingMessage(
            tenant_id=salon.tenant.id,
            channel="whatsapp",
            external_id="5511999990000",
            display_name="",
            conversation_id=None,
            message_id="tap-1",
            text="",
            decision=StructuredDecision(ReplyChoice.CONFIRM, pending.id),
        )
    )
    kinds = [a.kind for a in tap.result.actions]
    assert kinds == [ActionKind.APPOINTMENT_BOOKED], (tap.result.decision, tap.result.reply)


async def test_a_second_early_yes_after_the_question_asked_again_is_held_too() -> None:
    """ "¿y una hora después?", "sí", "sí" sent together: the second yes, arriving just after
    the question was asked again, was not written for it either."""
    assistant, clock, salon, _ = await _proposed()
    clock.now += timedelta(seconds=0.05)
    first = await assistant.say(salon.tenant.id, "sim")
    clock.now += timedelta(seconds=0.05)
    second = await assistant.say(salon.tenant.id, "sim")
    for early in (first, second):
        assert ActionKind.APPOINTMENT_BOOKED not in [a.kind for a in early.result.actions]
    clock.now += timedelta(seconds=READ)
    read = await assistant.say(salon.tenant.id, "sim")
    assert [a.kind for a in read.result.actions] == [ActionKind.APPOINTMENT_BOOKED]


async def test_a_yes_after_a_read_changed_question_and_an_aside_books() -> None:
    """The interval counts from when the question was first shown: asked again after a
    question meanwhile, it was read long before (the second consent review: held)."""
    assistant, clock, salon, _ = await _proposed()
    clock.now += timedelta(seconds=60)
    aside = await assistant.say(salon.tenant.id, "qual o endereço?")
    assert aside.result.pending is not None, aside.result.reply
    clock.now += timedelta(seconds=1)
    yes = await assistant.say(salon.tenant.id, "sim")
    assert [a.kind for a in yes.result.actions] == [ActionKind.APPOINTMENT_BOOKED]


class ProposesDuringAside:
    """A model that books 10:00 when asked, and 15:00 on any later message."""

    def __init__(self) -> None:
        self.model = FunctionModel(self._respond, model_name="hostile")
        self.salon: Any = None
        self.turns = 0

    def _respond(self, messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        if any(tool.name == "route_to" for tool in info.output_tools):
            self.turns += 1
            return ModelResponse(parts=[ToolCallPart("route_to", {"specialist": "booking"})])
        last = messages[-1]
        if isinstance(last, ModelRequest) and any(
            isinstance(p, ToolReturnPart) for p in last.parts
        ):
            return ModelResponse(parts=[TextPart("Ok!")])
        start = "2026-12-01T10:00:00-03:00" if self.turns <= 1 else "2026-12-01T15:00:00-03:00"
        arguments = {
            "professional_id": str(self.salon.bruno.id),
            "service_id": str(self.salon.beard.id),
            "start_time": start,
        }
        return ModelResponse(parts=[ToolCallPart("book_appointment", arguments)])


async def test_a_question_meanwhile_keeps_the_open_question_whatever_the_model_proposes() -> None:
    """The second consent review: a question about the business while 10:00 was asked, a
    model proposing 15:00 in that turn replaced the question unremarked, and a yes booked
    15:00. A turn that asks the open question again records no new proposal."""
    hostile = ProposesDuringAside()
    clock = Clock()
    assistant = Assistant(model=hostile.model, clock=clock)
    hostile.salon = await seed_salon(assistant.repos)
    tenant = hostile.salon.tenant.id
    asked = await assistant.say(tenant, "Quero agendar barba com o Bruno amanhã às 10h")
    first = asked.result.pending
    assert first is not None and "10:00" in first.question, asked.result.reply
    clock.now += timedelta(seconds=10)
    aside = await assistant.say(tenant, "qual o endereço?")
    again = aside.result.pending
    assert again is not None and again.question == first.question, aside.result.reply
    clock.now += timedelta(seconds=3)
    yes = await assistant.say(tenant, "sim")
    assert [a.kind for a in yes.result.actions] == [ActionKind.APPOINTMENT_BOOKED]
    assert "10:00" in yes.result.reply and "15:00" not in yes.result.reply, yes.result.reply


@pytest.mark.parametrize("question", ["dá pra ser mais tarde?", "could it be a bit later?"])
async def test_a_yes_sent_with_an_unread_question_confirms_nothing(question: str) -> None:
    """A question no rule reads may ask for a change ("dá pra ser mais tarde?"); the proposal
    asked again after it, even word for word, was not what a yes sent with it answered (the
    second consent review: "Como eu disse: …" and a yes at once booked the old time)."""
    assistant, clock, salon, _ = await _proposed(change=False)
    clock.now += timedelta(seconds=10)
    await assistant.say(salon.tenant.id, question)
    yes = await assistant.say(salon.tenant.id, "sim")
    assert ActionKind.APPOINTMENT_BOOKED not in [a.kind for a in yes.result.actions]
