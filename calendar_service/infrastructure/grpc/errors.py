"""The calendar service's one table: domain and port errors → gRPC status codes."""

from __future__ import annotations

import grpc

from agenda_kit.calendar.status import CALENDAR_ERROR_RULES
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
        *CALENDAR_ERROR_RULES,
    ],
    domain="calendar.agenda",
)
