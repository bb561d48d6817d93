"""The agent service's one table: domain, kit and validation errors → gRPC status codes.

Both agent servicers (AgentService and CatalogService) are wrapped with it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import grpc
import pydantic

from agenda_kit.calendar.errors import (
    CalendarNotFoundError,
    EventNotFoundError,
    IdempotencyConflictError,
    InvalidCalendarRequestError,
)
from agenda_kit.calendar.status import CALENDAR_ERROR_RULES
from agenda_kit.errors import ErrorRule, ErrorTable, RequestValidationError
from agent_service.domain.errors import (
    BookingPendingError,
    CapacityExceededError,
    ConflictError,
    DeadlineExceededError,
    InvalidInputError,
    InvalidStateError,
    MessageIdReusedError,
    MessageIdTakenError,
    NotFoundError,
    PolicyViolationError,
    RetryableTurnError,
    SlotUnavailableError,
    StaleEtagError,
    StorageUnavailableError,
)

STORAGE_RETRY_AFTER_SECONDS = 1.0
BOOKING_RETRY_AFTER_SECONDS = 5.0
"""A pending booking is settled by the reconciler; its outcome also reaches the outbox."""


def validation_message(error: BaseException) -> str:
    """``loc.of.field: message`` of a pydantic error's first problem (no input echoed)."""
    assert isinstance(error, pydantic.ValidationError)
    first = error.errors(include_url=False, include_input=False)[0]
    field = ".".join(str(part) for part in first["loc"])
    message = first["msg"].removeprefix("Value error, ")
    return f"{field}: {message}" if field else message


def validation_violations(error: BaseException) -> list[tuple[str, str]]:
    """Every problem of a pydantic error as a field violation (no input echoed)."""
    assert isinstance(error, pydantic.ValidationError)
    return [
        (".".join(str(part) for part in item["loc"]), item["msg"].removeprefix("Value error, "))
        for item in error.errors(include_url=False, include_input=False)
    ]


_CALENDAR_TEXTS: dict[type[BaseException], str] = {
    InvalidCalendarRequestError: "the calendar refused the request",
    CalendarNotFoundError: "the professional's calendar was not found",
    EventNotFoundError: "the appointment's calendar event was not found",
    IdempotencyConflictError: "the calendar holds a different event for this appointment",
}


def _fixed(text: str) -> Callable[[BaseException], str]:
    return lambda _error: text


def _retry_after(error: BaseException) -> float:
    assert isinstance(error, CapacityExceededError | RetryableTurnError)
    return error.retry_after_seconds


def _not_found(error: BaseException) -> dict[str, str]:
    """The kind only: an absent id and another tenant's must read the same (the id the
    caller sent is in the message already)."""
    assert isinstance(error, NotFoundError)
    return {"resourceType": error.kind}


def _stale(error: BaseException) -> dict[str, str]:
    assert isinstance(error, StaleEtagError)
    return {"resourceType": error.kind, "resourceId": str(error.identifier)}


def _turn_reason(error: BaseException) -> str:
    assert isinstance(error, RetryableTurnError)
    return error.reason


def _turn_metadata(error: BaseException) -> dict[str, str]:
    assert isinstance(error, RetryableTurnError)
    return {"cause": error.cause} if error.cause else {}


AGENT_ERRORS = ErrorTable(
    [
        ErrorRule(InvalidInputError, grpc.StatusCode.INVALID_ARGUMENT, reason="INVALID_FIELD"),
        ErrorRule(RequestValidationError, grpc.StatusCode.INVALID_ARGUMENT, reason="INVALID_FIELD"),
        ErrorRule(
            pydantic.ValidationError,
            grpc.StatusCode.INVALID_ARGUMENT,
            validation_message,
            reason="INVALID_FIELD",
            violations=validation_violations,
        ),
        ErrorRule(NotFoundError, grpc.StatusCode.NOT_FOUND, metadata=_not_found),
        ErrorRule(
            PolicyViolationError, grpc.StatusCode.FAILED_PRECONDITION, reason="POLICY_VIOLATION"
        ),
        ErrorRule(InvalidStateError, grpc.StatusCode.FAILED_PRECONDITION, reason="INVALID_STATE"),
        ErrorRule(
            SlotUnavailableError, grpc.StatusCode.FAILED_PRECONDITION, reason="SLOT_UNAVAILABLE"
        ),
        ErrorRule(ConflictError, grpc.StatusCode.ABORTED, reason="CONCURRENT_UPDATE"),
        ErrorRule(StaleEtagError, grpc.StatusCode.ABORTED, reason="ETAG_MISMATCH", metadata=_stale),
        ErrorRule(MessageIdTakenError, grpc.StatusCode.ALREADY_EXISTS, reason="MESSAGE_ID_TAKEN"),
        ErrorRule(MessageIdReusedError, grpc.StatusCode.ALREADY_EXISTS, reason="MESSAGE_ID_REUSED"),
        ErrorRule(
            RetryableTurnError,
            grpc.StatusCode.UNAVAILABLE,
            reason=_turn_reason,
            metadata=_turn_metadata,
            retry_after=_retry_after,
        ),
        ErrorRule(
            StorageUnavailableError,
            grpc.StatusCode.UNAVAILABLE,
            reason="STORAGE_UNAVAILABLE",
            retry_after=lambda _: STORAGE_RETRY_AFTER_SECONDS,
        ),
        ErrorRule(
            CapacityExceededError,
            grpc.StatusCode.RESOURCE_EXHAUSTED,
            reason="TENANT_CAPACITY_EXCEEDED",
            retry_after=_retry_after,
        ),
        ErrorRule(
            DeadlineExceededError, grpc.StatusCode.DEADLINE_EXCEEDED, reason="DEADLINE_PASSED"
        ),
        ErrorRule(
            BookingPendingError,
            grpc.StatusCode.UNAVAILABLE,
            reason="BOOKING_PENDING",
            retry_after=lambda _: BOOKING_RETRY_AFTER_SECONDS,
        ),
        *CALENDAR_ERROR_RULES,
        # The agent's own calls to the calendar service: its caller never sent those calendar
        # or event ids, so the calendar's message (which names them) is not passed on.
        *(
            replace(rule, message=_fixed(_CALENDAR_TEXTS[rule.exception]))
            for rule in CALENDAR_ERROR_RULES
            if rule.exception in _CALENDAR_TEXTS
        ),
    ],
    domain="agent.agenda",
)
