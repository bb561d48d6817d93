"""Limits on what callers may ask of a calendar: pure checks, one field at a time.

Every string and list of the calendar contract has a bound (docs/calendar-service.md#limits).
No text may hold a control character: nothing a caller sends may break a log line, a
provider's field or a screen. Controls are the ``Cc`` characters (multi-line text, such as
descriptions, may hold tabs and line breaks), the line and paragraph separators in one-line
text, and the bidirectional embeddings, overrides and isolates (they reorder what a reader
sees). The format characters ordinary writing uses — ZWJ in emoji sequences, ZWNJ in Persian
and Indic scripts, soft hyphens, directional marks — and every space are text.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

MAX_CALENDARS_PER_QUERY = 200
MAX_QUERY_RANGE = timedelta(days=93)
MAX_LIST_RANGE = timedelta(days=366)
MAX_EVENT_LENGTH = timedelta(days=31)
MAX_SUMMARY = 1024
MAX_DESCRIPTION = 8192
MAX_LOCATION = 1024
MAX_ID = 1024
MAX_IDEMPOTENCY_KEY = 256
MAX_WEEKLY_HOURS = 56
"""7 days × 8 windows."""
MAX_WINDOWS = 500
MAX_ATTENDEES = 50
MAX_EMAIL = 254
MAX_DISPLAY_NAME = 256
MAX_PROPERTIES = 20
MAX_PROPERTY_FILTER = 5
MAX_PROPERTY_KEY = 44
"""Google's bound: it silently drops an extended property with a longer key (its
extended-properties guide), so a longer key is refused on every backend."""
MAX_PROPERTY_VALUE = 256
MAX_TIME_ZONE = 64
"""Longer than any IANA zone name."""
MAX_TOKEN = 4096
MAX_ETAG = 256
_LINE_BREAKS = frozenset("\t\n\r\u2028\u2029")
"""What multi-line text may hold besides text."""
_BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
_LINE_SEPARATORS = frozenset({"Zl", "Zp"})
_DAY = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


class InvalidRequestError(ValueError):
    """A request field breaks a calendar rule; ``field`` names it."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


EARLIEST = datetime(1900, 1, 1, tzinfo=UTC)
LATEST = datetime(9000, 1, 1, tzinfo=UTC)
"""The instants a request may name: far from the ends of what dates and time zones can hold
(an all-day date in Tokyo in year 1, a read reaching into year 9999 overflowed)."""


def check_range(field: str, start: datetime, end: datetime, longest: timedelta) -> None:
    """``[start, end)`` must be non-empty at the millisecond (the precision events and holds
    are stored at), within ``EARLIEST``..``LATEST`` and no longer than ``longest``."""
    if to_millisecond(end) <= to_millisecond(start):
        raise InvalidRequestError(field, "end must be after start (to the millisecond)")
    if start < EARLIEST or end > LATEST:
        raise InvalidRequestError(
            field, f"must lie between years {EARLIEST.year} and {LATEST.year}"
        )
    if end - start > longest:
        raise InvalidRequestError(field, f"must not be longer than {longest.days} days")


def check_text(
    field: str, value: str, *, longest: int, required: bool = True, multiline: bool = False
) -> None:
    """Required text is non-blank; all text is at most ``longest`` characters and printable
    (``multiline`` text may also hold tabs and line breaks)."""
    if required and not value.strip():
        raise InvalidRequestError(field, "is required")
    if len(value) > longest:
        raise InvalidRequestError(field, f"must be at most {longest} characters")
    if "\x00" in value:
        raise InvalidRequestError(field, "must not contain NUL characters")
    if not value.isprintable() and any(_is_control(c, multiline=multiline) for c in value):
        raise InvalidRequestError(field, "must not contain control characters")


def _is_control(character: str, *, multiline: bool) -> bool:
    """Whether ``character`` is a control (the module's rule); printable text never is."""
    if multiline and character in _LINE_BREAKS:
        return False
    category = unicodedata.category(character)
    return category == "Cc" or category in _LINE_SEPARATORS or character in _BIDI_CONTROLS


def check_time_zone(field: str, name: str) -> str:
    """An IANA zone name of the zone database ("" means UTC); returns the name to use. Files
    beside the zones are no zone: "localtime" is the server's own, "Factory" none, and
    "posix/..", "right/.." copies under other rules."""
    if not name:
        return "UTC"
    if name not in _zone_names():
        raise InvalidRequestError(field, f"unknown time zone {name[:64]!r}")
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError, OSError) as error:  # OSError: name too long
        raise InvalidRequestError(field, f"unknown time zone {name[:64]!r}") from error
    return name


@functools.cache
def _zone_names() -> frozenset[str]:
    return frozenset(available_timezones() - _NOT_ZONES)


_NOT_ZONES = frozenset({"localtime", "Factory", "posixrules"})


def check_count(field: str, count: int, *, lowest: int, highest: int) -> None:
    """An integer within ``[lowest, highest]``."""
    if not lowest <= count <= highest:
        raise InvalidRequestError(field, f"must be between {lowest} and {highest}")


def check_email(field: str, value: str) -> None:
    """An attendee's address: ``local@domain``, printable, no spaces, at most 254 chars."""
    check_text(field, value, longest=MAX_EMAIL)
    local, at, domain = value.rpartition("@")
    if not at or not local or "." not in domain or any(c.isspace() for c in value):
        raise InvalidRequestError(field, "must be an e-mail address")


def parse_day(field: str, text: str) -> date:
    """A calendar date spelled "YYYY-MM-DD" (ASCII digits), the only spelling of the contract
    (ISO week, ordinal and basic forms name the same day otherwise)."""
    if not _DAY.fullmatch(text):
        raise InvalidRequestError(field, "must be a date YYYY-MM-DD")
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise InvalidRequestError(field, "must be a date YYYY-MM-DD") from None


def check_day(field: str, day: date) -> None:
    """A calendar date within ``EARLIEST``..``LATEST``."""
    if not EARLIEST.date() <= day <= LATEST.date():
        raise InvalidRequestError(
            field, f"must lie between years {EARLIEST.year} and {LATEST.year}"
        )


def to_millisecond(instant: datetime) -> datetime:
    """``instant`` cut to the millisecond: the precision events and holds are stored at."""
    return instant.replace(microsecond=instant.microsecond // 1000 * 1000)
