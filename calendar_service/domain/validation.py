"""Limits on what callers may ask of a calendar: pure checks, one field at a time."""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

MAX_CALENDARS_PER_QUERY = 200
MAX_QUERY_RANGE = timedelta(days=93)
MAX_LIST_RANGE = timedelta(days=366)
MAX_EVENT_LENGTH = timedelta(days=31)
MAX_SUMMARY = 1024
MAX_DESCRIPTION = 8192
MAX_ID = 1024
MAX_IDEMPOTENCY_KEY = 256


class InvalidRequestError(ValueError):
    """A request field breaks a calendar rule; ``field`` names it."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


def check_range(field: str, start: datetime, end: datetime, longest: timedelta) -> None:
    """``[start, end)`` must be non-empty and no longer than ``longest``."""
    if end <= start:
        raise InvalidRequestError(field, "end must be after start")
    if end - start > longest:
        raise InvalidRequestError(field, f"must not be longer than {longest.days} days")


def check_text(field: str, value: str, *, longest: int, required: bool = True) -> None:
    """Required text is non-blank; all text is at most ``longest`` characters, no NULs."""
    if required and not value.strip():
        raise InvalidRequestError(field, "is required")
    if len(value) > longest:
        raise InvalidRequestError(field, f"must be at most {longest} characters")
    if "\x00" in value:
        raise InvalidRequestError(field, "must not contain NUL characters")


def check_time_zone(field: str, name: str) -> str:
    """A valid IANA zone name ("" means UTC); returns the name to use."""
    if not name:
        return "UTC"
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError, OSError) as error:  # OSError: name too long
        raise InvalidRequestError(field, f"unknown time zone {name[:64]!r}") from error
    return name


def check_count(field: str, count: int, *, lowest: int, highest: int) -> None:
    """An integer within ``[lowest, highest]``."""
    if not lowest <= count <= highest:
        raise InvalidRequestError(field, f"must be between {lowest} and {highest}")
