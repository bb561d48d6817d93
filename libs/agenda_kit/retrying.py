"""The one retry loop of the kit and the services: ``tenacity`` under a deadline.

``retrying(...)`` returns a ``tenacity.AsyncRetrying`` that tries at most ``policy.max_attempts``
times, retries only errors ``retry_if`` accepts, waits ``policy.backoff(n)`` between tries and
never starts a try it could not finish: it stops when the pause plus ``min_attempt_s`` would
reach the end of the budget (``remaining()`` seconds; None = no budget, by default the caller's
:mod:`agenda_kit.deadline`). The last error is re-raised as it was.

    async for attempt in retrying(RetryPolicy(max_attempts=2), retry_if=is_ambiguous):
        with attempt:
            return await write()
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from dataclasses import dataclass

from tenacity import AsyncRetrying, RetryCallState, retry_if_exception

from agenda_kit import deadline

__all__ = ["RetryPolicy", "retrying"]

Remaining = Callable[[], float | None]
OnRetry = Callable[[int, float], None]
"""Told ``(attempt that failed, pause in seconds)`` before each pause."""


@dataclass(frozen=True, slots=True)
class RetryPolicy:
    """At most ``max_attempts`` tries in all, waiting ``min(cap, base * 2**(n-1))`` times a
    random 0.5–1 after try ``n`` (``backoff_base`` 0: no pause)."""

    max_attempts: int = 3
    backoff_base: float = 0.1
    backoff_cap: float = 1.0

    def __post_init__(self) -> None:
        if self.max_attempts < 1 or self.backoff_base < 0 or self.backoff_cap < 0:
            raise ValueError("max_attempts must be >= 1 and the backoff non-negative")

    def backoff(self, attempt: int) -> float:
        ceiling = min(self.backoff_cap, self.backoff_base * 2.0 ** (attempt - 1))
        return ceiling * random.uniform(0.5, 1.0)  # noqa: S311 - jitter, not cryptography


def retrying(
    policy: RetryPolicy,
    *,
    retry_if: Callable[[BaseException], bool],
    remaining: Remaining = deadline.remaining,
    min_attempt_s: float = 0.0,
    on_retry: OnRetry | None = None,
) -> AsyncRetrying:
    """An ``AsyncRetrying`` for ``policy`` (see the module docstring)."""

    def wait(state: RetryCallState) -> float:
        return policy.backoff(state.attempt_number)

    def stop(state: RetryCallState) -> bool:
        if state.attempt_number >= policy.max_attempts:
            return True
        left = remaining()
        return left is not None and state.upcoming_sleep + min_attempt_s >= left

    def before_sleep(state: RetryCallState) -> None:
        if on_retry is not None:
            on_retry(state.attempt_number, state.upcoming_sleep)

    return AsyncRetrying(
        sleep=asyncio.sleep,
        stop=stop,
        wait=wait,
        retry=retry_if_exception(retry_if),
        before_sleep=before_sleep,
        reraise=True,
    )
