"""``AGENT_MODEL`` → a Pydantic AI model: ``offline`` (the default), or any provider string;
``openai-chat:NAME`` with ``OPENAI_BASE_URL`` reaches any OpenAI-compatible server."""

from __future__ import annotations

from pydantic_ai.messages import ModelMessage, ModelResponse
from pydantic_ai.models import Model, infer_model
from pydantic_ai.models.function import AgentInfo, FunctionModel

from agent_service.infrastructure.agent.offline.model import offline_model_function

OFFLINE = "offline"


def build_model(
    name: str, *, openai_base_url: str | None = None, openai_api_key: str | None = None
) -> Model:
    """The model for every agent. ``offline`` is deterministic and needs no network."""
    if name == OFFLINE:
        return FunctionModel(_offline_on_the_loop, model_name=OFFLINE)
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
