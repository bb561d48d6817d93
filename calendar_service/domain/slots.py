"""The slot engine: which start instants can a customer book? Pure standard-library code.

Semantics
---------
* **Available time** is the union of the weekly windows (``weekly``, local wall-clock hours
  expanded in ``time_zone`` over every local date the range touches) and the absolute
  ``windows``, intersected with ``range``. With neither, the whole range is available.
  Overlapping or touching windows merge into one interval.
* A slot ``[t, t + duration)`` is offered iff all of these hold:

  1. it lies entirely inside ONE merged available interval;
  2. ``t >= now + minimum_notice``;
  3. no busy interval overlaps ``[t - buffer_before, t + duration + buffer_after)``; that is,
     each busy interval is widened by ``buffer_after`` before its start and by
     ``buffer_before`` after its end. Buffers only matter against busy time, never against
     window edges;
  4. ``t`` is on the grid: it has zero seconds and microseconds, and its LOCAL wall-clock
     minute of the day in ``time_zone`` is a multiple of the step (the step divides 1440,
     so this is ``(utc_minutes + utcoffset_minutes(t)) % step == 0``). The step defaults to
     the duration when that divides a day, else 15 minutes.

* **DST**: a weekly window is resolved per local date with ``zoneinfo``. A wall time inside a
  spring-forward gap becomes the first instant after the gap (the first valid instant whose
  wall clock is at or after it); an ambiguous fall-back time is its FIRST occurrence for a
  window start and its SECOND occurrence for a window end, so the window covers all the
  local hours it names. E.g. America/Sao_Paulo before 2019 began DST at local midnight, so a
  window starting at 00:00 on that date starts at 01:00. Grid alignment is per stretch of
  constant UTC offset: offsets are compared at least daily and changes bisected to the minute.
* **Result**: UTC-aware starts, ascending, unique; at most ``max_results`` of them, with
  ``truncated=True`` when more existed (generation stops at ``max_results + 1``).
* **Cost**: O((w + b) log(w + b) + output) for w windows and b busy intervals: one sort and
  merge of each, one sweep subtracting busy from available, and grid points generated
  arithmetically per free interval.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable, Iterator, Sequence
from datetime import datetime
from zoneinfo import ZoneInfo

from calendar_service.domain.slot_intervals import (
    MICROS_PER_MINUTE,
    Interval,
    clip,
    merge,
    merge_columns,
    subtract,
    to_micros,
)
from calendar_service.domain.slot_model import (
    MAX_RANGE_DAYS,
    InvalidSlotQueryError,
    LocalWindow,
    SlotQuery,
    SlotResult,
    Span,
    check_now,
    validate_query,
)
from calendar_service.domain.slot_zones import OffsetPiece, expand_weekly, offset_pieces

__all__ = [
    "MAX_RANGE_DAYS",
    "InvalidSlotQueryError",
    "LocalWindow",
    "SlotQuery",
    "SlotResult",
    "Span",
    "find_free_slots",
    "free_slots_of",
    "validate_query",
]


def find_free_slots(query: SlotQuery, busy: Iterable[Span], now: datetime) -> SlotResult:
    """Bookable slot starts for ``query`` given the calendar's ``busy`` time at ``now``
    (``free_slots_of`` with each span's microseconds).

    Raises:
        InvalidSlotQueryError: the query (or ``now``) breaks a validation rule.
    """
    return free_slots_of(query, [span.micros for span in busy], now)


def free_slots_of(query: SlotQuery, busy: Sequence[Interval], now: datetime) -> SlotResult:
    """Bookable slot starts for ``query`` given the calendar's ``busy`` time at ``now``, as
    ``[start, end)`` microseconds since the epoch (intervals with ``end <= start`` are never
    busy).

    Raises:
        InvalidSlotQueryError: the query (or ``now``) breaks a validation rule.
    """
    validate_query(query)
    check_now(now)
    zone = ZoneInfo(query.time_zone)
    bounds = (to_micros(query.range.start), to_micros(query.range.end))
    free = subtract(_available(query, zone, bounds), _blocked(query, busy))
    notice = to_micros(now) + query.minimum_notice_minutes * MICROS_PER_MINUTE
    minutes = _grid_minutes(
        _candidate_minutes(free, max(bounds[0], notice), query.duration_minutes),
        _offsets(zone, bounds),
        query.step,
        query.max_results + 1,
    )
    limit = query.max_results
    kept = tuple(minutes[:limit])
    return SlotResult(minutes=kept, truncated=len(minutes) > limit)


def _available(query: SlotQuery, zone: ZoneInfo, bounds: Interval) -> list[Interval]:
    """Merged available intervals: weekly ∪ absolute windows, within the range."""
    if not query.weekly and not query.windows:
        return [bounds]
    spans = expand_weekly(zone, query.weekly, bounds)
    spans.extend((to_micros(window.start), to_micros(window.end)) for window in query.windows)
    return merge(clip(spans, bounds))


def _blocked(query: SlotQuery, busy: Sequence[Interval]) -> list[Interval]:
    """Merged busy intervals, widened by the buffers a slot must keep from them."""
    spans = [(start, end) for start, end in busy if end > start]
    before = query.buffer_after_minutes * MICROS_PER_MINUTE
    after = query.buffer_before_minutes * MICROS_PER_MINUTE
    return merge_columns([start - before for start, _ in spans], [end + after for _, end in spans])


def _candidate_minutes(
    free: list[Interval], earliest: int, duration_minutes: int
) -> Iterator[Interval]:
    """Per free interval, the whole UTC minutes ``[low, high]`` a slot may start at."""
    duration = duration_minutes * MICROS_PER_MINUTE
    for start, end in free:
        low = -(-max(start, earliest) // MICROS_PER_MINUTE)  # ceiling
        high = (end - duration) // MICROS_PER_MINUTE
        if low <= high:
            yield low, high


def _offsets(zone: ZoneInfo, bounds: Interval) -> list[OffsetPiece]:
    """Stretches of constant UTC offset over the whole minutes of the range."""
    first = -(-bounds[0] // MICROS_PER_MINUTE)
    last = max(first, bounds[1] // MICROS_PER_MINUTE)
    return offset_pieces(zone, first, last)


def _grid_minutes(
    candidates: Iterable[Interval], pieces: list[OffsetPiece], step: int, limit: int
) -> list[int]:
    """Grid-aligned start minutes, ascending, stopping once ``limit`` are found."""
    piece_starts = [start for start, _ in pieces]
    found: list[int] = []
    for low, high in candidates:
        index = bisect_right(piece_starts, low) - 1
        while index < len(pieces) and pieces[index][0] <= high:
            piece_high = high if index + 1 == len(pieces) else min(high, pieces[index + 1][0] - 1)
            piece_low = max(low, pieces[index][0])
            first = piece_low + (-(piece_low + pieces[index][1])) % step
            found.extend(range(first, piece_high + 1, step)[: limit - len(found)])
            if len(found) >= limit:
                return found
            index += 1
    return found
