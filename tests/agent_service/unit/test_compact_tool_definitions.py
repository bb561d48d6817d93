"""The tool definitions every request carries are compact (``tools.schemas.compact``), for the
router's and every specialist's function and output tools, now that they are compacted once
when the agents are built instead of by a capability on every request."""

from __future__ import annotations

import json
from dataclasses import replace

from pydantic_ai.messages import ModelMessage, ModelResponse
from pydantic_ai.models.function import AgentInfo, FunctionModel
from pydantic_ai.tools import ToolDefinition

from agent_service.infrastructure.agent.offline.model import offline_model_function
from agent_service.infrastructure.agent.tools.schemas import compact
from tests.agent_service.conversation_fixtures import Assistant, seed_salon

SCRIPT = (
    "Can I book? How much is it?",  # two jobs in a first message: the model router decides
    "Olá!",
    "Quais serviços vocês têm?",
    "Quais horários a Ana tem amanhã para corte feminino?",
    "Quero agendar um corte feminino com a Ana amanhã às 10h",
    "sim",
    "Qual é o endereço?",
    "quero cancelar meu agendamento",
    "sim",
)


async def test_every_request_carries_compact_tool_definitions() -> None:
    sent: list[tuple[str, ToolDefinition]] = []

    def model(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        sent.extend(("function", tool) for tool in info.function_tools)
        sent.extend(("output", tool) for tool in info.output_tools)
        return offline_model_function(messages, info)

    assistant = Assistant(model=FunctionModel(model, model_name="offline"))
    salon = await seed_salon(assistant.repos)
    for text in SCRIPT:
        await assistant.say(salon.tenant.id, text)

    kinds = {kind for kind, _ in sent}
    names = {tool.name for _, tool in sent}
    assert kinds == {"function", "output"}
    assert {"route_to", "transfer_to_router", "book_appointment", "cancel_appointment"} <= names
    for kind, tool in sent:
        assert compact([tool]) == [tool], (kind, tool.name)
        text = json.dumps(tool.parameters_json_schema)
        assert '"title"' not in text and "additionalProperties" not in text, tool.name
        assert tool.description and "\n" not in tool.description, tool.name


def test_compact_changes_a_raw_definition() -> None:
    """The check above can fail: a raw pydantic schema is not a fixed point of ``compact``."""
    raw = ToolDefinition(
        name="t",
        description="Two\n lines.",
        parameters_json_schema={
            "type": "object",
            "title": "T",
            "additionalProperties": False,
            "properties": {"x": {"type": "string", "title": "X"}},
        },
    )
    assert compact([raw]) != [raw]
    assert compact([raw]) == [
        replace(
            raw,
            description="Two lines.",
            parameters_json_schema={"type": "object", "properties": {"x": {"type": "string"}}},
        )
    ]
