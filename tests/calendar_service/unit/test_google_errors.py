"""Every Google failure is classified (calendar_service/infrastructure/google/errors.py): one
case per 403 reason Google documents or its client libraries use, 429, 4xx/5xx, the token
endpoint and the quota gates — status class, stable reason, retry hint, and an English
message that names nothing the caller did not send."""

from __future__ import annotations

import aiohttp
import pytest

from agenda_kit.calendar.errors import (
    CalendarAccessDeniedError,
    CalendarCredentialsError,
    CalendarError,
    CalendarNotFoundError,
    CalendarQuotaError,
    CalendarUnavailableError,
    EtagMismatchError,
    EventNotFoundError,
    InvalidCalendarRequestError,
)
from calendar_service.infrastructure.google.errors import FORBIDDEN_REASONS, translate
from calendar_service.infrastructure.google.failures import (
    BudgetExhaustedError,
    GoogleApiError,
    TokenRequestError,
)
from calendar_service.infrastructure.google.quota import QuotaOpenError

TARGET = "secret-calendar-id@group.calendar.google.com"
FORBIDDEN = {
    "quotaExceeded": (CalendarQuotaError, "QUOTA_EXCEEDED", True),
    "dailyLimitExceeded": (CalendarQuotaError, "DAILY_LIMIT_EXCEEDED", True),
    "rateLimitExceeded": (CalendarQuotaError, "RATE_LIMITED", True),
    "userRateLimitExceeded": (CalendarQuotaError, "RATE_LIMITED", True),
    "forbidden": (CalendarAccessDeniedError, "CALENDAR_ACCESS_DENIED", False),
    "requiredAccessLevel": (CalendarAccessDeniedError, "CALENDAR_ACCESS_DENIED", False),
    "insufficientPermissions": (CalendarAccessDeniedError, "CALENDAR_ACCESS_DENIED", False),
    "notACalendarUser": (CalendarAccessDeniedError, "CALENDAR_ACCESS_DENIED", False),
    "forbiddenForNonOrganizer": (CalendarAccessDeniedError, "ORGANIZER_ONLY", False),
    "forbiddenForServiceAccounts": (CalendarAccessDeniedError, "ATTENDEES_NOT_ALLOWED", False),
    "accessNotConfigured": (CalendarCredentialsError, "CREDENTIALS_INVALID", False),
    "keyInvalid": (CalendarCredentialsError, "CREDENTIALS_INVALID", False),
    "ipRefererBlocked": (CalendarCredentialsError, "CREDENTIALS_INVALID", False),
    "domainPolicy": (CalendarCredentialsError, "CREDENTIALS_INVALID", False),
    "somethingGoogleAddsLater": (CalendarAccessDeniedError, "CALENDAR_ACCESS_DENIED", False),
}


def test_the_table_covers_every_classified_reason() -> None:
    assert set(FORBIDDEN_REASONS) <= set(FORBIDDEN)


@pytest.mark.parametrize("reason", sorted(FORBIDDEN))
@pytest.mark.parametrize("scope", ["calendar", "event"])
def test_each_403_reason(reason: str, scope: str) -> None:
    klass, port_reason, retry = FORBIDDEN[reason]
    error = translate(GoogleApiError(403, reason, "Forbidden"), scope=scope, target=TARGET)  # type: ignore[arg-type]
    assert (type(error), error.reason) == (klass, port_reason)
    assert (error.retry_after is not None) is retry
    assert TARGET not in str(error) and not isinstance(error, CalendarNotFoundError)


def test_an_unknown_usage_limits_reason_is_a_rate_limit() -> None:
    error = translate(GoogleApiError(403, "newLimit", "x", domain="usageLimits"), scope="calendar")
    assert (type(error), error.reason) == (CalendarQuotaError, "RATE_LIMITED")


@pytest.mark.parametrize(
    ("failure", "klass", "reason"),
    [
        (GoogleApiError(429, "rateLimitExceeded", ""), CalendarQuotaError, "RATE_LIMITED"),
        (GoogleApiError(429, "unknown", "", retry_after=7), CalendarQuotaError, "RATE_LIMITED"),
        (
            GoogleApiError(400, "invalid", "Bad value"),
            InvalidCalendarRequestError,
            "PROVIDER_REJECTED_REQUEST",
        ),
        (GoogleApiError(401, "authError", ""), CalendarCredentialsError, "CREDENTIALS_INVALID"),
        (GoogleApiError(404, "notFound", ""), CalendarNotFoundError, "CALENDAR_NOT_FOUND"),
        (GoogleApiError(410, "deleted", ""), CalendarNotFoundError, "CALENDAR_NOT_FOUND"),
        (GoogleApiError(412, "conditionNotMet", ""), EtagMismatchError, "ETAG_MISMATCH"),
        (GoogleApiError(500, "backendError", ""), CalendarUnavailableError, "PROVIDER_UNAVAILABLE"),
        (GoogleApiError(503, "backendError", ""), CalendarUnavailableError, "PROVIDER_UNAVAILABLE"),
        (
            TokenRequestError(400, "invalid_grant", "revoked"),
            CalendarCredentialsError,
            "CREDENTIALS_INVALID",
        ),
        (
            TokenRequestError(401, "unauthorized_client", ""),
            CalendarCredentialsError,
            "CREDENTIALS_INVALID",
        ),
        (TokenRequestError(503, "unknown", ""), CalendarUnavailableError, "PROVIDER_UNAVAILABLE"),
        (TokenRequestError(429, "unknown", ""), CalendarUnavailableError, "PROVIDER_UNAVAILABLE"),
        (TimeoutError(), CalendarUnavailableError, "PROVIDER_UNAVAILABLE"),
        (aiohttp.ServerDisconnectedError(), CalendarUnavailableError, "PROVIDER_UNAVAILABLE"),
        (BudgetExhaustedError(None), CalendarUnavailableError, "PROVIDER_UNAVAILABLE"),
        (QuotaOpenError("QUOTA_EXCEEDED", 42.0), CalendarQuotaError, "QUOTA_EXCEEDED"),
        (
            QuotaOpenError("CREDENTIALS_INVALID", 9.0),
            CalendarCredentialsError,
            "CREDENTIALS_INVALID",
        ),
    ],
)
def test_every_other_failure(
    failure: BaseException, klass: type[CalendarError], reason: str
) -> None:
    error = translate(failure, scope="calendar", target=TARGET)
    assert (type(error), error.reason) == (klass, reason)
    assert str(error) and TARGET not in str(error)


GONE_REASONS = ("fullSyncRequired", "updatedMinTooLongAgo", "deleted", "")
"""Google's 410s: some carry no reason (REFERENCES.md §3), so the status and what the call
addressed decide."""
GONE: dict[str, tuple[type[CalendarError], str, str]] = {
    "sync": (InvalidCalendarRequestError, "SYNC_TOKEN_EXPIRED", "sync_token"),
    "feed": (InvalidCalendarRequestError, "PROVIDER_REJECTED_REQUEST", "updated_since"),
    "event": (EventNotFoundError, "EVENT_NOT_FOUND", ""),
    "calendar": (CalendarNotFoundError, "CALENDAR_NOT_FOUND", ""),
}


@pytest.mark.parametrize("reason", GONE_REASONS)
@pytest.mark.parametrize("scope", sorted(GONE))
def test_a_410_is_classified_by_what_the_call_addressed(reason: str, scope: str) -> None:
    """Review 14: a reasonless 410 of a sync-token feed was CALENDAR_NOT_FOUND (a product
    would unlink a healthy calendar), and a 410 of an updated_since feed SYNC_TOKEN_EXPIRED
    naming a sync_token the caller never sent."""
    klass, port_reason, field = GONE[scope]
    error = translate(GoogleApiError(410, reason, ""), scope=scope, target=TARGET)  # type: ignore[arg-type]
    assert (type(error), error.reason, getattr(error, "field", "")) == (klass, port_reason, field)
    assert TARGET not in str(error)


def test_a_404_of_an_event_operation_is_the_event_and_names_no_id() -> None:
    error = translate(GoogleApiError(404, "notFound", ""), scope="event", target="abc123")
    assert isinstance(error, EventNotFoundError) and "abc123" not in str(error)


def test_retry_hints_come_from_the_gate_or_retry_after() -> None:
    assert translate(QuotaOpenError("RATE_LIMITED", 12.5), scope="calendar").retry_after == 12.5
    hinted = GoogleApiError(429, "rateLimitExceeded", "", retry_after=7)
    assert translate(hinted, scope="calendar").retry_after == 7
    unavailable = translate(GoogleApiError(503, "backendError", ""), scope="calendar")
    assert unavailable.retry_after is not None and unavailable.retry_after > 0
    credentials = translate(TokenRequestError(400, "invalid_grant", ""), scope="calendar")
    assert credentials.retry_after is None  # permanent: waiting does not help


RETRYABLE_ANSWERS = [
    GoogleApiError(429, "rateLimitExceeded", ""),
    GoogleApiError(403, "rateLimitExceeded", "", domain="usageLimits"),
    GoogleApiError(403, "userRateLimitExceeded", "", domain="usageLimits"),
    GoogleApiError(403, "newLimit", "", domain="usageLimits"),
    GoogleApiError(403, "quotaExceeded", "", domain="usageLimits"),
    *(GoogleApiError(status, "backendError", "") for status in (500, 502, 503, 504)),
]


@pytest.mark.parametrize("answer", RETRYABLE_ANSWERS, ids=lambda a: f"{a.status}-{a.reason}")
@pytest.mark.parametrize("exhausted", [False, True], ids=["last", "retries-exhausted"])
def test_every_retryable_answer_keeps_googles_retry_after(
    answer: GoogleApiError, exhausted: bool
) -> None:
    """Review 14: a 503 with ``Retry-After: 9`` answered RetryInfo 1 s (only quota answers
    kept Google's hint), so callers came back while Google had said to wait."""
    answer.retry_after = 9.0
    failure: BaseException = BudgetExhaustedError(answer) if exhausted else answer
    error = translate(failure, scope="calendar", target=TARGET)
    assert error.retry_after == 9.0
