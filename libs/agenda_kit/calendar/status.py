"""The calendar port's errors → gRPC status codes: the rows every service's error table shares."""

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
from agenda_kit.errors import ErrorRule

CALENDAR_ERROR_RULES: tuple[ErrorRule, ...] = (
    ErrorRule(InvalidCalendarRequestError, grpc.StatusCode.INVALID_ARGUMENT),
    ErrorRule(CalendarNotFoundError, grpc.StatusCode.NOT_FOUND),
    ErrorRule(EventNotFoundError, grpc.StatusCode.NOT_FOUND),
    ErrorRule(IdempotencyConflictError, grpc.StatusCode.ALREADY_EXISTS),
    ErrorRule(CalendarQuotaError, grpc.StatusCode.RESOURCE_EXHAUSTED),
    ErrorRule(CalendarUnavailableError, grpc.StatusCode.UNAVAILABLE),
)
"""Append to a service's own rows: ``ErrorTable([*own_rows, *CALENDAR_ERROR_RULES])``."""
