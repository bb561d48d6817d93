"""The built-in calendar backend: events in MongoDB (embedded SecantusDB or a real server)."""

from calendar_service.infrastructure.local.adapter import LocalCalendarAdapter
from calendar_service.infrastructure.local.documents import init_local_calendar

__all__ = ["LocalCalendarAdapter", "init_local_calendar"]
