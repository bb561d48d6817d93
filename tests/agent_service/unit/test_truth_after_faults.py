"""A change made in a turn is reported even when something fails after it in that turn, and a
redelivery of the message gets the same truthful reply (nothing runs twice)."""

from __future__ import annotations

from typing import Any

from pydantic_ai.messages import ModelMessage, ModelResponse, TextPart, ToolCallPart
from pydantic_ai.models.function import AgentInfo, FunctionModel

from agent_service.domain.conversations import ActionKind
from agent_service.domain.errors import StorageUnavailableError
from tests.agent_service.conversation_fixtures import Assistant, seed_salon

START = "2026-12-01T10:00:00-03:00"


def _model(arguments: dict[str, Any]) -> FunctionModel:
    def respond(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        if any(tool.name == "route_to" for tool in info.output_tools):
            return ModelResponse(parts=[ToolCallPart("route_to", {"specialist": "booking"})])
        made = 0
        for message in reversed(messages):
            if isinstance(message, ModelResponse):
                made += 1
            elif any(p.part_kind == "user-prompt" for p in message.parts):
                break
        plan = [
            ToolCallPart("book_appointment", arguments),
            ToolCallPart("list_services", {}),
        ]
        return ModelResponse(parts=[plan[made]] if made < len(plan) else [TextPart("ok")])

    return FunctionModel(respond)


async def test_storage_failing_after_a_booking_still_reports_it() -> None:
    probe = Assistant()
    salon = await seed_salon(probe.repos)
    arguments = {"professional_id": str(salon.ana.id), "service_id": str(salon.cut.id),
                 "start_time": START}  # fmt: skip
    assistant = Assistant(model=_model(arguments), repos=probe.repos)
    asked = await assistant.say(salon.tenant.id, "quero um corte")
    assert asked.result.pending is not None, asked.result.reply

    services = assistant.repos.services

    async def broken(tenant_id: Any) -> Any:
        raise StorageUnavailableError()

    original = services.list
    services.list = broken  # type: ignore[method-assign]
    try:
        done = await assistant.say(salon.tenant.id, "sim", message_id="m-2")
    finally:
        services.list = original  # type: ignore[method-assign]
    assert [a.kind for a in done.result.actions] == [ActionKind.APPOINTMENT_BOOKED]
    assert "✅ Agendado: Corte feminino com Ana Souza" in done.result.reply, done.result.reply
    again = await assistant.say(salon.tenant.id, "sim", message_id="m-2")
    assert again.duplicate and again.result.reply == done.result.reply
    assert len(assistant.calendar.events) == 1
