"""Every model request's token counts: one structured log line and Prometheus counters each.

``MeteredModel`` wraps whatever model is configured (offline, OpenAI, …) so each request is
recorded with the specialist (or "router") that made it, named by ``acting_as``.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

import structlog
from prometheus_client import Counter
from pydantic_ai.messages import ModelMessage, ModelResponse
from pydantic_ai.models import ModelRequestParameters
from pydantic_ai.models.wrapper import WrapperModel
from pydantic_ai.settings import ModelSettings

from agent_service.infrastructure.agent.history import bounded_messages

log = structlog.get_logger("agenda.model")

MODEL_REQUESTS = Counter("agenda_model_requests_total", "Model requests", ["specialist"])
MODEL_TOKENS = Counter("agenda_model_tokens_total", "Model tokens", ["specialist", "direction"])
_specialist: ContextVar[str] = ContextVar("agenda_specialist", default="unknown")


@contextmanager
def acting_as(specialist: str) -> Iterator[None]:
    """Attribute the model requests made inside the block to ``specialist``."""
    token = _specialist.set(specialist)
    try:
        yield
    finally:
        _specialist.reset(token)


class MeteredModel(WrapperModel):
    """The configured model, recording each request's input and output tokens."""

    async def request(
        self,
        messages: list[ModelMessage],
        model_settings: ModelSettings | None,
        model_request_parameters: ModelRequestParameters,
    ) -> ModelResponse:
        response = await super().request(
            bounded_messages(messages), model_settings, model_request_parameters
        )
        record_request(_specialist.get(), response.usage.input_tokens, response.usage.output_tokens)
        return response


def record_request(specialist: str, input_tokens: int, output_tokens: int) -> None:
    MODEL_REQUESTS.labels(specialist).inc()
    MODEL_TOKENS.labels(specialist, "input").inc(input_tokens)
    MODEL_TOKENS.labels(specialist, "output").inc(output_tokens)
    log.info(
        "model_request",
        specialist=specialist,
        input_tokens=input_tokens,
        output_tokens=output_tokens,
    )
