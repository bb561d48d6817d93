"""The calendar service's one table: domain and port errors → gRPC status codes, with
``google.rpc`` details (reason, metadata, RetryInfo, BadRequest); the per-RPC table is in the
proto's comments and docs/calendar-service.md#errors."""

from __future__ import annotations

import grpc

from agenda_kit.calendar.status import CALENDAR_ERROR_RULES
from agenda_kit.errors import ErrorRule, ErrorTable, RequestValidationError
from calendar_service.domain.slots import InvalidSlotQueryError
from calendar_service.domain.validation import InvalidRequestError


def _field_message(error: BaseException) -> str:
    field = getattr(error, "field", "")
    return f"{field}: {error}" if field and not str(error).startswith(field) else str(error)


INVALID = "INVALID_REQUEST"
"""The ``ErrorInfo`` reason of every request refused for its fields (``BadRequest`` names them)."""

CALENDAR_ERRORS = ErrorTable(
    [
        ErrorRule(RequestValidationError, grpc.StatusCode.INVALID_ARGUMENT, reason=INVALID),
        ErrorRule(InvalidRequestError, grpc.StatusCode.INVALID_ARGUMENT, reason=INVALID),
        ErrorRule(
            InvalidSlotQueryError, grpc.StatusCode.INVALID_ARGUMENT, _field_message, reason=INVALID
        ),
        *CALENDAR_ERROR_RULES,
    ],
    domain="calendar.agenda",
)
