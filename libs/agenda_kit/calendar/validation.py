"""The calendar contract's rules on ids, shared by the calendar service (which refuses a bad
one with INVALID_ARGUMENT) and by its clients (the agent applies them when a professional is
saved, so a calendar id the service would refuse is never stored).

Rule (an allowlist, not a list of bad characters): a calendar id is 1 to ``MAX_CALENDAR_ID``
characters, every one printable (``str.isprintable``: no control, format, surrogate,
private-use or unassigned code point, no separator but the ASCII space), with no space at
either end.
"""

from __future__ import annotations

from agenda_kit.calendar.errors import InvalidCalendarRequestError

MAX_CALENDAR_ID = 1024


def id_problem(value: str, *, longest: int = MAX_CALENDAR_ID) -> str | None:
    """Why ``value`` is not an acceptable id (calendar, event, key), or None."""
    if not value:
        return "is required"
    if len(value) > longest:
        return f"must be at most {longest} characters"
    if not value.isprintable():
        return "must contain only printable characters"
    if value != value.strip():
        return "must not start or end with a space"
    if not value.strip("."):
        return "must not be only dots"  # "." and ".." are path steps in a provider's URL
    return None


def calendar_id_problem(value: str) -> str | None:
    """Why ``value`` is not a calendar id the calendar service accepts, or None."""
    return id_problem(value, longest=MAX_CALENDAR_ID)


def check_calendar_id(value: str, field: str = "calendar_id") -> str:
    """``value`` if it is an acceptable calendar id, else ``InvalidCalendarRequestError``
    naming ``field``."""
    problem = calendar_id_problem(value)
    if problem is not None:
        raise InvalidCalendarRequestError(f"{field}: {problem}", field=field)
    return value
