"""Brute-force oracle for the slot engine: every whole minute, every rule checked directly.

Written independently of ``calendar_service.domain.slots`` and meant to be obviously right,
not fast. It has no ``max_results`` truncation. Weekly windows are found by scanning the
wall clock minute by minute, so they are exact when window times and the zone's offset
transitions fall on whole minutes (true of every zone the tests use after 1970).
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from calendar_service.domain.slots import LocalWindow, SlotQuery, Span

MINUTE = timedelta(minutes=1)
SCAN_MARGIN = timedelta(hours=26)
Window = tuple[datetime, datetime]  # UTC instants, [start, end)


def reference_free_slots(query: SlotQuery, busy: Iterable[Span], now: datetime) -> list[datetime]:
    """Every whole UTC minute ``t`` in the range for which all slot rules hold."""
    zone = ZoneInfo(query.time_zone)
    start, end = _utc(query.range.start), _utc(query.range.end)
    duration = timedelta(minutes=query.duration_minutes)
    busy_utc = [(_utc(span.start), _utc(span.end)) for span in busy]
    windows = _availability(query, zone, start, end)
    earliest = _utc(now) + timedelta(minutes=query.minimum_notice_minutes)
    slots: list[datetime] = []
    t = _ceil_minute(start)
    while t + duration <= end:
        if (
            _on_grid(t, zone, _step(query))
            and t >= earliest
            and _covered(t, t + duration, windows)
            and _clear_of_busy(t, duration, busy_utc, query)
        ):
            slots.append(t)
        t += MINUTE
    return slots


def _utc(value: datetime) -> datetime:
    return value.astimezone(UTC)


def _ceil_minute(value: datetime) -> datetime:
    floor = value.replace(second=0, microsecond=0)
    return floor if floor == value else floor + MINUTE


def _step(query: SlotQuery) -> int:
    if query.step_minutes is not None:
        return query.step_minutes
    return query.duration_minutes if 1440 % query.duration_minutes == 0 else 15


def _on_grid(t: datetime, zone: ZoneInfo, step: int) -> bool:
    """The local wall-clock minute of the day is a multiple of the step."""
    local = t.astimezone(zone)
    return t.second == 0 and t.microsecond == 0 and (local.hour * 60 + local.minute) % step == 0


def _clear_of_busy(t: datetime, duration: timedelta, busy: list[Window], query: SlotQuery) -> bool:
    """No busy interval overlaps the slot widened by its buffers."""
    low = t - timedelta(minutes=query.buffer_before_minutes)
    high = t + duration + timedelta(minutes=query.buffer_after_minutes)
    return not any(start < high and end > low for start, end in busy)


def _covered(low: datetime, high: datetime, windows: list[Window]) -> bool:
    """Every instant of ``[low, high)`` lies in some window (walk the chain of windows)."""
    cursor = low
    while cursor < high:
        reaches = [end for start, end in windows if start <= cursor < end]
        if not reaches:
            return False
        cursor = max(reaches)
    return True


def _availability(query: SlotQuery, zone: ZoneInfo, start: datetime, end: datetime) -> list[Window]:
    """Absolute windows plus weekly windows; the whole range when there are none."""
    if not query.weekly and not query.windows:
        return [(start, end)]
    windows = [(_utc(span.start), _utc(span.end)) for span in query.windows]
    if query.weekly:
        windows.extend(_weekly_windows(query.weekly, zone, start, end))
    return windows


def _weekly_windows(
    weekly: tuple[LocalWindow, ...], zone: ZoneInfo, start: datetime, end: datetime
) -> list[Window]:
    """Each weekly window on each local date near the range, by scanning the wall clock.

    A window lasts at most 25 hours, so one that overlaps the range starts and ends within
    26 hours of it: scanning that far each side finds both of its ends.
    """
    instants: list[datetime] = []
    t = _ceil_minute(start) - SCAN_MARGIN
    while t <= end + SCAN_MARGIN:
        instants.append(t)
        t += MINUTE
    walls = [instant.astimezone(zone).replace(tzinfo=None) for instant in instants]
    found: list[Window] = []
    for day in sorted({wall.date() for wall in walls}):
        # UTC offsets are under a day, so wall times of ``day`` and of midnight after it
        # only occur at instants within a day of those wall times read as UTC.
        midnight = datetime.combine(day, time(0), tzinfo=UTC)
        low = max(0, (midnight - timedelta(days=1) - instants[0]) // MINUTE)
        high = max(0, (midnight + timedelta(days=2) - instants[0]) // MINUTE)
        for window in weekly:
            if window.weekday == day.isoweekday():
                found.extend(_window_on(day, window, instants[low:high], walls[low:high]))
    return found


def _window_on(
    day: date, window: LocalWindow, instants: list[datetime], walls: list[datetime]
) -> list[Window]:
    """Start: the first instant whose wall clock reads the start time or later (its first
    occurrence, or the end of a gap). End: the last instant whose wall clock reads the end
    time (its second occurrence); in a gap, the first instant past it."""
    wall_start = datetime.combine(day, window.start)
    wall_end = datetime.combine(day + timedelta(days=1), time(0))
    if window.end is not None:
        wall_end = datetime.combine(day, window.end)
    starts = [i for i, wall in enumerate(walls) if wall >= wall_start]
    ends = [i for i, wall in enumerate(walls) if wall == wall_end]
    if not ends:
        ends = [i for i, wall in enumerate(walls) if wall > wall_end][:1]
    if not starts or not ends:
        return []
    first, last = instants[starts[0]], instants[ends[-1]]
    return [(first, last)] if first < last else []
