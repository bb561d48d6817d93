"""Google's quota as a budget the whole service shares: gates that stop sending while Google
refuses for quota, so a sustained quota error costs Google at most one request per RPC.

Rules (``QuotaGates``):
- each quota answer is counted on its gate: rate limits (429, ``rateLimitExceeded``,
  ``userRateLimitExceeded``) and ``dailyLimitExceeded`` on the project's gate (every request
  of this service account), ``quotaExceeded`` (Calendar usage limits, which Google keeps per
  calendar) on that calendar's gate, which only writes to that calendar pass;
- a gate opens after ``threshold`` consecutive rate-limit answers with no success between
  them (under a sustained limit every answer is one; scattered 429s are retried inside
  the RPC as before), or at once for ``quotaExceeded`` and ``dailyLimitExceeded``; it
  stays open for its cooldown: Google's ``Retry-After`` when sent, else doubling from
  ``initial`` to ``maximum`` seconds (``quotaExceeded``: from ``usage_cooldown``), and for
  ``dailyLimitExceeded`` until the next midnight in Google's quota time zone (Pacific);
- while a gate is open, requests through it are refused without being sent
  (``QuotaOpenError`` with the seconds left: the caller's ``RetryInfo``); once the cooldown
  has passed, exactly one request goes through as a probe (the others are still refused)
  — success closes the gate, another quota answer reopens it for a doubled cooldown, any
  other failure lets the next request probe;
- credentials refused permanently (``invalid_grant`` …) close the ``credentials`` gate for
  ``credentials_cooldown`` seconds the same way, so a revoked key costs the token endpoint
  one request per cooldown, not one per RPC.

Meant for one asyncio event loop: no method awaits.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

from calendar_service.infrastructure.google.failures import GoogleApiError

PROJECT = "project"
CREDENTIALS = "credentials"
QUOTA_RESET_ZONE = ZoneInfo("America/Los_Angeles")
"""Google resets daily quotas at midnight Pacific Time."""
RATE_LIMITED, QUOTA_EXCEEDED, DAILY_LIMIT_EXCEEDED = (
    "RATE_LIMITED",
    "QUOTA_EXCEEDED",
    "DAILY_LIMIT_EXCEEDED",
)
CREDENTIALS_INVALID = "CREDENTIALS_INVALID"
_WRITES = frozenset({"POST", "PUT", "PATCH", "DELETE"})


class QuotaOpenError(Exception):
    """A gate refused the request without sending it (or a quota answer just opened it):
    ``reason`` is the port's reason, ``retry_after`` the seconds until a probe may go."""

    def __init__(self, reason: str, retry_after: float) -> None:
        super().__init__(f"{reason}: retry in {retry_after:.1f} s")
        self.reason = reason
        self.retry_after = retry_after


@dataclass(frozen=True, slots=True, kw_only=True)
class QuotaPolicy:
    """Thresholds and cooldowns (seconds) of the gates; see the module's rules."""

    threshold: int = 8
    initial: float = 1.0
    maximum: float = 300.0
    usage_cooldown: float = 600.0
    credentials_cooldown: float = 30.0


@dataclass(slots=True)
class Gate:
    """One budget: consecutive quota answers, open until, the next cooldown, a probe out."""

    reason: str = RATE_LIMITED
    failures: int = 0
    open_until: float | None = None
    cooldown: float = 0.0
    probing: bool = False

    def refusal(self, now: float) -> float | None:
        """Seconds to wait (the request is refused), or None: it may go (maybe as the probe)."""
        if self.open_until is None:
            return None
        if now < self.open_until:
            return self.open_until - now
        if self.probing:
            return max(self.cooldown, 0.001)
        self.probing = True
        return None


@dataclass
class QuotaGates:
    """The project's, the credentials' and each calendar's gate (see the module's rules)."""

    policy: QuotaPolicy = field(default_factory=QuotaPolicy)
    clock: Callable[[], float] = time.monotonic
    wall: Callable[[], datetime] = lambda: datetime.now(UTC)
    gates: dict[str, Gate] = field(default_factory=dict)
    refused: int = 0
    """Requests refused without being sent (for tests and metrics)."""

    @staticmethod
    def keys(method: str, calendar_id: str | None) -> tuple[str, ...]:
        """The gates a request passes: the project's, and its calendar's for a write."""
        if calendar_id is not None and method in _WRITES:
            return (PROJECT, f"calendar:{calendar_id}")
        return (PROJECT,)

    def admit(self, keys: Iterable[str]) -> None:
        """Let a request through, or raise ``QuotaOpenError`` for the first gate refusing it."""
        now = self.clock()
        for key in keys:
            gate = self.gates.get(key)
            wait = None if gate is None else gate.refusal(now)
            if gate is not None and wait is not None:
                self.refused += 1
                raise QuotaOpenError(gate.reason, wait)

    def succeeded(self, keys: Iterable[str]) -> None:
        """A request through ``keys`` was answered: their gates close."""
        for key in keys:
            self.gates.pop(key, None)

    def interrupted(self, keys: Iterable[str]) -> None:
        """A probe failed for another reason (5xx, timeout): the next request may probe."""
        for key in keys:
            gate = self.gates.get(key)
            if gate is not None:
                gate.probing = False

    def quota_failed(self, calendar_id: str | None, error: GoogleApiError) -> QuotaOpenError | None:
        """Count a quota answer; the ``QuotaOpenError`` to raise when its gate is now open
        (the request is not retried), else None (retry as usual)."""
        if error.reason == "quotaExceeded" and calendar_id is not None:
            key, reason = f"calendar:{calendar_id}", QUOTA_EXCEEDED
        elif error.reason == "dailyLimitExceeded":
            key, reason = PROJECT, DAILY_LIMIT_EXCEEDED
        else:
            key, reason = PROJECT, RATE_LIMITED
        gate = self.gates.setdefault(key, Gate(reason=reason))
        gate.failures += 1
        gate.reason = reason
        if reason == RATE_LIMITED and gate.failures < self.policy.threshold and not gate.probing:
            return None
        return QuotaOpenError(reason, self._open(gate, error.retry_after))

    def credentials_failed(self) -> None:
        """The provider refused the service's credentials permanently."""
        gate = self.gates.setdefault(CREDENTIALS, Gate(reason=CREDENTIALS_INVALID))
        gate.failures += 1
        self._open(gate, None)

    def _open(self, gate: Gate, retry_after: float | None) -> float:
        policy = self.policy
        if gate.reason == DAILY_LIMIT_EXCEEDED:
            cooldown = seconds_to_quota_reset(self.wall())
        elif retry_after is not None and retry_after > 0:
            cooldown = min(retry_after, policy.maximum)
        else:
            first = {
                QUOTA_EXCEEDED: policy.usage_cooldown,
                CREDENTIALS_INVALID: policy.credentials_cooldown,
            }.get(gate.reason, policy.initial)
            cooldown = first if gate.open_until is None else min(gate.cooldown * 2, policy.maximum)
            cooldown = max(cooldown, first)
        gate.cooldown = cooldown
        gate.open_until = self.clock() + cooldown
        gate.probing = False
        return cooldown


def seconds_to_quota_reset(now: datetime) -> float:
    """Seconds from ``now`` to the next midnight in Google's quota zone (at least 1)."""
    local = now.astimezone(QUOTA_RESET_ZONE)
    midnight = datetime.combine(local.date() + timedelta(days=1), datetime.min.time())
    reset = midnight.replace(tzinfo=QUOTA_RESET_ZONE)
    return max((reset - now).total_seconds(), 1.0)
