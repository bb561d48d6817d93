"""Retry policy and the per-operation time budget taken from the caller's deadline."""

from __future__ import annotations

import time
from dataclasses import dataclass

from agenda_kit import deadline
from calendar_service.infrastructure.google.failures import BudgetExhaustedError


@dataclass(frozen=True, slots=True, kw_only=True)
class RetryPolicy:
    """How hard one operation tries: attempts, per-attempt timeout, backoff, budget."""

    max_attempts: int = 5
    request_timeout: float = 10.0
    default_budget: float = 30.0
    backoff_initial: float = 0.25
    backoff_max: float = 8.0
    backoff_jitter: float = 0.5
    start_margin: float = 0.05


class Budget:
    """The monotonic instant an operation must finish by; no attempt starts too close to it."""

    def __init__(self, finish_by: float, margin: float) -> None:
        self._finish_by = finish_by
        self._margin = margin
        self.last_failure: BaseException | None = None

    @classmethod
    def start(cls, policy: RetryPolicy) -> Budget:
        """The caller's deadline (``agenda_kit.deadline``) or, without one, the default budget."""
        left = deadline.remaining()
        seconds = policy.default_budget if left is None else left
        return cls(time.monotonic() + seconds, policy.start_margin)

    def left(self) -> float:
        return self._finish_by - time.monotonic()

    def attempt_timeout(self, request_timeout: float) -> float:
        """Timeout for an attempt about to start; refuses to start one in the last margin."""
        left = self.left()
        if left < self._margin:
            raise BudgetExhaustedError(self.last_failure)
        return min(request_timeout, left)

    def allows_wait(self, seconds: float) -> bool:
        """Whether, after sleeping ``seconds``, an attempt could still start."""
        return self.left() - seconds >= self._margin
