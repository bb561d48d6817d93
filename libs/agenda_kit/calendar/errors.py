"""Errors any ``ICalendarAdapter`` may raise. Vendor errors are translated to these at the
adapter edge; each service maps them to gRPC status codes in its one error table
(``agenda_kit.calendar.status``), and the gRPC client maps the status back to them.

Every error carries a stable ``reason`` (the ``google.rpc.ErrorInfo.reason`` callers act on),
an English, product-neutral developer message (never shown to customers: a product localizes
what it tells people from the reason), ``metadata`` (lowerCamelCase keys, the values named in
the message) and, when waiting helps, ``retry_after`` seconds. Messages never name an id the
caller did not send.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

UNAVAILABLE_MESSAGE = "The calendar provider is temporarily unavailable; retry later."
DEFAULT_RETRY_SECONDS = 1.0
"""``RetryInfo`` of an unavailable provider when nothing better is known."""


class CalendarError(Exception):
    """Base class: every calendar failure a caller can act on.

    ``reason`` defaults to the class's ``REASON``; subclasses with several reasons (quota,
    access) take one of their ``REASONS``.
    """

    REASON: ClassVar[str] = "CALENDAR_ERROR"
    REASONS: ClassVar[frozenset[str]] = frozenset()
    DEFAULT_MESSAGE: ClassVar[str] = "The calendar request failed."

    def __init__(
        self,
        message: str | None = None,
        *,
        reason: str | None = None,
        metadata: Mapping[str, str] | None = None,
        retry_after: float | None = None,
    ) -> None:
        super().__init__(message or self.DEFAULT_MESSAGE)
        chosen = reason or self.REASON
        if reason is not None and self.REASONS and reason not in self.REASONS:
            chosen = self.REASON  # an unknown reason from a newer server: the class's own
        self.reason = chosen
        self.metadata: dict[str, str] = dict(metadata or {})
        self.retry_after = retry_after


class InvalidCalendarRequestError(CalendarError):
    """The request itself is wrong (bad range, bad time zone, rejected by the provider as 400).
    ``field`` names the request field at fault when known."""

    REASON = "INVALID_REQUEST"
    REASONS = frozenset({"INVALID_REQUEST", "PROVIDER_REJECTED_REQUEST", "SYNC_TOKEN_EXPIRED"})
    DEFAULT_MESSAGE = "The calendar request is invalid."

    def __init__(
        self,
        message: str | None = None,
        *,
        field: str = "",
        reason: str | None = None,
        metadata: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(message, reason=reason, metadata=metadata)
        self.field = field
        self.message = str(self)


class CalendarNotFoundError(CalendarError):
    """The calendar does not exist (or the provider will not say it does)."""

    REASON = "CALENDAR_NOT_FOUND"
    DEFAULT_MESSAGE = "The calendar was not found."


class CalendarAccessDeniedError(CalendarError):
    """The calendar exists but the service's provider account may not do this to it: not
    shared (or shared read-only), only the organizer may change that field, or the account
    may not invite attendees. Permanent until someone changes the sharing or the request."""

    REASON = "CALENDAR_ACCESS_DENIED"
    REASONS = frozenset({"CALENDAR_ACCESS_DENIED", "ORGANIZER_ONLY", "ATTENDEES_NOT_ALLOWED"})
    DEFAULT_MESSAGE = "The calendar service's account may not access that calendar this way."


class EventNotFoundError(CalendarError):
    """The event does not exist in that calendar (or is another owner's: they look alike)."""

    REASON = "EVENT_NOT_FOUND"
    DEFAULT_MESSAGE = "The event was not found."


class IdempotencyConflictError(CalendarError):
    """The caller already used the idempotency key for a different event."""

    REASON = "IDEMPOTENCY_KEY_REUSED"
    DEFAULT_MESSAGE = (
        "The idempotency key was already used for an event with a different start, end or "
        "summary; use a new key for a new event."
    )


class SlotTakenError(CalendarError):
    """Create-if-free refused the write: the time is busy. ``conflict`` is the busy range
    that overlaps (clipped to the asked range); ``held_by`` says whether an event takes it
    ("event") or another write is still in flight ("write")."""

    REASON = "SLOT_TAKEN"
    DEFAULT_MESSAGE = "The requested time is not free."


class EtagMismatchError(CalendarError):
    """A write conditioned on an etag found the event changed since that etag."""

    REASON = "ETAG_MISMATCH"
    DEFAULT_MESSAGE = "The event changed since the given etag; read it again."


class CalendarQuotaError(CalendarError):
    """The provider's quota or rate limit refuses requests; ``retry_after`` says when to try
    again (the service sends the provider nothing for that calendar or project meanwhile)."""

    REASON = "RATE_LIMITED"
    REASONS = frozenset({"RATE_LIMITED", "QUOTA_EXCEEDED", "DAILY_LIMIT_EXCEEDED"})
    DEFAULT_MESSAGE = "The calendar provider's rate limit was reached; retry later."


class CalendarCredentialsError(CalendarError):
    """The provider refuses the service's own credentials (a revoked or deleted key, a
    disabled account, a subject it may not impersonate: CREDENTIALS_INVALID), or the
    calendar service refuses its client's (CLIENT_NOT_AUTHORIZED). Permanent: an operator
    must fix the credentials; retrying does not help."""

    REASON = "CREDENTIALS_INVALID"
    REASONS = frozenset({"CREDENTIALS_INVALID", "CLIENT_NOT_AUTHORIZED"})
    DEFAULT_MESSAGE = "The calendar provider refused the calendar service's credentials."


class CalendarUnavailableError(CalendarError):
    """The provider (or the service's store) is down, slow or unreachable; retrying later
    may succeed."""

    REASON = "PROVIDER_UNAVAILABLE"
    DEFAULT_MESSAGE = UNAVAILABLE_MESSAGE

    def __init__(
        self,
        message: str | None = None,
        *,
        reason: str | None = None,
        metadata: Mapping[str, str] | None = None,
        retry_after: float | None = DEFAULT_RETRY_SECONDS,
    ) -> None:
        super().__init__(message, reason=reason, metadata=metadata, retry_after=retry_after)


REASON_CLASSES: dict[str, type[CalendarError]] = {
    reason: klass
    for klass in (
        InvalidCalendarRequestError,
        CalendarNotFoundError,
        CalendarAccessDeniedError,
        EventNotFoundError,
        IdempotencyConflictError,
        SlotTakenError,
        EtagMismatchError,
        CalendarQuotaError,
        CalendarCredentialsError,
        CalendarUnavailableError,
    )
    for reason in (klass.REASONS or {klass.REASON})
}
"""Every stable reason → the port error class that carries it (the gRPC client's table)."""
