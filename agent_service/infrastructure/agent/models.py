"""``AGENT_MODEL`` → a Pydantic AI model: ``offline`` (the default), or any provider string;
``openai-chat:NAME`` with ``OPENAI_BASE_URL`` reaches any OpenAI-compatible server."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator

from pydantic_ai.messages import ModelMessage, ModelResponse, TextPart, ToolCallPart
from pydantic_ai.models import Model, infer_model
from pydantic_ai.models.function import AgentInfo, DeltaToolCall, DeltaToolCalls, FunctionModel

from agent_service.infrastructure.agent.offline.model import offline_model_function

OFFLINE = "offline"


def build_model(
    name: str, *, openai_base_url: str | None = None, openai_api_key: str | None = None
) -> Model:
    """The model for every agent. ``offline`` is deterministic and needs no network."""
    if name == OFFLINE:
        return FunctionModel(
            _offline_on_the_loop, stream_function=offline_stream, model_name=OFFLINE
        )
    if name.startswith("openai-chat:") and openai_base_url:
        from pydantic_ai.models.openai import OpenAIChatModel
        from pydantic_ai.providers.openai import OpenAIProvider

        provider = OpenAIProvider(base_url=openai_base_url, api_key=openai_api_key or "not-needed")
        return OpenAIChatModel(name.split(":", 1)[1], provider=provider)
    return infer_model(name)


async def _offline_on_the_loop(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
    """The offline model is short pure-Python work: run it on the event loop. (A plain
    function would be sent to a worker thread on every request — a thread hop that costs more
    CPU than the work and cannot run in parallel under the GIL anyway.)"""
    return offline_model_function(messages, info)


async def offline_stream(
    messages: list[ModelMessage], info: AgentInfo
) -> AsyncIterator[str | DeltaToolCalls]:
    """The offline model, streamed: its tool calls first (a response that calls tools is no
    reply), then its text a word at a time, as a real model's tokens arrive."""
    response = offline_model_function(messages, info)
    calls = [part for part in response.parts if isinstance(part, ToolCallPart)]
    if calls:
        yield tool_call_deltas(calls)
    for part in response.parts:
        if isinstance(part, TextPart):
            for word in _WORD.findall(part.content) or [part.content]:
                yield word


_WORD = re.compile(r"\s*\S+\s*|\s+")


def tool_call_deltas(calls: list[ToolCallPart]) -> DeltaToolCalls:
    """``calls`` as one streamed chunk (each call whole)."""
    return {
        index: DeltaToolCall(
            name=call.tool_name, json_args=call.args_as_json_str(), tool_call_id=call.tool_call_id
        )
        for index, call in enumerate(calls)
    }
