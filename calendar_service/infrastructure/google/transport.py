"""Authorized Calendar v3 requests with retries that fit inside the caller's deadline."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from dataclasses import dataclass
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

from calendar_service.infrastructure.google.auth import ServiceAccountTokenSource
from calendar_service.infrastructure.google.budget import Budget, RetryPolicy
from calendar_service.infrastructure.google.failures import describe, is_retryable
from calendar_service.infrastructure.google.metrics import count_attempt, count_retry
from calendar_service.infrastructure.google.responses import api_error, read_json

JsonObject = dict[str, Any]
log = structlog.get_logger(__name__)


@dataclass(frozen=True, slots=True)
class ApiCall:
    """One REST call; ``path`` is relative to the API base and already percent-encoded."""

    method: str
    path: str
    params: Mapping[str, str] | None = None
    body: JsonObject | None = None


class _stop_when_budget_spent(stop_base):  # noqa: N801 - tenacity's naming style
    """Stop when the next backoff would leave no time to start another attempt."""

    def __init__(self, budget: Budget) -> None:
        self._budget = budget

    def __call__(self, retry_state: RetryCallState) -> bool:
        return not self._budget.allows_wait(retry_state.upcoming_sleep)


class GoogleTransport:
    """Sends ``ApiCall``s with a bearer token; retries only transient failures.

    Raises the internal failures of ``failures.py``; the adapter translates them.
    """

    def __init__(
        self,
        session: aiohttp.ClientSession,
        tokens: ServiceAccountTokenSource,
        *,
        api_base: str,
        policy: RetryPolicy,
    ) -> None:
        self._session = session
        self._tokens = tokens
        self._api_base = api_base.rstrip("/")
        self._policy = policy

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
        timeout = budget.attempt_timeout(self._policy.request_timeout)
        try:
            async with asyncio.timeout(timeout):
                payload = await self._send_authorized(call)
        except (Exception, asyncio.CancelledError) as error:  # cancelled: the caller gave up
            count_attempt(call.method, error)
            raise
        count_attempt(call.method, None)
        return payload

    async def _send_authorized(self, call: ApiCall) -> JsonObject:
        """One attempt; a 401 refreshes the token once and resends, a second 401 fails."""
        token = await self._tokens.token(self._session)
        status, payload = await self._send(call, token)
        if status == 401:
            log.info("google_calendar.token_rejected", method=call.method, path=call.path)
            self._tokens.invalidate(token)
            token = await self._tokens.token(self._session)
            status, payload = await self._send(call, token)
        if status >= 400:
            raise api_error(status, payload)
        return payload

    async def _send(self, call: ApiCall, token: str) -> tuple[int, JsonObject]:
        async with self._session.request(
            call.method,
            self._api_base + call.path,
            params=call.params,
            json=call.body,
            headers={"Authorization": f"Bearer {token}"},
        ) as response:
            return response.status, await read_json(response)


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
