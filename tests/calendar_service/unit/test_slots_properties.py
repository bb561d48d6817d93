"""Property tests: the slot engine agrees with the brute-force reference, and its invariants."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, date, datetime, time, timedelta
from itertools import pairwise
from typing import TypeVar
from zoneinfo import ZoneInfo

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from calendar_service.domain.slots import LocalWindow, SlotQuery, Span, find_free_slots
from tests.calendar_service.unit.slot_reference import reference_free_slots
from tests.scale import size

T = TypeVar("T")

# Local dates on which each zone's UTC offset changes (DST both ways, Sao Paulo's midnight
# gap and its 23:00 repeat, Lord Howe's 30-minute DST, Kathmandu's +5:30 -> +5:45).
TRANSITIONS: dict[str, tuple[date, ...]] = {
    "UTC": (date(2026, 3, 8),),
    "America/New_York": (date(2026, 3, 8), date(2026, 11, 1)),
    "Europe/Lisbon": (date(2026, 3, 29), date(2026, 10, 25)),
    "America/Sao_Paulo": (date(2018, 11, 4), date(2018, 2, 17), date(2019, 11, 3)),
    "Australia/Lord_Howe": (date(2026, 4, 5), date(2026, 10, 4)),
    "Asia/Kathmandu": (date(1986, 1, 1),),
}
DIVISORS_OF_DAY = tuple(step for step in range(1, 1441) if 1440 % step == 0)
SMALL_STEPS = (1, 5, 10, 15, 30, 45, 60, 120)
# Whole minutes of the day where the zones above change offset, and their neighbours.
INTERESTING_MINUTES = (*range(0, 241, 15), 1380, 1395, 1410, 1425)
SETTINGS = settings(
    max_examples=size(50, 300),  # make test: 50 per property; RELIABILITY_SCALE=full: 300
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
Case = tuple[SlotQuery, list[Span], datetime]


def _offset(minutes: int, seconds: int = 0) -> timedelta:
    return timedelta(minutes=minutes, seconds=seconds)


def _time(minute_of_day: int) -> time | None:
    """Wall-clock time of a minute of the day; 1440 (midnight at the end) is ``None``."""
    return None if minute_of_day == 1440 else time(minute_of_day // 60, minute_of_day % 60)


@st.composite
def days(draw: st.DrawFn, zone: str) -> date:
    """A local date on which the zone's offset changes, or a random one."""
    if draw(st.booleans()):
        return draw(st.sampled_from(TRANSITIONS[zone]))
    return date(2015, 1, 1) + timedelta(days=draw(st.integers(0, 5000)))


@st.composite
def spans_near(draw: st.DrawFn, anchor: datetime, longest_minutes: int) -> list[Span]:
    """A span within days of ``anchor`` (odd seconds sometimes), maybe with a touching one."""
    seconds = st.sampled_from((0, 0, 0, 30))
    start = anchor + _offset(draw(st.integers(-1440, 3 * 1440)), draw(seconds))
    spans = [Span(start, start + _offset(draw(st.integers(1, longest_minutes)), draw(seconds)))]
    if draw(st.booleans()):
        follow = spans[-1].end
        spans.append(Span(follow, follow + _offset(draw(st.integers(1, longest_minutes)))))
    return spans


@st.composite
def local_windows(draw: st.DrawFn, day: date) -> list[LocalWindow]:
    """A weekly window near ``day``, biased to DST hours, maybe followed by a touching one."""
    minute = st.one_of(st.sampled_from(INTERESTING_MINUTES), st.integers(0, 1439))
    weekday = draw(
        st.one_of(
            st.integers(-1, 3).map(lambda shift: (day + timedelta(days=shift)).isoweekday()),
            st.integers(1, 7),
        )
    )
    start = draw(minute)
    end = draw(
        st.one_of(st.just(1440), minute.filter(lambda m: m > start), st.integers(start + 1, 1440))
    )
    windows = [LocalWindow(weekday=weekday, start=_time(start) or time(), end=_time(end))]
    if draw(st.booleans()):  # touching: same day from ``end``, or the next day from 00:00
        after = end % 1440
        later = draw(st.integers(after + 1, 1440))
        weekday = weekday % 7 + 1 if end == 1440 else weekday
        windows.append(
            LocalWindow(weekday=weekday, start=time(after // 60, after % 60), end=_time(later))
        )
    return windows


def _flatten(groups: list[list[T]]) -> tuple[T, ...]:
    return tuple(item for group in groups for item in group)


@st.composite
def cases(draw: st.DrawFn) -> Case:
    """A random query, busy list and ``now`` near the query's range."""
    zone = draw(st.sampled_from(tuple(TRANSITIONS)))
    day = draw(days(zone))
    local = ZoneInfo(zone)
    anchor = datetime.combine(day, time(), tzinfo=local).astimezone(UTC)  # UTC arithmetic
    start = anchor + _offset(draw(st.integers(-2 * 1440, 1440)), draw(st.sampled_from((0, 0, 17))))
    length = draw(st.integers(1, 4 * 1440))
    query = SlotQuery(
        range=Span(start.astimezone(local), (start + _offset(length)).astimezone(local)),
        duration_minutes=draw(
            st.one_of(st.sampled_from((15, 30, 45, 60, 90)), st.integers(1, 240))
        ),
        time_zone=zone,
        weekly=_flatten(draw(st.lists(local_windows(day), max_size=3))),
        windows=_flatten(draw(st.lists(spans_near(anchor, 1440), max_size=2))),
        step_minutes=draw(
            st.one_of(st.none(), st.sampled_from(SMALL_STEPS), st.sampled_from(DIVISORS_OF_DAY))
        ),
        buffer_before_minutes=draw(st.sampled_from((0, 0, 5, 15, 30, 61))),
        buffer_after_minutes=draw(st.sampled_from((0, 0, 10, 15, 45))),
        minimum_notice_minutes=draw(st.sampled_from((0, 0, 60, 1440, 2000))),
        max_results=5000,
    )
    busy = list(_flatten(draw(st.lists(spans_near(anchor, 240), max_size=5))))
    now = start + _offset(draw(st.one_of(st.just(-5000), st.integers(-3 * 1440, 2 * 1440))))
    return query, busy, now


@st.composite
def transition_day_cases(draw: st.DrawFn) -> Case:
    """Weekly hours that start or end inside a DST gap or a repeated hour, on that very day."""
    zone = draw(st.sampled_from([name for name in TRANSITIONS if name != "UTC"]))
    day = draw(st.sampled_from(TRANSITIONS[zone]))
    local = ZoneInfo(zone)
    start = datetime.combine(day - timedelta(days=1), time(), tzinfo=local)
    minute = st.sampled_from((*INTERESTING_MINUTES, 1440))
    bounds = draw(st.lists(minute, min_size=2, max_size=2, unique=True).map(sorted))
    weekday = draw(st.sampled_from((day.isoweekday(), (day - timedelta(days=1)).isoweekday())))
    hours = LocalWindow(weekday=weekday, start=_time(bounds[0]) or time(), end=_time(bounds[1]))
    query = SlotQuery(
        range=Span(start, start + timedelta(days=3)),
        duration_minutes=draw(st.sampled_from((15, 30, 60))),
        time_zone=zone,
        weekly=(hours,),
        step_minutes=draw(st.sampled_from((5, 15, 30, 60))),
        max_results=5000,
    )
    return query, [], start - timedelta(days=1)


@SETTINGS
@given(transition_day_cases())
def test_engine_matches_reference_on_dst_days(case: Case) -> None:
    query, busy, now = case
    assert list(find_free_slots(query, busy, now).starts) == reference_free_slots(query, busy, now)


@SETTINGS
@given(cases())
def test_engine_matches_brute_force_reference(case: Case) -> None:
    query, busy, now = case
    expected = reference_free_slots(query, busy, now)
    result = find_free_slots(query, busy, now)
    assert list(result.starts) == expected[: query.max_results]
    assert result.truncated == (len(expected) > query.max_results)
    # The wire format is built from ``minutes``: the same instants, minute for minute.
    assert (
        result.minutes
        == tuple(int(start.timestamp()) // 60 for start in expected)[: query.max_results]
    )


@SETTINGS
@given(cases())
def test_results_are_sorted_unique_utc_and_on_the_local_grid(
    case: Case,
) -> None:
    query, busy, now = case
    starts = find_free_slots(query, busy, now).starts
    zone = ZoneInfo(query.time_zone)
    assert all(earlier < later for earlier, later in pairwise(starts))
    for start in starts:
        local = start.astimezone(zone)
        assert start.tzinfo is UTC
        assert (start.second, start.microsecond) == (0, 0)
        assert (local.hour * 60 + local.minute) % query.step == 0


@SETTINGS
@given(cases(), st.integers(1, 40))
def test_truncation_keeps_the_first_slots_and_says_so(case: Case, limit: int) -> None:
    query, busy, now = case
    everything = find_free_slots(query, busy, now)
    result = find_free_slots(replace(query, max_results=limit), busy, now)
    assert result.starts == everything.starts[:limit]
    assert result.truncated == (len(everything.starts) > limit)


@SETTINGS
@given(cases(), st.data())
def test_adding_busy_time_never_adds_slots(case: Case, data: st.DataObject) -> None:
    query, busy, now = case
    extra = _flatten(
        data.draw(st.lists(spans_near(query.range.start, 600), min_size=1, max_size=3))
    )
    before = set(find_free_slots(query, busy, now).starts)
    after = set(find_free_slots(query, [*busy, *extra], now).starts)
    assert after <= before


@SETTINGS
@given(cases(), st.integers(1, 3000))
def test_more_notice_never_adds_slots(case: Case, more: int) -> None:
    query, busy, now = case
    notice = min(query.minimum_notice_minutes + more, 527_040)
    before = set(find_free_slots(query, busy, now).starts)
    after = set(find_free_slots(replace(query, minimum_notice_minutes=notice), busy, now).starts)
    assert after <= before
    assert all(start >= now + timedelta(minutes=notice) for start in after)
