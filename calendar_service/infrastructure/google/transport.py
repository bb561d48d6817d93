"""Authorized Calendar v3 requests with retries that fit inside the caller's deadline."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import aiohttp
import structlog
from tenacity import (
    AsyncRetrying,
    RetryCallState,
    retry_if_exception,
    stop_after_attempt,
    wait_exponential_jitter,
)
from tenacity.stop import stop_base

from calendar_service.infrastructure.google.answers import AnswerShape, decode
from calendar_service.infrastructure.google.auth import ServiceAccountTokenSource
from calendar_service.infrastructure.google.budget import Budget, RetryPolicy
from calendar_service.infrastructure.google.failures import (
    GoogleApiError,
    TokenRequestError,
    describe,
    is_quota,
    is_retryable,
)
from calendar_service.infrastructure.google.metrics import count_attempt, count_retry
from calendar_service.infrastructure.google.quota import CREDENTIALS, QuotaGates
from calendar_service.infrastructure.google.responses import api_error, error_json, retry_seconds

JsonObject = dict[str, Any]
log = structlog.get_logger(__name__)


@dataclass(frozen=True, slots=True)
class ApiCall:
    """One REST call; ``path`` is relative to the API base and already percent-encoded;
    ``calendar_id`` names the calendar it acts on (its quota gate), ``if_match`` an etag the
    event must still have (Google answers 412 otherwise). ``answer`` is the shape its 2xx
    body must have (``answers``; required: no call reads an answer it did not describe)."""

    method: str
    path: str
    params: Mapping[str, str] | Sequence[tuple[str, str]] | None = None
    body: JsonObject | None = None
    calendar_id: str | None = None
    if_match: str | None = None
    answer: AnswerShape = field(kw_only=True)


class _stop_when_budget_spent(stop_base):  # noqa: N801 - tenacity's naming style
    """Stop when the next backoff would leave no time to start another attempt."""

    def __init__(self, budget: Budget) -> None:
        self._budget = budget

    def __call__(self, retry_state: RetryCallState) -> bool:
        return not self._budget.allows_wait(retry_state.upcoming_sleep)


class GoogleTransport:
    """Sends ``ApiCall``s with a bearer token; retries only transient failures, and sends
    nothing a quota gate refuses (``quota.QuotaGates``: a sustained quota error costs Google
    at most one request per call).

    Raises the internal failures of ``failures.py`` and ``quota.QuotaOpenError``; the
    adapter translates them.
    """

    def __init__(
        self,
        session: aiohttp.ClientSession,
        tokens: ServiceAccountTokenSource,
        *,
        api_base: str,
        policy: RetryPolicy,
        gates: QuotaGates | None = None,
    ) -> None:
        self._session = session
        self._tokens = tokens
        self._api_base = api_base.rstrip("/")
        self._policy = policy
        self.gates = gates or QuotaGates()

    async def call(self, call: ApiCall, budget: Budget) -> JsonObject:
        """The JSON answer of ``call``, retried with jittered backoff within ``budget``."""
        policy = self._policy
        retrying = AsyncRetrying(
            stop=stop_after_attempt(policy.max_attempts) | _stop_when_budget_spent(budget),
            wait=wait_exponential_jitter(
                multiplier=policy.backoff_initial,
                max=policy.backoff_max,
                jitter=policy.backoff_jitter,
            ),
            retry=retry_if_exception(is_retryable),
            before_sleep=lambda state: _note_retry(call, budget, state),
            reraise=True,
        )
        result: JsonObject = await retrying(self._attempt, call, budget)
        return result

    async def _attempt(self, call: ApiCall, budget: Budget) -> JsonObject:
        keys = (CREDENTIALS, *self.gates.keys(call.method, call.calendar_id))
        self.gates.admit(keys)  # refused: nothing is sent (and nothing retried)
        timeout = budget.attempt_timeout(self._policy.request_timeout)
        try:
            async with asyncio.timeout(timeout):
                payload = await self._send_authorized(call)
        except (Exception, asyncio.CancelledError) as error:  # cancelled: the caller gave up
            count_attempt(call.method, error)
            self._gate_failure(call, keys, error)
            raise
        count_attempt(call.method, None)
        self.gates.succeeded(keys)
        return payload

    def _gate_failure(self, call: ApiCall, keys: tuple[str, ...], error: BaseException) -> None:
        """Count the failure on the gates; raise the gate's refusal when a quota answer
        opened it (so this call is not retried)."""
        if isinstance(error, GoogleApiError) and is_quota(error):
            opened = self.gates.quota_failed(call.calendar_id, error)
            if opened is not None:
                raise opened from error
            return
        if _credentials_refused(error):
            self.gates.credentials_failed()
            return
        self.gates.interrupted(keys)

    async def _send_authorized(self, call: ApiCall) -> JsonObject:
        """One attempt; a 401 refreshes the token once and resends, a second 401 fails."""
        token = await self._tokens.token(self._session)
        status, payload, retry_after = await self._send(call, token)
        if status == 401:
            log.info("google_calendar.token_rejected", method=call.method, path=call.path)
            self._tokens.invalidate(token)
            token = await self._tokens.token(self._session)
            status, payload, retry_after = await self._send(call, token)
        if status >= 400:
            raise api_error(status, payload, retry_after)
        return payload

    async def _send(self, call: ApiCall, token: str) -> tuple[int, JsonObject, float | None]:
        headers = {"Authorization": f"Bearer {token}"}
        if call.if_match is not None:
            headers["If-Match"] = call.if_match
        async with self._session.request(
            call.method,
            self._api_base + call.path,
            params=call.params,
            json=call.body,
            headers=headers,
        ) as response:
            raw = await response.read()
            hint, date = response.headers.get("Retry-After"), response.headers.get("Date")
            retry_after = retry_seconds(hint, date)
            if response.status >= 300:
                return response.status, error_json(raw), retry_after
            return response.status, call.answer(decode(raw)), retry_after


def _credentials_refused(error: BaseException) -> bool:
    """The token endpoint refused the assertion (not a transient failure), or Google refused
    a token just issued: the service's credentials are not accepted."""
    if isinstance(error, TokenRequestError):
        return not is_retryable(error)
    return isinstance(error, GoogleApiError) and error.status == 401


def _note_retry(call: ApiCall, budget: Budget, state: RetryCallState) -> None:
    error = state.outcome.exception() if state.outcome is not None else None
    budget.last_failure = error
    count_retry(error)
    log.warning(
        "google_calendar.retry",
        method=call.method,
        path=call.path,
        attempt=state.attempt_number,
        reason=describe(error) if error is not None else "unknown",
        sleep_s=round(state.upcoming_sleep, 3),
        budget_left_s=round(budget.left(), 3),
    )
