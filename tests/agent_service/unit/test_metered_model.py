"""``MeteredModel``: the cheap check it makes before each request (``surely_bounded``) never
says "bounded" where ``bounded_messages`` (the JSON check) would cut something; usage is
counted per request and logged once per agent run."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from prometheus_client import REGISTRY
from pydantic import BaseModel, field_serializer
from pydantic_ai import Agent
from pydantic_ai.messages import (
    BinaryContent,
    ModelMessage,
    ModelMessagesTypeAdapter,
    ModelRequest,
    ModelResponse,
    TextPart,
    ToolCallPart,
    ToolReturnPart,
    UserPromptPart,
)
from pydantic_ai.models.function import AgentInfo, FunctionModel
from structlog.testing import capture_logs

from agent_service.infrastructure.agent.history import MAX_PART_CHARS, _fits, bounded_messages
from agent_service.infrastructure.agent.tools.results import ProfessionalItem, Professionals
from agent_service.infrastructure.agent.usage import MeteredModel, acting_as, surely_bounded

AT = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
LONG = "x" * (MAX_PART_CHARS + 1)
EDGE = "y" * MAX_PART_CHARS


def exchange(
    *,
    prompt: str = "Olá",
    args: str | dict[str, Any] | None = None,
    result: object = "ok",
    reply: str = "Oi!",
) -> list[ModelMessage]:
    return [
        ModelRequest(
            parts=[UserPromptPart(prompt, timestamp=AT)], instructions="Be brief.", timestamp=AT
        ),
        ModelResponse(
            parts=[ToolCallPart("list_services", args or {"q": "corte"}, "c1")], timestamp=AT
        ),
        ModelRequest(
            parts=[ToolReturnPart("list_services", result, "c1", timestamp=AT)],
            timestamp=AT,
        ),
        ModelResponse(parts=[TextPart(reply)], timestamp=AT),
    ]


def json_fits(messages: list[ModelMessage]) -> bool:
    return all(_fits(m) for m in ModelMessagesTypeAdapter.dump_python(messages, mode="json"))


@pytest.mark.parametrize(
    "messages",
    [
        exchange(),
        exchange(prompt=EDGE, reply=EDGE, result=EDGE),
        exchange(args={"nested": [{"deep": EDGE}], "n": 3, "ok": True, "none": None}),
        exchange(args='{"q": "corte"}'),
    ],
)
def test_short_histories_are_sent_as_they_are(messages: list[ModelMessage]) -> None:
    assert surely_bounded(messages) and json_fits(messages)
    assert bounded_messages(messages) is messages


@pytest.mark.parametrize(
    "messages",
    [
        exchange(prompt=LONG),
        exchange(reply=LONG),
        exchange(result=LONG),
        exchange(result={"rows": [LONG]}),
        exchange(args={"q": LONG}),
        exchange(args=LONG),
        [ModelRequest(parts=[UserPromptPart("hi")], instructions=LONG)],
    ],
)
def test_a_long_text_anywhere_is_not_surely_bounded(messages: list[ModelMessage]) -> None:
    assert not json_fits(messages)
    assert not surely_bounded(messages)


def test_values_it_does_not_look_into_are_left_to_the_json_check() -> None:
    picture = BinaryContent(data=b"\x89PNG" * 2000, media_type="image/png")
    messages: list[ModelMessage] = [ModelRequest(parts=[UserPromptPart(["see", picture])])]
    assert not surely_bounded(messages)  # bytes become base64 text in JSON: not judged here
    assert not json_fits(messages)


async def test_one_model_usage_line_per_agent_run_and_counters_per_request() -> None:
    def answer(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        if len(messages) == 1:  # first request: call the tool; then answer
            return ModelResponse(parts=[ToolCallPart("look", {}, "c1")])
        return ModelResponse(parts=[TextPart("done")])

    async def look() -> str:
        return "found"

    agent = Agent(MeteredModel(FunctionModel(answer)), tools=[look])
    before = REGISTRY.get_sample_value("agenda_model_requests_total", {"specialist": "probe"})
    with capture_logs() as logs, acting_as("probe"):
        await agent.run("hi")
    after = REGISTRY.get_sample_value("agenda_model_requests_total", {"specialist": "probe"})
    usage = [line for line in logs if line["event"] == "model_usage"]
    assert len(usage) == 1 and usage[0]["specialist"] == "probe" and usage[0]["requests"] == 2
    assert usage[0]["input_tokens"] > 0 and usage[0]["output_tokens"] > 0
    assert (after or 0) - (before or 0) == 2


def test_tool_results_are_looked_into_unless_their_json_adds_text() -> None:
    """A tool's result model is read field by field (its serializer only drops keys); a model
    whose serialisation makes text of its own is left to the JSON check."""

    def team(name: str) -> Professionals:
        item = ProfessionalItem(id="p1", name=name, specialty="", services=["s1"])
        return Professionals(professionals=[item])

    class Padded(BaseModel):
        text: str

        @field_serializer("text")
        def _pad(self, value: str) -> str:
            return value.ljust(MAX_PART_CHARS + 1)

    assert surely_bounded(exchange(result=team("Ana"))) and json_fits(exchange(result=team("Ana")))
    assert not surely_bounded(exchange(result=team(LONG)))
    assert not json_fits(exchange(result=team(LONG)))
    assert not surely_bounded(exchange(result=Padded(text="a")))
    assert not json_fits(exchange(result=Padded(text="a")))
