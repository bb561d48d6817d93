"""Value objects of the slot engine and the rules a slot query must satisfy.

Public names are re-exported by :mod:`calendar_service.domain.slots`; import them from there.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime, time, timedelta
from functools import cached_property
from zoneinfo import ZoneInfo

from calendar_service.domain.slot_intervals import minute_to_datetime, to_micros

MAX_RANGE_DAYS = 93
MAX_DURATION_MINUTES = 1440
MAX_BUFFER_MINUTES = 1440
MAX_NOTICE_MINUTES = 527_040  # 366 days
MAX_RESULTS_LIMIT = 5000
MINUTES_PER_DAY = 1440
DEFAULT_STEP_MINUTES = 15

# Far enough from datetime.min/max that a day of margin in any zone cannot overflow.
_EARLIEST = datetime(1, 1, 3, tzinfo=UTC)
_LATEST = datetime(9999, 12, 29, tzinfo=UTC)


def is_aware(value: datetime) -> bool:
    """True when ``value`` names one instant (it has a UTC offset)."""
    return value.tzinfo is not None and value.utcoffset() is not None


@dataclass(frozen=True, slots=True)
class Span:
    """A half-open interval of instants ``[start, end)``; both ends aware, ``end > start``.

    ``micros`` is the same interval in microseconds since the epoch, computed once here
    (the engine's integer form; it is not part of equality).
    """

    start: datetime
    end: datetime
    micros: tuple[int, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        start, end = self.start, self.end
        # A naive datetime's utcoffset() is None too (this is ``is_aware``, inlined: spans
        # are built per busy interval).
        if start.utcoffset() is None or end.utcoffset() is None:
            raise ValueError("span start and end must be timezone-aware")
        # Compare as instants: comparisons within one ZoneInfo ignore ``fold``.
        micros = (to_micros(start), to_micros(end))
        if micros[1] <= micros[0]:
            raise ValueError("span end must be after start")
        object.__setattr__(self, "micros", micros)


@dataclass(frozen=True, slots=True, kw_only=True)
class LocalWindow:
    """A weekly wall-clock window in the query's zone: ISO ``weekday``, ``[start, end)``.

    ``end=None`` means midnight at the end of that day.
    """

    weekday: int
    start: time
    end: time | None


@dataclass(frozen=True, slots=True, kw_only=True)
class SlotQuery:
    """What the caller wants: slots of ``duration_minutes`` inside ``range`` (see ``slots``)."""

    range: Span
    duration_minutes: int
    time_zone: str = "UTC"
    weekly: tuple[LocalWindow, ...] = ()
    windows: tuple[Span, ...] = ()
    step_minutes: int | None = None
    buffer_before_minutes: int = 0
    buffer_after_minutes: int = 0
    minimum_notice_minutes: int = 0
    max_results: int = 500

    @property
    def step(self) -> int:
        """The grid step: explicit, else the duration when it divides a day, else 15."""
        if self.step_minutes is not None:
            return self.step_minutes
        if MINUTES_PER_DAY % self.duration_minutes == 0:
            return self.duration_minutes
        return DEFAULT_STEP_MINUTES


@dataclass(frozen=True)
class SlotResult:
    """Slot starts as whole minutes since the Unix epoch (ascending, unique: what the engine
    computes; a wire format is built from them without a datetime per slot); ``truncated``
    when more than asked for existed. ``starts``: the same as UTC datetimes, made on first
    use."""

    minutes: tuple[int, ...]
    truncated: bool

    @cached_property
    def starts(self) -> tuple[datetime, ...]:
        """The slot starts in UTC."""
        return tuple(minute_to_datetime(minute) for minute in self.minutes)


class InvalidSlotQueryError(ValueError):
    """A slot query breaks a rule; ``field`` names the offending ``SlotQuery`` field."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field
        self.message = message


def validate_query(query: SlotQuery) -> None:
    """Reject a query the engine must not run, naming the first offending field."""
    _check_range(query.range)
    _check_int("duration_minutes", query.duration_minutes, 1, MAX_DURATION_MINUTES)
    _check_step(query.step_minutes)
    _check_int("buffer_before_minutes", query.buffer_before_minutes, 0, MAX_BUFFER_MINUTES)
    _check_int("buffer_after_minutes", query.buffer_after_minutes, 0, MAX_BUFFER_MINUTES)
    _check_int("minimum_notice_minutes", query.minimum_notice_minutes, 0, MAX_NOTICE_MINUTES)
    _check_int("max_results", query.max_results, 1, MAX_RESULTS_LIMIT)
    for window in query.weekly:
        _check_local_window(window)
    for span in query.windows:
        _check_span("windows", span)
    check_time_zone(query.time_zone)


def check_time_zone(key: object) -> ZoneInfo:
    """The zone must be a valid IANA key ("" is not: callers map it to "UTC" first)."""
    if not isinstance(key, str) or not key:
        raise InvalidSlotQueryError("time_zone", "time zone must be a non-empty IANA name")
    try:
        return ZoneInfo(key)
    except (KeyError, ValueError, OSError) as error:
        raise InvalidSlotQueryError("time_zone", f"unknown time zone {key[:64]!r}") from error


def check_now(now: object) -> None:
    """The reference instant for minimum notice must be an aware datetime."""
    if not isinstance(now, datetime) or not is_aware(now):
        raise InvalidSlotQueryError("now", "now must be a timezone-aware datetime")


def _check_range(span: object) -> None:
    """The range is a valid span, at most ``MAX_RANGE_DAYS`` long, within datetime limits."""
    checked = _check_span("range", span)
    start, end = checked.start.astimezone(UTC), checked.end.astimezone(UTC)
    if end - start > timedelta(days=MAX_RANGE_DAYS):
        raise InvalidSlotQueryError("range", f"range must be at most {MAX_RANGE_DAYS} days")
    if start < _EARLIEST or end > _LATEST:
        raise InvalidSlotQueryError("range", "range must lie between years 0001 and 9999")


def _check_span(field: str, span: object) -> Span:
    """A span of aware datetimes with ``end > start`` (re-checked: spans can be forged)."""
    if not isinstance(span, Span):
        raise InvalidSlotQueryError(field, f"{field} must be a Span")
    if not (
        isinstance(span.start, datetime)
        and isinstance(span.end, datetime)
        and is_aware(span.start)
        and is_aware(span.end)
    ):
        raise InvalidSlotQueryError(field, f"{field} start and end must be timezone-aware")
    if span.end.astimezone(UTC) <= span.start.astimezone(UTC):
        raise InvalidSlotQueryError(field, f"{field} end must be after start")
    return span


def _check_int(field: str, value: object, lowest: int, highest: int) -> int:
    """An integer (not a bool) within ``[lowest, highest]``."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise InvalidSlotQueryError(field, f"{field} must be an integer")
    if not lowest <= value <= highest:
        raise InvalidSlotQueryError(field, f"{field} must be between {lowest} and {highest}")
    return value


def _check_step(step: object) -> None:
    """An explicit step lies in 1..1440 and divides a day, so the grid is the same daily."""
    if step is None:
        return
    if MINUTES_PER_DAY % _check_int("step_minutes", step, 1, MINUTES_PER_DAY) != 0:
        raise InvalidSlotQueryError("step_minutes", "step must divide 1440 (a day) evenly")


def _check_local_window(window: object) -> None:
    """ISO weekday 1..7, naive wall-clock times, and an end after the start."""
    if not isinstance(window, LocalWindow):
        raise InvalidSlotQueryError("weekly", "weekly hours must be LocalWindow values")
    weekday, start, end = window.weekday, window.start, window.end
    if not isinstance(weekday, int) or isinstance(weekday, bool) or not 1 <= weekday <= 7:
        raise InvalidSlotQueryError("weekly", "weekday must be an ISO weekday, 1 to 7")
    if not _is_wall_time(start) or (end is not None and not _is_wall_time(end)):
        raise InvalidSlotQueryError("weekly", "weekly start and end must be naive wall-clock times")
    # Naive times compare ignoring ``fold``.
    if end is not None and end <= start:
        raise InvalidSlotQueryError("weekly", "weekly end must be after start")


def _is_wall_time(value: object) -> bool:
    """A naive ``time`` of day."""
    return isinstance(value, time) and value.tzinfo is None
