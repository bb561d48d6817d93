"""Pydantic AI message history kept as JSON in the graph state (per specialist)."""

from __future__ import annotations

from typing import Any

from pydantic_ai.messages import (
    ModelMessage,
    ModelMessagesTypeAdapter,
    ModelRequest,
    UserPromptPart,
)

KEEP_MESSAGES = 16


def dump_history(messages: list[ModelMessage]) -> list[Any]:
    """JSON of the latest messages, cut so the kept part starts at a customer message."""
    kept = messages[-KEEP_MESSAGES:]
    for index, message in enumerate(kept):
        if isinstance(message, ModelRequest) and any(
            isinstance(part, UserPromptPart) for part in message.parts
        ):
            kept = kept[index:]
            break
    else:
        kept = []
    dumped: list[Any] = ModelMessagesTypeAdapter.dump_python(kept, mode="json")
    return dumped


def load_history(data: list[Any] | None) -> list[ModelMessage] | None:
    if not data:
        return None
    return ModelMessagesTypeAdapter.validate_python(data)
