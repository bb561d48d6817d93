"""The model's outages made visible: every request under ``AGENT_MODEL_TIMEOUT_SECONDS``, a
request that gets no answer raised as ``ModelUnavailableError`` (a retryable failure of the
turn: UNAVAILABLE with ``RetryInfo`` to the gateway, nothing stored that a retry would
replay), one warning line per failure (no traceback), a counter per cause, and the model's
health as the ``agenda.agent.v1.Model`` entry of the health service.

What counts as an outage: the request could not reach the model, or the model's server did
not answer it (connection refused or reset, timeout, 5xx, 503/529 overloaded, 429 rate limit,
exhausted quota, rejected credentials, unknown model, a body that is not a completion).
What does not: a request the provider refuses for its content (context too long, invalid
arguments) and a model that answers badly (malformed tool calls, usage limits): the turn then
ends with the assistant's own polite reply, as before (see ``graph._run_guarded``).

Health is *passive*: the last request's outcome (SERVING before any request). While it is
failing, the health probe also asks the model server directly when it can
(``openai_models_probe``: ``GET {OPENAI_BASE_URL}/models``), so recovery is seen without
customer traffic; otherwise the next request that succeeds restores it.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator, Awaitable, Callable
from contextlib import AsyncExitStack, asynccontextmanager
from typing import Any, NoReturn

import structlog
from prometheus_client import Counter
from pydantic_ai import exceptions as ai
from pydantic_ai.messages import ModelMessage, ModelResponse
from pydantic_ai.models import Model, ModelRequestParameters, StreamedResponse
from pydantic_ai.models.wrapper import WrapperModel
from pydantic_ai.settings import ModelSettings
from pydantic_ai.tools import RunContext

from agent_service.domain.errors import ModelUnavailableError
from agent_service.infrastructure.settings import AgentSettings

MODEL_COMPONENT = "agenda.agent.v1.Model"
"""The model's entry in the agent's health service."""
OUTAGE_RETRY_AFTER_SECONDS = 5.0
"""The retry hint of an outage when the provider named none."""
MODEL_FAILURES = Counter(
    "agenda_model_failures_total",
    "Model requests that got no answer (the turn failed retryably), by cause",
    ["cause"],
)
log = structlog.get_logger("agenda.model")
Probe = Callable[[], Awaitable[bool]]

_CAUSES: tuple[tuple[type[BaseException], str], ...] = (
    (ai.ModelRequestTimeout, "timeout"),
    (ai.ModelTimeoutError, "timeout"),
    (ai.ModelConnectionError, "connection"),
    (ai.ModelRateLimitError, "rate_limited"),
    (ai.ModelQuotaExceededError, "quota_exceeded"),
    (ai.ModelOverloadedError, "overloaded"),
    (ai.ModelUnavailableError, "unavailable"),
    (ai.ModelServerError, "server_error"),
    (ai.ModelAuthenticationError, "credentials_rejected"),
    (ai.ModelNotFoundError, "model_not_found"),
)


def outage_cause(error: BaseException) -> str | None:
    """Why the model gave no answer, or None when ``error`` is not an outage (see module)."""
    for kind, cause in _CAUSES:
        if isinstance(error, kind):
            return cause
    if isinstance(error, ai.ModelHTTPError):
        return "server_error" if error.status_code >= 500 else None
    if type(error) is ai.ModelAPIError:  # a response that could not be read as a completion
        return "bad_response"
    return None


class ModelHealth:
    """The model's health as its requests found it (see the module)."""

    def __init__(self, probe: Probe | None = None) -> None:
        self.serving = True
        self._probe = probe

    def failed(self) -> None:
        self.serving = False

    def succeeded(self) -> None:
        self.serving = True

    async def check(self) -> bool:
        """The health probe: the passive state, re-checked directly while it is failing."""
        if not self.serving and self._probe is not None and await self._probe():
            self.serving = True
            log.info("model_reachable_again")
        return self.serving


class GuardedModel(WrapperModel):
    """The configured model under a per-request timeout, with outages made visible."""

    def __init__(self, wrapped: Model, health: ModelHealth, *, timeout: float) -> None:
        if timeout <= 0:
            raise ValueError("timeout must be positive")
        super().__init__(wrapped)
        self.health = health
        self._timeout = timeout

    async def request(
        self,
        messages: list[ModelMessage],
        model_settings: ModelSettings | None,
        model_request_parameters: ModelRequestParameters,
    ) -> ModelResponse:
        async with self._answering():
            return await super().request(messages, model_settings, model_request_parameters)

    @asynccontextmanager
    async def request_stream(
        self,
        messages: list[ModelMessage],
        model_settings: ModelSettings | None,
        model_request_parameters: ModelRequestParameters,
        run_context: RunContext[Any] | None = None,
    ) -> AsyncGenerator[StreamedResponse]:
        """Opening the stream is guarded like a request; what follows is the stream's own."""
        async with AsyncExitStack() as stack:
            async with self._answering():
                stream = await stack.enter_async_context(
                    super().request_stream(
                        messages, model_settings, model_request_parameters, run_context
                    )
                )
            yield stream

    @asynccontextmanager
    async def _answering(self) -> AsyncGenerator[None]:
        """The block (one request) within the timeout; an outage raised as the turn's
        ``ModelUnavailableError``; the health follows the outcome."""
        try:
            async with asyncio.timeout(self._timeout) as limit:
                yield
        except TimeoutError as error:
            if not limit.expired():
                raise
            self._outage("timeout", error)
        except ai.ModelAPIError as error:
            cause = outage_cause(error)
            if cause is None:
                raise
            self._outage(cause, error)
        self.health.succeeded()

    def _outage(self, cause: str, error: BaseException) -> NoReturn:
        self.health.failed()
        MODEL_FAILURES.labels(cause).inc()
        log.warning(
            "model_request_failed",
            cause=cause,
            model=self.model_name,
            error_type=type(error).__name__,
            status=getattr(error, "status_code", None),
        )
        hint = getattr(error, "retry_after", None)
        raise ModelUnavailableError(
            f"the language model did not answer ({cause.replace('_', ' ')})",
            retry_after_seconds=hint if hint else OUTAGE_RETRY_AFTER_SECONDS,
            cause=cause,
        ) from None


def model_probe(settings: AgentSettings, timeout: float) -> Probe | None:
    """How the health probe asks the model server directly while requests fail: the
    OpenAI-compatible ``/models`` listing when ``OPENAI_BASE_URL`` is set, else nothing."""
    if settings.model.startswith("openai-chat:") and settings.openai_base_url:
        return openai_models_probe(settings.openai_base_url, settings.openai_api_key, timeout)
    return None


def openai_models_probe(base_url: str, api_key: str | None, timeout: float) -> Probe:
    """A probe asking an OpenAI-compatible server for its models (no tokens spent)."""
    url = base_url.rstrip("/") + "/models"
    headers = {"Authorization": f"Bearer {api_key or 'not-needed'}"}

    async def probe() -> bool:
        import aiohttp  # only a real model's server is probed: the offline start skips ~0.4 s

        try:
            async with (
                aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=timeout)) as session,
                session.get(url, headers=headers) as response,
            ):
                return response.status == 200
        except (aiohttp.ClientError, TimeoutError):
            return False

    return probe
