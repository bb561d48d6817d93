"""What a model is sent for each tool: compact JSON schemas, and only the tools its step can use.

Pydantic's schemas carry noise a model does not need: ``additionalProperties: false``, an
optional argument as ``anyOf [X, null]`` with ``default: null``, ``format: uuid`` beside a
description that already says where the id comes from, and docstring line breaks. The compact
schema keeps every argument, its type, description, enum and whether it is required; the
arguments are still validated against the function's own signature when a tool is called.
Every agent gets the same compaction (the router, each specialist, and any single agent).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from pydantic_ai import RunContext
from pydantic_ai.capabilities import AbstractCapability, PrepareOutputTools, PrepareTools
from pydantic_ai.tools import ToolDefinition

from agent_service.infrastructure.agent.deps import AgentDeps

ToolGate = Callable[[RunContext[AgentDeps], list[ToolDefinition]], list[ToolDefinition]]
"""Which of a specialist's tools its current step can use (see ``steps.py``)."""
NOISE = frozenset({"title", "additionalProperties"})
IMPLIED_FORMATS = frozenset({"uuid"})


def compact_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """An object schema without noise; anything it does not know how to shorten stays."""
    if schema.get("type") != "object" or "$defs" in schema:
        return schema
    compact: dict[str, Any] = {"type": "object"}
    compact["properties"] = {
        name: _compact_property(value) for name, value in schema.get("properties", {}).items()
    }
    if schema.get("required"):
        compact["required"] = list(schema["required"])
    return compact


def _compact_property(value: dict[str, Any]) -> dict[str, Any]:
    variants = value.get("anyOf")
    if isinstance(variants, list):
        kept = [v for v in variants if v != {"type": "null"}]
        if len(kept) == 1 and len(variants) == 2 and value.get("default") is None:
            # Optional[X] = None: the argument is simply not required.
            value = {k: v for k, v in value.items() if k not in ("anyOf", "default")} | kept[0]
    out: dict[str, Any] = {}
    for key, item in value.items():
        if key in NOISE or (key == "format" and item in IMPLIED_FORMATS):
            continue
        if key == "default" and item is False and value.get("type") == "boolean":
            continue  # an optional flag is off unless sent

        out[key] = one_line(item) if key == "description" and isinstance(item, str) else item
    return out


def one_line(text: str) -> str:
    return " ".join(text.split())


def compact(tool_defs: list[ToolDefinition]) -> list[ToolDefinition]:
    return [
        replace(
            tool,
            description=one_line(tool.description) if tool.description else tool.description,
            parameters_json_schema=compact_schema(tool.parameters_json_schema),
        )
        for tool in tool_defs
    ]


def compact_tools(
    ctx: RunContext[AgentDeps], tool_defs: list[ToolDefinition]
) -> list[ToolDefinition]:
    return compact(tool_defs)


def tool_capabilities(
    gate: ToolGate | None = None, output_gate: ToolGate | None = None
) -> list[AbstractCapability[AgentDeps]]:
    """An agent's tool preparation: its step's tools (``gate``) and output tools
    (``output_gate``), compact."""

    def prepare(
        ctx: RunContext[AgentDeps], tool_defs: list[ToolDefinition]
    ) -> list[ToolDefinition]:
        return compact(gate(ctx, tool_defs) if gate is not None else tool_defs)

    def prepare_outputs(
        ctx: RunContext[AgentDeps], tool_defs: list[ToolDefinition]
    ) -> list[ToolDefinition]:
        return compact(output_gate(ctx, tool_defs) if output_gate is not None else tool_defs)

    return [PrepareTools(prepare), PrepareOutputTools(prepare_outputs)]
