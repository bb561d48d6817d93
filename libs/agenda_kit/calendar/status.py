"""The calendar port's errors → gRPC status: the rows every service's error table shares.

Each row gives the code; the ``ErrorInfo`` reason, metadata and ``RetryInfo`` come from the
error itself (``CalendarError.reason``/``metadata``/``retry_after``), and an invalid request
names its field in a ``BadRequest``. The per-RPC table is in the proto's comments and
docs/calendar-service.md#errors.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import grpc

from agenda_kit.calendar.errors import (
    CalendarAccessDeniedError,
    CalendarCredentialsError,
    CalendarError,
    CalendarNotFoundError,
    CalendarQuotaError,
    CalendarUnavailableError,
    EtagMismatchError,
    EventNotFoundError,
    IdempotencyConflictError,
    InvalidCalendarRequestError,
    SlotTakenError,
)
from agenda_kit.errors import ErrorRule, Violation


def _reason(error: BaseException) -> str:
    assert isinstance(error, CalendarError)
    return error.reason


def _metadata(error: BaseException) -> Mapping[str, str]:
    assert isinstance(error, CalendarError)
    return error.metadata


def _retry_after(error: BaseException) -> float | None:
    assert isinstance(error, CalendarError)
    return error.retry_after


def _violations(error: BaseException) -> Sequence[Violation]:
    field = getattr(error, "field", "")
    return ((field, str(error)),) if field else ()


def calendar_rule(exception: type[CalendarError], code: grpc.StatusCode) -> ErrorRule:
    """The row of one port error: ``code``, and the details the error carries."""
    return ErrorRule(
        exception,
        code,
        reason=_reason,
        metadata=_metadata,
        retry_after=_retry_after,
        violations=_violations,
    )


CODES: dict[type[CalendarError], grpc.StatusCode] = {
    InvalidCalendarRequestError: grpc.StatusCode.INVALID_ARGUMENT,
    CalendarNotFoundError: grpc.StatusCode.NOT_FOUND,
    EventNotFoundError: grpc.StatusCode.NOT_FOUND,
    CalendarAccessDeniedError: grpc.StatusCode.FAILED_PRECONDITION,
    SlotTakenError: grpc.StatusCode.FAILED_PRECONDITION,
    CalendarCredentialsError: grpc.StatusCode.FAILED_PRECONDITION,
    IdempotencyConflictError: grpc.StatusCode.ALREADY_EXISTS,
    EtagMismatchError: grpc.StatusCode.ABORTED,
    CalendarQuotaError: grpc.StatusCode.RESOURCE_EXHAUSTED,
    CalendarUnavailableError: grpc.StatusCode.UNAVAILABLE,
}
"""The gRPC code of each port error (AIP-193/AIP-154: a stale etag is ABORTED)."""

CALENDAR_ERROR_RULES: tuple[ErrorRule, ...] = tuple(
    calendar_rule(exception, code) for exception, code in CODES.items()
)
"""Append to a service's own rows: ``ErrorTable([*own_rows, *CALENDAR_ERROR_RULES])``."""
