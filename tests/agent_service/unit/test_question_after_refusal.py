"""A reply whose statements are refused keeps its question only after what the question asks
about, in the system's words. Session 41's blind batch showed "Qual prefere?" alone: the
model's true listing of Bruno's free times on the day of the customer's own appointment with
him was refused (a sentence naming two facts of one of the customer's appointments must tell
that appointment, and its times are free times), and the customer was asked to choose among
times they never read.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

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

from agent_service.domain.catalog import Customer
from tests.agent_service.conversation_fixtures import Assistant, Salon, seed_salon

ZONE = ZoneInfo("America/Sao_Paulo")
OWN = datetime(2026, 12, 1, 11, tzinfo=ZONE)  # the customer's Barba with Bruno, tomorrow 11:00


class ListsThenAsks:
    """Routes to booking, reads Bruno's free times tomorrow, then lists two and asks."""

    salon: Salon

    def __init__(self, reply: str) -> None:
        self.reply = reply
        self.model = FunctionModel(self._respond, model_name="lists-then-asks")

    def _respond(self, messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        if any(tool.name == "route_to" for tool in info.output_tools):
            return ModelResponse(parts=[ToolCallPart("route_to", {"specialist": "booking"})])
        last = messages[-1]
        if isinstance(last, ModelRequest) and any(
            isinstance(part, ToolReturnPart) for part in last.parts
        ):
            return ModelResponse(parts=[TextPart(self.reply)])
        arguments: dict[str, Any] = {
            "professional_id": str(self.salon.bruno.id),
            "target_date": "2026-12-01",
            "service_id": str(self.salon.beard.id),
        }
        return ModelResponse(parts=[ToolCallPart("check_availability", arguments)])


@pytest.mark.parametrize(
    ("asked", "reply", "question"),
    [
        ("quais horários o Bruno tem amanhã?",
         "Horários livres com Bruno Lima em 01/12: 09:00, 09:30. Qual prefere?", "Qual prefere?"),
        ("what times does Bruno have tomorrow?",
         "Free times with Bruno Lima on 2026-12-01: 09:00, 09:30. Which one would you like?",
         "Which one would you like?"),
    ],
)  # fmt: skip
async def test_a_question_is_never_left_without_what_it_asks_about(
    asked: str, reply: str, question: str
) -> None:
    model = ListsThenAsks(reply)
    assistant = Assistant(model=model.model)
    model.salon = salon = await seed_salon(assistant.repos)
    customer, _ = await assistant.repos.customers.upsert(
        Customer(tenant_id=salon.tenant.id, channel="whatsapp", external_id="5511999990000")
    )
    await assistant.booking.book.execute(
        salon.tenant.id, customer.id, salon.bruno.id, salon.beard.id, OWN
    )
    handled = await assistant.say(salon.tenant.id, asked)
    said = handled.result.reply
    assert said.strip() != question, said
    assert "09:00" in said and "09:30" in said, said
    assert "11:00" not in said, said  # the customer's own time is no free time
