"""Building the offline model's responses (tool calls or final text), and what a write
tool's structured result says happened."""

from __future__ import annotations

from typing import Any

from pydantic_ai.messages import ModelResponse, TextPart, ToolCallPart

from agent_service.infrastructure.agent import outcome_text
from agent_service.infrastructure.agent.offline.context import ToolResult
from agent_service.infrastructure.agent.tools.results import Done, Failed, Pending, Proposed


def call(tool: str, **arguments: Any) -> ModelResponse:
    return ModelResponse(parts=[ToolCallPart(tool, arguments)], model_name="offline")


def calls(*tools: str) -> ModelResponse:
    return ModelResponse(parts=[ToolCallPart(tool, {}) for tool in tools], model_name="offline")


def text(reply: str) -> ModelResponse:
    return ModelResponse(parts=[TextPart(reply)], model_name="offline")


def confirmation_summary(result: ToolResult) -> str | None:
    return result.data.summary if isinstance(result.data, Proposed) else None


def done_summary(result: ToolResult) -> str | None:
    return result.data.summary if isinstance(result.data, Done) else None


def is_pending(result: ToolResult) -> bool:
    """Settling: ``PENDING`` (the calendar has not confirmed) or ``NOT_CONFIRMED_YET``."""
    return isinstance(result.data, Pending)


def failure_detail(result: ToolResult) -> str:
    """Why a tool did not do it: the failure's note (its reason when it has none)."""
    data = result.data
    if isinstance(data, Failed):
        return outcome_text.failure_note(data)
    if result.retry is not None:
        return result.retry.note
    return data.note if data is not None and data.note else result.text
