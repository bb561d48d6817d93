"""Every model request's token counts: a structured log line and Prometheus counters.

One ``RunUsage`` accumulates over a whole turn (so the usage limits are per turn); each agent
run records its own share as the difference from a snapshot taken before it.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import structlog
from prometheus_client import Counter
from pydantic_ai.usage import RunUsage

log = structlog.get_logger("agenda.model")

MODEL_REQUESTS = Counter("agenda_model_requests_total", "Model requests", ["specialist"])
MODEL_TOKENS = Counter("agenda_model_tokens_total", "Model tokens", ["specialist", "direction"])


@asynccontextmanager
async def recorded(specialist: str, usage: RunUsage) -> AsyncIterator[None]:
    """Record what the runs inside the block added to ``usage``, even when they fail."""
    before = (usage.requests, usage.input_tokens, usage.output_tokens)
    try:
        yield
    finally:
        requests = usage.requests - before[0]
        input_tokens = usage.input_tokens - before[1]
        output_tokens = usage.output_tokens - before[2]
        MODEL_REQUESTS.labels(specialist).inc(requests)
        MODEL_TOKENS.labels(specialist, "input").inc(input_tokens)
        MODEL_TOKENS.labels(specialist, "output").inc(output_tokens)
        log.info(
            "model_usage",
            specialist=specialist,
            requests=requests,
            input_tokens=input_tokens,
            output_tokens=output_tokens,
        )
