"""Translation of Google failures into ``agenda_kit.calendar.errors`` at the adapter edge.

Decisions (docs/architecture.md#the-google-calendar-adapter):
- retries exhausted on 5xx, timeouts, resets → ``CalendarUnavailableError`` (human message);
- retries exhausted on 429 / 403 rate limits → ``CalendarQuotaError``;
- 400 → ``InvalidCalendarRequestError`` with Google's message;
- 404/410 → ``EventNotFoundError`` for event operations, ``CalendarNotFoundError`` otherwise;
- 403 for any other reason (``forbidden``, ``requiredAccessLevel`` …) means the service account
  cannot see the calendar → ``CalendarNotFoundError``, whose contract says exactly that;
- 401 after one token refresh, or a token endpoint refusal, is a credentials problem the
  caller cannot fix → ``CalendarUnavailableError``; the cause stays chained for operators.
"""

from __future__ import annotations

from typing import Literal

from agenda_kit.calendar.errors import (
    CalendarError,
    CalendarNotFoundError,
    CalendarQuotaError,
    CalendarUnavailableError,
    EventNotFoundError,
    InvalidCalendarRequestError,
)
from calendar_service.infrastructure.google.failures import (
    BudgetExhaustedError,
    GoogleApiError,
    is_rate_limited,
)

Scope = Literal["calendar", "event"]

QUOTA_MESSAGE = "A cota de uso do Google Agenda foi excedida; tente novamente em instantes."


def translate(error: BaseException, *, scope: Scope, target: str) -> CalendarError:
    """The calendar error a caller sees for ``error``; ``target`` names the calendar/event."""
    if isinstance(error, BudgetExhaustedError):
        if error.previous is None:
            return CalendarUnavailableError()
        return translate(error.previous, scope=scope, target=target)
    if isinstance(error, GoogleApiError):
        return _from_api_error(error, scope=scope, target=target)
    return CalendarUnavailableError()


def _from_api_error(error: GoogleApiError, *, scope: Scope, target: str) -> CalendarError:
    if is_rate_limited(error):
        return CalendarQuotaError(QUOTA_MESSAGE)
    if error.status >= 500 or error.status == 401:
        return CalendarUnavailableError()
    if error.status in (404, 410) and scope == "event":
        return EventNotFoundError(f"event {target!r} not found")
    if error.status in (403, 404, 410):
        return CalendarNotFoundError(
            f"calendar {target!r} not found or not shared with the service account"
        )
    return InvalidCalendarRequestError(error.message or error.reason)
