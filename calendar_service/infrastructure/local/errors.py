"""Driver failures become ``agenda_kit.calendar.errors`` at the local calendar's edge."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import structlog
from pymongo.errors import PyMongoError

from agenda_kit.calendar.errors import CalendarUnavailableError

log = structlog.get_logger("agenda.calendar.local")


@contextmanager
def translated_errors(operation: str) -> Iterator[None]:
    """Any ``PyMongoError`` not handled inside (connection loss, timeouts, server errors) means
    the calendar store cannot answer: ``CalendarUnavailableError``, cause chained and logged."""
    try:
        yield
    except PyMongoError as error:
        log.warning("local_calendar_unavailable", operation=operation, error=repr(error))
        raise CalendarUnavailableError() from error
