"""Errors any ``ICalendarAdapter`` may raise. Vendor errors are translated to these at the
adapter edge; each service maps them to gRPC status codes in its one error table."""

from __future__ import annotations

UNAVAILABLE_MESSAGE = "O calendário do profissional está temporariamente indisponível."


class CalendarError(Exception):
    """Base class: every calendar failure a caller can act on."""


class InvalidCalendarRequestError(CalendarError):
    """The request itself is wrong (bad range, bad time zone, rejected by the provider as 400)."""


class CalendarNotFoundError(CalendarError):
    """The calendar does not exist or the service account cannot see it."""


class EventNotFoundError(CalendarError):
    """The event does not exist in that calendar."""


class IdempotencyConflictError(CalendarError):
    """The idempotency key was already used for a different event."""


class CalendarQuotaError(CalendarError):
    """The provider's quota is exhausted and retrying within the deadline did not help."""


class CalendarUnavailableError(CalendarError):
    """The provider is down, slow or unreachable; the message is meant for a person."""

    def __init__(self, message: str = UNAVAILABLE_MESSAGE) -> None:
        super().__init__(message)
