"""The calendar port shared by both services: ``ICalendarAdapter``, its value objects and errors."""

from agenda_kit.calendar.errors import (
    CalendarError,
    CalendarNotFoundError,
    CalendarQuotaError,
    CalendarUnavailableError,
    EventNotFoundError,
    IdempotencyConflictError,
    InvalidCalendarRequestError,
)
from agenda_kit.calendar.port import (
    CalendarEvent,
    EventDraft,
    EventPage,
    FreeBusy,
    ICalendarAdapter,
    Interval,
    SlotRules,
    WeeklyHours,
)

__all__ = [
    "CalendarError",
    "CalendarEvent",
    "CalendarNotFoundError",
    "CalendarQuotaError",
    "CalendarUnavailableError",
    "EventDraft",
    "EventNotFoundError",
    "EventPage",
    "FreeBusy",
    "ICalendarAdapter",
    "IdempotencyConflictError",
    "Interval",
    "InvalidCalendarRequestError",
    "SlotRules",
    "WeeklyHours",
]
