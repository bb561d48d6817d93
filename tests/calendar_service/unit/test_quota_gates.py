"""The quota budget (``QuotaGates``) on an injected clock: when a gate opens, what it refuses
without sending, the single probe once the cooldown passed, doubling, recovery, Google's
Retry-After, the daily reset at midnight Pacific, and the credentials gate."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from calendar_service.infrastructure.google.failures import GoogleApiError
from calendar_service.infrastructure.google.quota import (
    CREDENTIALS,
    PROJECT,
    QuotaGates,
    QuotaOpenError,
    QuotaPolicy,
    seconds_to_quota_reset,
)

RATE = GoogleApiError(429, "rateLimitExceeded", "")
USAGE = GoogleApiError(403, "quotaExceeded", "")
DAILY = GoogleApiError(403, "dailyLimitExceeded", "")


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def gates(clock: Clock, **policy: float) -> QuotaGates:
    defaults = {"threshold": 3, "initial": 1.0, "maximum": 8.0, "usage_cooldown": 60.0}
    return QuotaGates(
        policy=QuotaPolicy(**(defaults | policy)),  # type: ignore[arg-type]
        clock=clock,
        wall=lambda: datetime(2031, 6, 2, 12, 0, tzinfo=UTC),
    )


def test_scattered_rate_limits_do_not_open_the_gate() -> None:
    budget = gates(Clock())
    assert budget.quota_failed(None, RATE) is None
    budget.succeeded((PROJECT,))  # a success in between resets the count
    assert budget.quota_failed(None, RATE) is None
    assert budget.quota_failed(None, RATE) is None
    budget.admit((PROJECT,))


def test_a_sustained_limit_opens_the_gate_refuses_then_probes_once_and_recovers() -> None:
    clock = Clock()
    budget = gates(clock)
    opened = [budget.quota_failed(None, RATE) for _ in range(3)]
    assert opened[:2] == [None, None] and isinstance(opened[2], QuotaOpenError)
    assert opened[2].retry_after == 1.0
    for _ in range(5):  # while open: refused, nothing sent
        with pytest.raises(QuotaOpenError) as refused:
            budget.admit((PROJECT,))
        assert refused.value.reason == "RATE_LIMITED"
    assert budget.refused == 5
    clock.now += 1.0
    budget.admit((PROJECT,))  # the probe goes
    with pytest.raises(QuotaOpenError):
        budget.admit((PROJECT,))  # one probe at a time
    doubled = budget.quota_failed(None, RATE)  # the probe hit the limit again
    assert doubled is not None and doubled.retry_after == 2.0
    clock.now += 2.0
    budget.admit((PROJECT,))
    budget.succeeded((PROJECT,))
    budget.admit((PROJECT,))
    budget.admit((PROJECT,))


def test_cooldowns_double_up_to_the_maximum_and_honour_retry_after() -> None:
    clock = Clock()
    budget = gates(clock, threshold=1)
    seen = []
    for _ in range(6):
        opened = budget.quota_failed(None, RATE)
        assert opened is not None
        seen.append(opened.retry_after)
        clock.now += opened.retry_after
    assert seen == [1.0, 2.0, 4.0, 8.0, 8.0, 8.0]
    hinted = budget.quota_failed(None, GoogleApiError(429, "x", "", retry_after=30))
    assert hinted is not None and hinted.retry_after == 8.0  # capped by the maximum


def test_usage_limits_close_only_that_calendar_for_writes() -> None:
    budget = gates(Clock())
    opened = budget.quota_failed("ana", USAGE)
    assert opened is not None and (opened.reason, opened.retry_after) == ("QUOTA_EXCEEDED", 60.0)
    with pytest.raises(QuotaOpenError):
        budget.admit(QuotaGates.keys("POST", "ana"))
    budget.admit(QuotaGates.keys("GET", "ana"))  # reads of it still go
    budget.admit(QuotaGates.keys("POST", "bia"))  # writes to others too


def test_the_daily_limit_waits_for_midnight_pacific() -> None:
    budget = gates(Clock())
    opened = budget.quota_failed(None, DAILY)
    noon_utc = datetime(2031, 6, 2, 12, 0, tzinfo=UTC)  # 05:00 PDT: 19 h to midnight
    assert opened is not None and opened.reason == "DAILY_LIMIT_EXCEEDED"
    assert opened.retry_after == seconds_to_quota_reset(noon_utc) == 19 * 3600


def test_refused_credentials_cost_the_token_endpoint_one_request_per_cooldown() -> None:
    clock = Clock()
    budget = gates(clock, credentials_cooldown=30.0)
    budget.credentials_failed()
    with pytest.raises(QuotaOpenError) as refused:
        budget.admit((CREDENTIALS, PROJECT))
    assert (refused.value.reason, refused.value.retry_after) == ("CREDENTIALS_INVALID", 30.0)
    clock.now += 30.0
    budget.admit((CREDENTIALS, PROJECT))  # the probe: a fixed key is seen at once
    budget.succeeded((CREDENTIALS, PROJECT))
    budget.admit((CREDENTIALS, PROJECT))
