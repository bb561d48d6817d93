"""``dump_history`` keeps what fits as it is and bounds the rest like ``bound``: a long text
cut, a tool call whose arguments are too long emptied even when each argument is short."""

from __future__ import annotations

from pydantic_ai.messages import (
    ModelMessage,
    ModelMessagesTypeAdapter,
    ModelRequest,
    ModelResponse,
    TextPart,
    ToolCallPart,
    UserPromptPart,
)

from agent_service.infrastructure.agent.history import MAX_PART_CHARS, bound, dump_history


def test_dumped_history_is_what_bound_makes_of_each_message() -> None:
    many = {f"field_{n}": "short" for n in range(MAX_PART_CHARS // 10)}  # long only together
    history: list[ModelMessage] = [
        ModelRequest(parts=[UserPromptPart("oi")]),
        ModelResponse(parts=[ToolCallPart("book_appointment", many, tool_call_id="c1")]),
        ModelResponse(parts=[TextPart("x" * (MAX_PART_CHARS + 5))]),
        ModelResponse(parts=[ToolCallPart("list_services", {"q": "corte"}, tool_call_id="c2")]),
    ]
    dumped = dump_history(history)
    expected = [bound(m) for m in ModelMessagesTypeAdapter.dump_python(history, mode="json")]
    assert dumped == expected
    assert dumped[1]["parts"][0]["args"] == {}
    assert len(dumped[2]["parts"][0]["content"]) == MAX_PART_CHARS
    assert dumped[3]["parts"][0]["args"] == {"q": "corte"}
