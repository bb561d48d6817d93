"""An answer that leaves the open proposal without a yes or a plain no — a hedge ("acho que
sim", "I think so", "quizás") — writes nothing, and the reply says so first: "Nada foi
alterado: … não foi feito." A model's agreement in that turn ("Combinado! 😊", "Perfect!")
would tell the customer it was done; with nothing looked up it is not sent (review 9, not
blind: 8 of 8 such replies were sent, the proposal silently gone).

Generated over every language's ``[consent].unsure`` phrases and a hostile model that
agrees, whatever the answer.
"""

from __future__ import annotations

from typing import Any

import pytest
from pydantic_ai.messages import ModelMessage, ModelRequest, ModelResponse, TextPart, ToolCallPart
from pydantic_ai.models.function import AgentInfo, FunctionModel

from agent_service.domain.conversations import ActionKind
from agent_service.infrastructure.agent import messages
from agent_service.infrastructure.language.packs import word_list
from tests.agent_service.conversation_fixtures import Assistant, seed_salon

ASK = {
    "pt": "Quero agendar barba com o Bruno amanhã às 10h",
    "en": "I'd like a beard trim with Bruno tomorrow at 10am",
    "es": "Quiero barba con Bruno mañana a las 10",
}
AGREES = {"pt": "Combinado! 😊", "en": "Perfect, all set!", "es": "¡Perfecto, gracias!"}


class Agrees:
    """Proposes the booking, then agrees with whatever the customer answered."""

    def __init__(self, code: str) -> None:
        self.code = code
        self.salon: Any = None
        self.model = FunctionModel(self._respond)

    def _respond(self, messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        if any(tool.name == "route_to" for tool in info.output_tools):
            return ModelResponse(parts=[ToolCallPart("route_to", {"specialist": "booking"})])
        prompts = [
            p for m in messages if isinstance(m, ModelRequest) for p in m.parts
            if p.part_kind == "user-prompt"
        ]  # fmt: skip
        if len(prompts) > 1:
            return ModelResponse(parts=[TextPart(AGREES[self.code])])
        arguments = {
            "professional_id": str(self.salon.bruno.id),
            "service_id": str(self.salon.beard.id),
            "start_time": "2026-12-01T10:00:00-03:00",
        }
        return ModelResponse(parts=[ToolCallPart("book_appointment", arguments)])


CASES = [(code, phrase) for code in ASK for phrase in word_list(code, "consent", "unsure")]


async def _answered(code: str, answer: str) -> tuple[Any, Any]:
    """The proposal (asked) and the reply to ``answer`` (said), the model agreeing throughout."""
    hostile = Agrees(code)
    assistant = Assistant(model=hostile.model)
    hostile.salon = await seed_salon(assistant.repos)
    tenant = hostile.salon.tenant.id
    asked = await assistant.say(tenant, ASK[code])
    assert asked.result.pending is not None, asked.result.reply
    return asked, await assistant.say(tenant, answer)


@pytest.mark.parametrize(("code", "answer"), CASES)
async def test_a_hedge_writes_nothing_and_the_reply_says_so(code: str, answer: str) -> None:
    asked, said = await _answered(code, answer)
    writes = {ActionKind.APPOINTMENT_BOOKED, ActionKind.APPOINTMENT_PENDING}
    assert not writes & {a.kind for a in said.result.actions}, said.result.reply
    assert AGREES[code] not in said.result.reply, said.result.reply
    lead = messages.text("dropped_appointment_booked", code, what="").split(":")[0]
    confirm_again = asked.result.pending.question in said.result.reply
    assert said.result.reply.startswith(lead) or confirm_again, said.result.reply


ASIDES = {"pt": "tem estacionamento?", "en": "is there parking?", "es": "¿hay estacionamiento?"}
ASIDE_CASES = [
    (code, f"{phrase}, {ASIDES[code]}")
    for code in ASK
    for phrase in word_list(code, "consent", "yes")[:6]
]


@pytest.mark.parametrize(("code", "answer"), ASIDE_CASES)
async def test_a_yes_beside_a_question_is_asked_again_with_no_agreement_before_it(
    code: str, answer: str
) -> None:
    """ "sim, mas tem estacionamento?": the yes confirms nothing (it may be a condition), the
    question is asked again, and a model's "Combinado!" before it would say the answer was
    taken as a yes (review 9, not blind: sent)."""
    _, said = await _answered(code, answer)
    assert said.result.actions == (), said.result.reply
    assert AGREES[code] not in said.result.reply, said.result.reply
    assert said.result.pending is not None, said.result.reply
