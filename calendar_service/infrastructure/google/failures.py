"""Internal failure types of the Google transport and how they classify.

These never leave the adapter: ``errors.translate`` turns them into
``agenda_kit.calendar.errors`` exceptions at the edge.
"""

from __future__ import annotations

import asyncio

import aiohttp

RATE_LIMIT_REASONS = frozenset({"rateLimitExceeded", "userRateLimitExceeded"})
QUOTA_REASONS = RATE_LIMIT_REASONS | {"quotaExceeded", "dailyLimitExceeded"}
USAGE_LIMITS = "usageLimits"


class GoogleApiError(Exception):
    """Google answered with an error status; ``reason`` and ``domain`` are the first
    ``errors[]`` entry's; ``retry_after`` the seconds of a ``Retry-After`` header, if any."""

    def __init__(
        self,
        status: int,
        reason: str,
        message: str,
        *,
        domain: str = "",
        retry_after: float | None = None,
    ) -> None:
        super().__init__(f"{status} {reason}: {message}")
        self.status = status
        self.reason = reason
        self.message = message
        self.domain = domain
        self.retry_after = retry_after


class MalformedAnswerError(GoogleApiError):
    """A 2xx answer whose body is not what the call asked for (``answers``): the provider
    (or a proxy in front of it) failed, like a 502 — retried, then UNAVAILABLE; never read as
    an empty or absent answer."""

    def __init__(self, detail: str) -> None:
        super().__init__(502, "malformedAnswer", detail)


class TokenRequestError(Exception):
    """The OAuth token endpoint refused the service-account assertion or failed."""

    def __init__(self, status: int, error: str, description: str) -> None:
        super().__init__(f"token endpoint answered {status} {error}: {description}")
        self.status = status
        self.error = error
        self.description = description


class BudgetExhaustedError(Exception):
    """Too little of the deadline is left to start another attempt."""

    def __init__(self, previous: BaseException | None) -> None:
        super().__init__("no time left in the caller's deadline to start an attempt")
        self.previous = previous


def is_rate_limited(error: GoogleApiError) -> bool:
    """429, or 403 whose reason is one of Google's rate-limit reasons."""
    return error.status == 429 or (error.status == 403 and error.reason in RATE_LIMIT_REASONS)


def is_quota(error: GoogleApiError) -> bool:
    """Any quota answer: a rate limit, ``quotaExceeded``, ``dailyLimitExceeded``, or another
    403 of Google's ``usageLimits`` domain (treated as a rate limit)."""
    return is_rate_limited(error) or (
        error.status == 403 and (error.reason in QUOTA_REASONS or error.domain == USAGE_LIMITS)
    )


def is_transport_failure(error: BaseException) -> bool:
    """Timeouts, resets and dropped connections: the request may or may not have run."""
    return isinstance(
        error,
        asyncio.TimeoutError | aiohttp.ClientConnectionError | aiohttp.ClientPayloadError,
    )


def is_retryable(error: BaseException) -> bool:
    """Only transient failures are retried: 429, 5xx, 403 rate limits, timeouts, resets."""
    if isinstance(error, GoogleApiError):
        return is_rate_limited(error) or error.status >= 500
    if isinstance(error, TokenRequestError):
        return error.status == 429 or error.status >= 500
    return is_transport_failure(error)


def describe(error: BaseException) -> str:
    """A short, secret-free reason for logs."""
    if isinstance(error, GoogleApiError):
        return f"{error.status} {error.reason}"
    if isinstance(error, TokenRequestError):
        return f"token {error.status} {error.error}"
    if isinstance(error, asyncio.CancelledError):
        return "cancelled"  # the caller gave up (its gRPC deadline passed, or it went away)
    return type(error).__name__
