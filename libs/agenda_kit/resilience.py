"""Resilience: a circuit breaker with an injectable clock. (The one cache layer, with its
write fencing, is ``agenda_kit.cache``; its names are re-exported here for older imports.)

Meant for one asyncio event loop: no method awaits while it changes shared state, so
coroutines cannot interleave inside it and no lock is needed (it is not thread-safe).
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from enum import StrEnum
from typing import TypeVar

from agenda_kit.cache import Clock, Fence, FencedCache, TtlCache

__all__ = [
    "BreakerState",
    "CircuitBreaker",
    "CircuitOpenError",
    "Clock",
    "Fence",
    "FencedCache",
    "TtlCache",
]

T = TypeVar("T")
FailurePredicate = Callable[[BaseException], bool]


class BreakerState(StrEnum):
    CLOSED = "closed"
    OPEN = "open"
    HALF_OPEN = "half_open"


class CircuitOpenError(Exception):
    """The breaker refused the call without making it; ``retry_after`` seconds until a trial."""

    def __init__(self, retry_after: float) -> None:
        super().__init__(f"circuit open; next trial in {max(retry_after, 0.0):.2f}s")
        self.retry_after = max(retry_after, 0.0)


def _every_exception(error: BaseException) -> bool:
    return isinstance(error, Exception)


class CircuitBreaker:
    """Kept our own: what no library offered, measured (2026-11-30, purgatory 3.0.1 and
    aiobreaker 1.2.0, a script driving each with threshold 1 and a 50 ms reset): both let
    10 of 10 concurrent calls through in HALF_OPEN (no single trial: a recovering calendar
    takes the whole burst), both read the wall clock (``time.time``/``datetime.now``: no
    injectable clock for the state-machine tests); purgatory counted one cancelled call as a
    failure (state ``opened``); aiobreaker replaces the failing call's error with its own
    ``CircuitBreakerError`` (the caller loses the gRPC status). Counting only
    UNAVAILABLE/DEADLINE_EXCEEDED would have fit both (exclusion predicates).

    CLOSED → OPEN after ``failure_threshold`` consecutive failures → after ``reset_timeout``
    seconds HALF_OPEN lets exactly one trial call through → its success closes, its failure
    re-opens.

    Rules:
    - only errors for which ``is_failure`` is true count; any other ``Exception`` proves the
      upstream answered, so it counts as a success (a NOT_FOUND never opens the breaker);
    - while the trial is in flight every other call is rejected with ``CircuitOpenError``;
    - a cancelled trial (``CancelledError``) is neutral: the next call may try again;
    - ``state`` changes only on calls (OPEN reads as OPEN until a call finds the timeout over);
      ``on_state_change(old, new)`` is called on every transition (for metrics).
    """

    def __init__(
        self,
        *,
        failure_threshold: int = 5,
        reset_timeout: float = 10.0,
        is_failure: FailurePredicate = _every_exception,
        clock: Clock = time.monotonic,
        on_state_change: Callable[[BreakerState, BreakerState], None] | None = None,
    ) -> None:
        if failure_threshold < 1 or reset_timeout < 0:
            raise ValueError("failure_threshold must be >= 1 and reset_timeout >= 0")
        self.failure_threshold = failure_threshold
        self.reset_timeout = reset_timeout
        self._is_failure = is_failure
        self._clock = clock
        self._on_state_change = on_state_change
        self._state = BreakerState.CLOSED
        self._failures = 0
        self._opened_at = 0.0
        self._trial_in_flight = False

    @property
    def state(self) -> BreakerState:
        return self._state

    @property
    def consecutive_failures(self) -> int:
        return self._failures

    @asynccontextmanager
    async def guard(self, is_failure: FailurePredicate | None = None) -> AsyncIterator[None]:
        """Run the block under the breaker; ``is_failure`` overrides the breaker's predicate."""
        trial = self._admit()
        try:
            yield
        except BaseException as error:
            self._record_error(error, trial, is_failure or self._is_failure)
            raise
        self._record_success(trial)

    async def call(
        self, fn: Callable[[], Awaitable[T]], is_failure: FailurePredicate | None = None
    ) -> T:
        """``await fn()`` under the breaker."""
        async with self.guard(is_failure):
            return await fn()

    def _admit(self) -> bool:
        """Admit a call or raise ``CircuitOpenError``; True when the call is the trial."""
        if self._state is BreakerState.CLOSED:
            return False
        if self._state is BreakerState.OPEN:
            wait = self._opened_at + self.reset_timeout - self._clock()
            if wait > 0:
                raise CircuitOpenError(wait)
            self._move(BreakerState.HALF_OPEN)
        if self._trial_in_flight:
            raise CircuitOpenError(0.0)
        self._trial_in_flight = True
        return True

    def _record_error(
        self, error: BaseException, trial: bool, is_failure: FailurePredicate
    ) -> None:
        if is_failure(error):
            self._record_failure(trial)
        elif isinstance(error, Exception):
            self._record_success(trial)
        elif trial:  # cancelled or interrupted: the trial proved nothing
            self._trial_in_flight = False

    def _record_success(self, trial: bool) -> None:
        if trial:
            self._trial_in_flight = False
            self._move(BreakerState.CLOSED)
        if self._state is BreakerState.CLOSED:
            self._failures = 0

    def _record_failure(self, trial: bool) -> None:
        if trial:
            self._trial_in_flight = False
            self._open()
        elif self._state is BreakerState.CLOSED:
            self._failures += 1
            if self._failures >= self.failure_threshold:
                self._open()

    def _open(self) -> None:
        self._opened_at = self._clock()
        self._move(BreakerState.OPEN)

    def _move(self, new: BreakerState) -> None:
        old, self._state = self._state, new
        if new is BreakerState.CLOSED:
            self._failures = 0
        if old is not new and self._on_state_change is not None:
            self._on_state_change(old, new)
