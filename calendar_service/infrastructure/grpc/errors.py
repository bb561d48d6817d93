"""The calendar service's one table: domain and port errors → gRPC status codes."""

from __future__ import annotations

import grpc

from agenda_kit.calendar.errors import (
    CalendarNotFoundError,
    CalendarQuotaError,
    CalendarUnavailableError,
    EventNotFoundError,
    IdempotencyConflictError,
    InvalidCalendarRequestError,
)
from agenda_kit.errors import ErrorRule, ErrorTable, RequestValidationError
from calendar_service.domain.slots import InvalidSlotQueryError
from calendar_service.domain.validation import InvalidRequestError


def _field_message(error: BaseException) -> str:
    field = getattr(error, "field", "")
    return f"{field}: {error}" if field and not str(error).startswith(field) else str(error)


CALENDAR_ERRORS = ErrorTable(
    [
        ErrorRule(RequestValidationError, grpc.StatusCode.INVALID_ARGUMENT),
        ErrorRule(InvalidRequestError, grpc.StatusCode.INVALID_ARGUMENT),
        ErrorRule(InvalidSlotQueryError, grpc.StatusCode.INVALID_ARGUMENT, _field_message),
        ErrorRule(InvalidCalendarRequestError, grpc.StatusCode.INVALID_ARGUMENT),
        ErrorRule(CalendarNotFoundError, grpc.StatusCode.NOT_FOUND),
        ErrorRule(EventNotFoundError, grpc.StatusCode.NOT_FOUND),
        ErrorRule(IdempotencyConflictError, grpc.StatusCode.ALREADY_EXISTS),
        ErrorRule(CalendarQuotaError, grpc.StatusCode.RESOURCE_EXHAUSTED),
        ErrorRule(CalendarUnavailableError, grpc.StatusCode.UNAVAILABLE),
    ]
)
