"""A move to the appointment's own start is no move, whatever the model asks: the tool
refuses it (``same_time``) before any proposal, so nothing is asked, nothing is pending and
nothing is "moved" to where it already is. The model here is the offline one, with each
reschedule call it makes turned into a call for the appointment's own start (a model that gets
the new time wrong)."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from pydantic_ai.messages import ModelMessage, ModelResponse, ToolCallPart, ToolReturnPart
from pydantic_ai.models.function import AgentInfo, FunctionModel

from agent_service.infrastructure.agent import messages
from agent_service.infrastructure.agent.offline.model import offline_model_function
from tests.agent_service.conversation_fixtures import Assistant, seed_salon


def _own_start(history: list[ModelMessage]) -> str | None:
    """The start of the first appointment the latest listing of the customer's returned."""
    for message in reversed(history):
        for part in getattr(message, "parts", []):
            if isinstance(part, ToolReturnPart) and part.tool_name == "list_my_appointments":
                content: Any = part.content
                data = json.loads(content) if isinstance(content, str) else content
                if not isinstance(data, dict):
                    data = data.model_dump()
                return str(data["appointments"][0]["start"])
    return None


def same_time_model(history: list[ModelMessage], info: AgentInfo) -> ModelResponse:
    response = offline_model_function(history, info)
    start = _own_start(history)
    parts = [
        ToolCallPart(
            part.tool_name,
            {**part.args_as_dict(), "new_start_time": start},
            tool_call_id=part.tool_call_id,
        )
        if isinstance(part, ToolCallPart) and part.tool_name == "reschedule_appointment" and start
        else part
        for part in response.parts
    ]
    return replace(response, parts=parts)


async def test_a_move_to_its_own_time_is_refused_and_nothing_is_pending() -> None:
    assistant = Assistant(model=FunctionModel(same_time_model))
    salon = await seed_salon(assistant.repos)
    await assistant.say(salon.tenant.id, "Quero agendar um corte feminino com a Ana amanhã às 10h")
    booked = await assistant.say(salon.tenant.id, "sim")
    assert booked.result.actions, booked.result.reply
    asked = await assistant.say(salon.tenant.id, "quero remarcar meu corte para quinta às 15h")
    reply = asked.result.reply
    assert asked.result.pending is None, reply
    assert messages.text("reason_same_time", "pt").split(";")[0] in reply, reply
    assert not [a for a in asked.result.actions if a.kind.value == "appointment_rescheduled"]
