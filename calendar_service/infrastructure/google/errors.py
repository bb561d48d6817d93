"""Translation of Google failures into ``agenda_kit.calendar.errors`` at the adapter edge.

Google's errors are classified by ``errors[].reason`` (developers.google.com/workspace/
calendar/api/guides/errors; REFERENCES.md §3), then by status; the decisions
(docs/calendar-service.md#errors):

- 400 any → ``InvalidCalendarRequestError`` (PROVIDER_REJECTED_REQUEST);
- 401 after one token refresh, the token endpoint's ``invalid_grant`` & co.
  → ``CalendarCredentialsError`` (CREDENTIALS_INVALID);
- 429, 403 ``rateLimitExceeded``/``userRateLimitExceeded`` (and any other 403 of the
  ``usageLimits`` domain) → ``CalendarQuotaError`` (RATE_LIMITED); 403 ``quotaExceeded``
  → QUOTA_EXCEEDED; 403 ``dailyLimitExceeded`` → DAILY_LIMIT_EXCEEDED;
- 403 ``forbidden``, ``requiredAccessLevel``, ``insufficientPermissions``,
  ``notACalendarUser`` and any unknown 403 → ``CalendarAccessDeniedError``
  (CALENDAR_ACCESS_DENIED); ``forbiddenForNonOrganizer`` → ORGANIZER_ONLY;
  ``forbiddenForServiceAccounts`` → ATTENDEES_NOT_ALLOWED;
- 403 ``accessNotConfigured``, ``keyInvalid``, ``ipRefererBlocked``, ``domainPolicy``
  → ``CalendarCredentialsError`` (the project's setup is refused: an operator fixes it);
- 404, 410 → ``EventNotFoundError`` for event operations, else ``CalendarNotFoundError``;
  but a 410 of a change feed is its position gone, whatever its reason (some 410s carry
  none, REFERENCES.md §3): resumed from a sync token → ``InvalidCalendarRequestError``
  (SYNC_TOKEN_EXPIRED, naming ``sync_token``), from ``updated_since`` → one naming
  ``updated_since`` (PROVIDER_REJECTED_REQUEST: further back than Google keeps changes);
- 412 ``conditionNotMet`` → ``EtagMismatchError``;
- 5xx, timeouts, resets, the token endpoint's 5xx/429, a 2xx body that is not the shape its
  call reads (``answers``: a 502 ``malformedAnswer``) → ``CalendarUnavailableError``.

A retryable answer's ``RetryInfo`` is Google's ``Retry-After`` when it sent one, whatever
the status (a 503's too), else a default.

A quota never reaches callers as "not found" (a product could unlink a healthy calendar), and
a refused key is permanent, never "temporarily unavailable". Messages are English and name
nothing the caller did not send; Google's own text is kept only for 400s (it says what is
wrong with the request). The cause stays chained for operators.
"""

from __future__ import annotations

from typing import Literal

from agenda_kit.calendar.errors import (
    DEFAULT_RETRY_SECONDS,
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
from calendar_service.infrastructure.google.failures import (
    USAGE_LIMITS,
    BudgetExhaustedError,
    GoogleApiError,
    TokenRequestError,
    is_rate_limited,
    is_retryable,
)
from calendar_service.infrastructure.google.quota import CREDENTIALS_INVALID, QuotaOpenError

Scope = Literal["calendar", "event", "sync", "feed"]
"""What the failed call addressed: a calendar (free/busy, a range listing), one event, or a
change feed resumed from a sync token (``sync``) or from ``updated_since`` (``feed``)."""

FORBIDDEN_REASONS: dict[str, tuple[type[CalendarError], str]] = {
    "quotaExceeded": (CalendarQuotaError, "QUOTA_EXCEEDED"),
    "dailyLimitExceeded": (CalendarQuotaError, "DAILY_LIMIT_EXCEEDED"),
    "rateLimitExceeded": (CalendarQuotaError, "RATE_LIMITED"),
    "userRateLimitExceeded": (CalendarQuotaError, "RATE_LIMITED"),
    "forbidden": (CalendarAccessDeniedError, "CALENDAR_ACCESS_DENIED"),
    "requiredAccessLevel": (CalendarAccessDeniedError, "CALENDAR_ACCESS_DENIED"),
    "insufficientPermissions": (CalendarAccessDeniedError, "CALENDAR_ACCESS_DENIED"),
    "notACalendarUser": (CalendarAccessDeniedError, "CALENDAR_ACCESS_DENIED"),
    "forbiddenForNonOrganizer": (CalendarAccessDeniedError, "ORGANIZER_ONLY"),
    "forbiddenForServiceAccounts": (CalendarAccessDeniedError, "ATTENDEES_NOT_ALLOWED"),
    "accessNotConfigured": (CalendarCredentialsError, "CREDENTIALS_INVALID"),
    "keyInvalid": (CalendarCredentialsError, "CREDENTIALS_INVALID"),
    "ipRefererBlocked": (CalendarCredentialsError, "CREDENTIALS_INVALID"),
    "domainPolicy": (CalendarCredentialsError, "CREDENTIALS_INVALID"),
}
"""Every 403 reason Google documents (or its client libraries use), classified."""
MESSAGES: dict[str, str] = {
    "QUOTA_EXCEEDED": "The calendar provider's usage limits for this calendar were reached; "
    "retry later.",
    "DAILY_LIMIT_EXCEEDED": "The calendar provider's daily quota is used up; it resets at "
    "midnight Pacific Time.",
    "RATE_LIMITED": "The calendar provider's rate limit was reached; retry later.",
    "CALENDAR_ACCESS_DENIED": "The calendar service's account may not access that calendar "
    "this way; share the calendar with it (with write access for writes).",
    "ORGANIZER_ONLY": "Only the event's organizer may change that field.",
    "ATTENDEES_NOT_ALLOWED": "The calendar service's account may not invite attendees "
    "(a service account needs domain-wide delegation).",
    "CREDENTIALS_INVALID": "The calendar provider refused the calendar service's credentials; "
    "an operator must fix them.",
}
RATE_LIMIT_RETRY = 1.0
"""``RetryInfo`` of a rate limit the gates did not time (below their threshold)."""


def translate(error: BaseException, *, scope: Scope, target: str = "") -> CalendarError:
    """The calendar error a caller sees for ``error`` (``target``: unused, kept for logs)."""
    if isinstance(error, BudgetExhaustedError):
        if error.previous is None:
            return CalendarUnavailableError()
        return translate(error.previous, scope=scope)
    if isinstance(error, QuotaOpenError):
        return _gate_refusal(error)
    if isinstance(error, TokenRequestError):
        if is_retryable(error):
            return CalendarUnavailableError(metadata={"component": "tokenEndpoint"})
        return CalendarCredentialsError(MESSAGES[CREDENTIALS_INVALID])
    if isinstance(error, GoogleApiError):
        return _from_api_error(error, scope=scope)
    return CalendarUnavailableError()


def _gate_refusal(error: QuotaOpenError) -> CalendarError:
    if error.reason == CREDENTIALS_INVALID:
        return CalendarCredentialsError(MESSAGES[CREDENTIALS_INVALID])
    return CalendarQuotaError(
        MESSAGES[error.reason], reason=error.reason, retry_after=error.retry_after
    )


def _from_api_error(error: GoogleApiError, *, scope: Scope) -> CalendarError:
    if error.status == 403:
        return _forbidden(error)
    if is_rate_limited(error):
        return _quota("RATE_LIMITED", error)
    if error.status >= 500:
        return CalendarUnavailableError(retry_after=_retry_hint(error, DEFAULT_RETRY_SECONDS))
    if error.status == 401:
        return CalendarCredentialsError(MESSAGES[CREDENTIALS_INVALID])
    if error.status == 410 and scope in ("sync", "feed"):
        return _feed_position_gone(scope)
    if error.status in (404, 410):
        return EventNotFoundError() if scope == "event" else CalendarNotFoundError()
    if error.status == 412:
        return EtagMismatchError()
    return InvalidCalendarRequestError(
        f"The calendar provider rejected the request: {(error.message or error.reason)[:200]}",
        reason="PROVIDER_REJECTED_REQUEST",
    )


def _feed_position_gone(scope: Scope) -> CalendarError:
    """A change feed's 410: the position it resumed from is no longer served."""
    if scope == "sync":
        return InvalidCalendarRequestError(
            "The sync token expired; list the feed again from updated_since.",
            field="sync_token",
            reason="SYNC_TOKEN_EXPIRED",
        )
    return InvalidCalendarRequestError(
        "updated_since is further back than the calendar provider keeps changes; list the "
        "range again, then follow the feed from a recent updated_since.",
        field="updated_since",
        reason="PROVIDER_REJECTED_REQUEST",
    )


def _forbidden(error: GoogleApiError) -> CalendarError:
    klass, reason = FORBIDDEN_REASONS.get(error.reason, (None, ""))
    if klass is None:
        if error.domain == USAGE_LIMITS:
            return _quota("RATE_LIMITED", error)
        klass, reason = CalendarAccessDeniedError, "CALENDAR_ACCESS_DENIED"
    if klass is CalendarQuotaError:
        return _quota(reason, error)
    return klass(MESSAGES[reason], reason=reason)


def _quota(reason: str, error: GoogleApiError) -> CalendarQuotaError:
    retry = _retry_hint(error, RATE_LIMIT_RETRY)
    return CalendarQuotaError(MESSAGES[reason], reason=reason, retry_after=retry)


def _retry_hint(error: GoogleApiError, default: float) -> float:
    """The ``RetryInfo`` of a retryable answer: Google's ``Retry-After`` when it sent one
    (whatever the status: 429, a rate-limit 403, a 5xx), else ``default``."""
    return error.retry_after if error.retry_after is not None else default
