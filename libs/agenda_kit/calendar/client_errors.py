"""The gRPC calendar client's one error table: a final status → an ``agenda_kit.calendar``
error, read from the status's ``google.rpc`` details.

Rules: the ``ErrorInfo`` reason of domain ``calendar.agenda`` picks the port error (with
its reason, metadata, ``RetryInfo`` delay and ``BadRequest`` field); a status without one
(an older server, a proxy, the transport itself) is read by its code: NOT_FOUND names the
event for event RPCs and the calendar for calendar-level ones, INVALID_ARGUMENT /
ALREADY_EXISTS / RESOURCE_EXHAUSTED / ABORTED their errors, a refused credential of this
client ``CalendarCredentialsError`` (CLIENT_NOT_AUTHORIZED), anything else (UNAVAILABLE,
DEADLINE_EXCEEDED, CANCELLED, INTERNAL, …) ``CalendarUnavailableError``.
"""

from __future__ import annotations

from collections.abc import Callable

import grpc

from agenda_kit.calendar.errors import (
    REASON_CLASSES,
    CalendarCredentialsError,
    CalendarError,
    CalendarNotFoundError,
    CalendarQuotaError,
    CalendarUnavailableError,
    EtagMismatchError,
    EventNotFoundError,
    IdempotencyConflictError,
    InvalidCalendarRequestError,
)
from agenda_kit.errors import ErrorDetails, details_of

DOMAIN = "calendar.agenda"
CLIENT_NOT_AUTHORIZED = "CLIENT_NOT_AUTHORIZED"
CREDENTIALS_REJECTED_MESSAGE = (
    "The calendar service refused this client's credentials; check its access token and grants."
)
CREDENTIAL_CODES = frozenset({grpc.StatusCode.UNAUTHENTICATED, grpc.StatusCode.PERMISSION_DENIED})
EXPECTED_CODES = frozenset(
    {
        grpc.StatusCode.INVALID_ARGUMENT,
        grpc.StatusCode.NOT_FOUND,
        grpc.StatusCode.ALREADY_EXISTS,
        grpc.StatusCode.FAILED_PRECONDITION,
        grpc.StatusCode.ABORTED,
    }
)
"""Answers about the request itself: not logged as failures of the calendar service."""
_BY_CODE: dict[grpc.StatusCode, Callable[[str], CalendarError]] = {
    grpc.StatusCode.INVALID_ARGUMENT: InvalidCalendarRequestError,
    grpc.StatusCode.ALREADY_EXISTS: IdempotencyConflictError,
    grpc.StatusCode.RESOURCE_EXHAUSTED: CalendarQuotaError,
    grpc.StatusCode.ABORTED: EtagMismatchError,
}


def port_error(error: grpc.RpcError, *, event_scoped: bool) -> CalendarError:
    """The port error for a failed call (see the module's rules)."""
    code: grpc.StatusCode = error.code()
    message = error.details() or code.name
    details = details_of(error)
    if details.domain == DOMAIN and details.reason in REASON_CLASSES:
        return _from_details(REASON_CLASSES[details.reason], message, details)
    return by_code(code, message, event_scoped=event_scoped, retry_after=details.retry_delay)


def _from_details(klass: type[CalendarError], message: str, details: ErrorDetails) -> CalendarError:
    if klass is InvalidCalendarRequestError:
        field = details.violations[0][0] if details.violations else ""
        return InvalidCalendarRequestError(
            message, field=field, reason=details.reason, metadata=details.metadata
        )
    return klass(
        message, reason=details.reason, metadata=details.metadata, retry_after=details.retry_delay
    )


def by_code(
    code: grpc.StatusCode, message: str, *, event_scoped: bool, retry_after: float | None = None
) -> CalendarError:
    """The port error of a status that carries no calendar reason."""
    if code is grpc.StatusCode.NOT_FOUND:
        return EventNotFoundError(message) if event_scoped else CalendarNotFoundError(message)
    if code in CREDENTIAL_CODES:
        return CalendarCredentialsError(CREDENTIALS_REJECTED_MESSAGE, reason=CLIENT_NOT_AUTHORIZED)
    factory = _BY_CODE.get(code)
    if factory is not None:
        error = factory(message)
        error.retry_after = retry_after
        return error
    return CalendarUnavailableError(retry_after=retry_after)
