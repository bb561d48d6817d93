"""Building the offline model's responses: tool calls or final text."""

from __future__ import annotations

import re
from typing import Any

from pydantic_ai.messages import ModelResponse, TextPart, ToolCallPart

_SUMMARY = re.compile(r"CONFIRMATION NEEDED: (.*?)\. Nothing has been changed", re.S)
_DONE = re.compile(r"^(?:BOOKED|CANCELLED|RESCHEDULED): (.*?)\.(?: .*)?$", re.S)


def call(tool: str, **arguments: Any) -> ModelResponse:
    return ModelResponse(parts=[ToolCallPart(tool, arguments)], model_name="offline")


def calls(*tools: str) -> ModelResponse:
    return ModelResponse(parts=[ToolCallPart(tool, {}) for tool in tools], model_name="offline")


def text(reply: str) -> ModelResponse:
    return ModelResponse(parts=[TextPart(reply)], model_name="offline")


def confirmation_summary(result: str) -> str | None:
    match = _SUMMARY.search(result)
    return match.group(1) if match else None


def done_summary(result: str) -> str | None:
    match = _DONE.match(result.strip())
    return match.group(1) if match else None


def failure_detail(result: str) -> str:
    """The reason after ``NOT …:`` or ``UNAVAILABLE:``."""
    return result.split(":", 1)[1].strip() if ":" in result else result
