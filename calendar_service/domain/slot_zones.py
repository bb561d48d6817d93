"""Wall-clock time in an IANA zone for the slot engine: weekly windows and UTC offsets.

Rules (DST-correct, via ``zoneinfo``):

* A wall time that does not exist (spring-forward gap) resolves to the first instant after
  the gap, i.e. the first valid instant whose wall clock is at or after the one asked for.
* An ambiguous wall time (fall-back) resolves to its first occurrence for a window start and
  to its second occurrence for a window end, so the window covers every local hour it names.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, datetime, time, timedelta
from functools import lru_cache
from zoneinfo import ZoneInfo

from calendar_service.domain.slot_intervals import EPOCH, Interval, to_micros
from calendar_service.domain.slot_model import LocalWindow

OffsetPiece = tuple[int, int]  # (first UTC minute since the epoch, UTC offset in minutes)

_OFFSET_PROBE_MINUTES = 1440  # offsets are compared at least once a day (at most 7 days apart)
_ONE_DAY = timedelta(days=1)
_ONE_WEEK = timedelta(days=7)
_CACHED_WEEKS = 4096  # (zone, weekly hours, week) expansions kept; a few hundred bytes each


def _local(zone: ZoneInfo, micros: int) -> datetime:
    """The wall-clock datetime in ``zone`` of the instant ``micros``."""
    return (EPOCH + timedelta(microseconds=micros)).astimezone(zone)


def _offset_micros(zone: ZoneInfo, micros: int) -> int:
    """The UTC offset (microseconds) in force in ``zone`` at the instant ``micros``."""
    offset = _local(zone, micros).utcoffset()
    return 0 if offset is None else offset // timedelta(microseconds=1)


def offset_minutes(zone: ZoneInfo, minute: int) -> int:
    """The UTC offset in whole minutes (floored) in force at the UTC ``minute``."""
    return _offset_micros(zone, minute * 60_000_000) // 60_000_000


def first_change(value_at: Callable[[int], int], low: int, high: int) -> int:
    """Smallest ``x`` in ``(low, high]`` with ``value_at(x) != value_at(low)`` (bisection).

    Requires ``value_at(high) != value_at(low)`` and a single step between them.
    """
    base = value_at(low)
    while high - low > 1:
        middle = (low + high) // 2
        if value_at(middle) == base:
            low = middle
        else:
            high = middle
    return high


def resolve_wall(zone: ZoneInfo, wall: datetime, fold: int) -> int:
    """The instant (microseconds) of the naive wall time ``wall`` in ``zone``.

    ``fold`` picks the occurrence of an ambiguous time (0 first, 1 second); a time inside
    a gap becomes the first instant after the gap.
    """
    instant = to_micros(wall.replace(tzinfo=zone, fold=fold))
    if _local(zone, instant).replace(tzinfo=None) == wall:
        return instant
    before_gap = to_micros(wall.replace(tzinfo=zone, fold=1))  # uses the later offset
    after_gap = to_micros(wall.replace(tzinfo=zone, fold=0))  # uses the earlier offset
    low, high = min(before_gap, after_gap), max(before_gap, after_gap)
    return first_change(lambda micros: _offset_micros(zone, micros), low, high)


def expand_weekly(
    zone: ZoneInfo, weekly: tuple[LocalWindow, ...], bounds: Interval
) -> list[Interval]:
    """Weekly windows as instants for every local date ``bounds`` touches, ±1 day.

    Whole local weeks (Monday to Sunday) are expanded, so windows of a few dates just
    outside that span may be included; callers clip to ``bounds``. A week's expansion
    depends only on the zone, the hours and the week, so it is computed once and cached:
    the datetime round trips per window edge are the engine's fixed cost otherwise.
    """
    first = _local(zone, bounds[0]).date() - _ONE_DAY
    last = _local(zone, bounds[1]).date() + _ONE_DAY
    monday = first - timedelta(days=first.weekday())
    spans: list[Interval] = []
    while monday <= last:
        spans.extend(week_windows(zone, weekly, monday))
        monday += _ONE_WEEK
    return spans


@lru_cache(maxsize=_CACHED_WEEKS)
def week_windows(
    zone: ZoneInfo, weekly: tuple[LocalWindow, ...], monday: date
) -> tuple[Interval, ...]:
    """The non-empty instants of ``weekly`` on the seven local dates from ``monday``."""
    spans: list[Interval] = []
    for offset in range(7):
        day = monday + timedelta(days=offset)
        spans.extend(
            _window_on(zone, day, window) for window in weekly if window.weekday == offset + 1
        )
    return tuple((start, end) for start, end in spans if start < end)


def _window_on(zone: ZoneInfo, day: date, window: LocalWindow) -> Interval:
    """One weekly window on one local date: start at fold 0, end at fold 1."""
    start = resolve_wall(zone, datetime.combine(day, window.start), fold=0)
    if window.end is None:
        end_wall = datetime.combine(day + _ONE_DAY, time())
    else:
        end_wall = datetime.combine(day, window.end)
    return start, resolve_wall(zone, end_wall, fold=1)


def offset_pieces(zone: ZoneInfo, first_minute: int, last_minute: int) -> list[OffsetPiece]:
    """Split UTC minutes ``[first, last]`` where the zone's offset changes.

    Offsets are compared at most a day apart; a change is bisected to the exact minute.
    """
    pieces = [(first_minute, offset_minutes(zone, first_minute))]
    cursor = first_minute
    while cursor < last_minute:
        probe = min(cursor + _OFFSET_PROBE_MINUTES, last_minute)
        if offset_minutes(zone, probe) == pieces[-1][1]:
            cursor = probe
            continue
        cursor = first_change(lambda minute: offset_minutes(zone, minute), cursor, probe)
        pieces.append((cursor, offset_minutes(zone, cursor)))
    return pieces
