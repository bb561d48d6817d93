"""Splitting a free/busy question into requests Google accepts, and merging the answers."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from agenda_kit.calendar.port import FreeBusy, FreeBusyError, Interval
from calendar_service.infrastructure.google.mapping import busy_from_json, calendar_error, rfc3339

MAX_CALENDARS_PER_QUERY = 50
MAX_WINDOW = timedelta(days=60)


@dataclass(frozen=True, slots=True)
class FreeBusyQuery:
    """One ``freeBusy.query`` request: ≤ 50 calendars over a window of ≤ 60 days."""

    calendar_ids: tuple[str, ...]
    start: datetime
    end: datetime

    def body(self) -> dict[str, Any]:
        return {
            "timeMin": rfc3339(self.start),
            "timeMax": rfc3339(self.end),
            "timeZone": "UTC",
            "items": [{"id": calendar_id} for calendar_id in self.calendar_ids],
        }


def plan(calendar_ids: Sequence[str], start: datetime, end: datetime) -> list[FreeBusyQuery]:
    """Every (batch, window) pair; duplicate calendar ids are asked once."""
    unique = tuple(dict.fromkeys(calendar_ids))
    batches = [
        unique[i : i + MAX_CALENDARS_PER_QUERY]
        for i in range(0, len(unique), MAX_CALENDARS_PER_QUERY)
    ]
    return [FreeBusyQuery(batch, lo, hi) for batch in batches for lo, hi in windows(start, end)]


def windows(start: datetime, end: datetime) -> list[tuple[datetime, datetime]]:
    """``[start, end)`` cut into consecutive windows of at most ``MAX_WINDOW``."""
    cuts = []
    lo = start
    while lo < end:
        hi = lo + min(MAX_WINDOW, end - lo)  # never past ``end`` (nor past year 9999)
        cuts.append((lo, hi))
        lo = hi
    return cuts


def merge(calendar_ids: Sequence[str], answers: Iterable[dict[str, Any]]) -> list[FreeBusy]:
    """One ``FreeBusy`` per requested id, in request order; any window's error wins."""
    busy: dict[str, list[Interval]] = {}
    errors: dict[str, FreeBusyError] = {}
    for answer in answers:
        for calendar_id, entry in (answer.get("calendars") or {}).items():
            reason = calendar_error(entry)
            if reason is not None:
                errors.setdefault(calendar_id, reason)
            else:
                busy.setdefault(calendar_id, []).extend(busy_from_json(entry.get("busy", [])))
    return [_result(calendar_id, busy, errors) for calendar_id in calendar_ids]


def _result(
    calendar_id: str, busy: dict[str, list[Interval]], errors: dict[str, FreeBusyError]
) -> FreeBusy:
    if calendar_id in errors:
        return FreeBusy(calendar_id=calendar_id, error=errors[calendar_id])
    if calendar_id not in busy:
        return FreeBusy(calendar_id=calendar_id, error=FreeBusyError.MISSING)
    return FreeBusy(calendar_id=calendar_id, busy=tuple(coalesce(busy[calendar_id])))


def coalesce(intervals: Iterable[Interval]) -> list[Interval]:
    """Sorted, with overlapping or touching intervals (e.g. across windows) joined."""
    merged: list[Interval] = []
    for interval in sorted(intervals, key=lambda i: (i.start, i.end)):
        if merged and interval.start <= merged[-1].end:
            last = merged[-1]
            merged[-1] = Interval(last.start, max(last.end, interval.end))
        else:
            merged.append(interval)
    return merged
