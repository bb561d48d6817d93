"""Per-calendar free/busy errors become exceptions when a single calendar was asked for."""

from __future__ import annotations

from agenda_kit.calendar.errors import CalendarNotFoundError, CalendarUnavailableError
from agenda_kit.calendar.port import FreeBusy, FreeBusyError

_NOT_FOUND_REASONS = frozenset({FreeBusyError.NOT_FOUND, FreeBusyError.FORBIDDEN})


def raise_for_free_busy_error(free_busy: FreeBusy) -> None:
    """A calendar that cannot be read cannot offer slots: say why instead of "no slots"."""
    if free_busy.error is None:
        return
    if free_busy.error in _NOT_FOUND_REASONS:
        raise CalendarNotFoundError(f"calendar {free_busy.calendar_id!r} was not found")
    raise CalendarUnavailableError()
