"""Day keys: which UTC days an event keeps busy, as exact-match keys of a multikey index.

A confirmed event stores ``busy_days``: one ``"<calendar_id>:<YYYY-MM-DD>"`` per UTC day its
``[start, end)`` touches (an event ending exactly at midnight does not touch the next day; a
cancelled event stores none). A free/busy read of ``[start, end)`` asks for the keys of the
days the range touches: every event overlapping the range shares at least one of them (an
instant in both lies on one UTC day), so the read finds them all through the index and
clipping to the range drops the few that only share a day. Equality on a multikey index is
what both MongoDB and the embedded SecantusDB answer from the index; the overlap filter
(``start < end ∧ end > start``) matches no index bound on either and was a collection scan on
SecantusDB.

The key ends with the fixed-length ISO date, so two calendars never share a key whatever
characters their ids hold.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, date, datetime, timedelta

MAX_KEYS_PER_READ = 1_000
"""More keys than this in one read (many calendars over a long range): the read uses the
overlap filter instead (a scan of those calendars' events, bounded by the range's length)."""
_TICK = timedelta(microseconds=1)


def utc_days(start: datetime, end: datetime) -> list[date]:
    """The UTC days ``[start, end)`` touches (none when ``end <= start``); naive instants
    are UTC (as a driver without ``tz_aware`` returns stored dates)."""
    start, end = _utc(start), _utc(end)
    if end <= start:
        return []
    first, last = start.date(), (end - _TICK).date()
    return [first + timedelta(days=n) for n in range((last - first).days + 1)]


def _utc(value: datetime) -> datetime:
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


def day_key(calendar_id: str, day: date) -> str:
    """The key of ``calendar_id``'s ``day``."""
    return f"{calendar_id}:{day.isoformat()}"


def event_day_keys(calendar_id: str, start: datetime, end: datetime) -> list[str]:
    """The ``busy_days`` of a confirmed event of ``calendar_id`` over ``[start, end)``."""
    return [day_key(calendar_id, day) for day in utc_days(start, end)]


def read_keys(calendar_ids: Iterable[str], start: datetime, end: datetime) -> list[str]:
    """The keys a free/busy read of ``calendar_ids`` over ``[start, end)`` asks for."""
    days = [day.isoformat() for day in utc_days(start, end)]
    return [f"{calendar_id}:{day}" for calendar_id in calendar_ids for day in days]
