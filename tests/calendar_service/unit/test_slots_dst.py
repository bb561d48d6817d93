"""Named slot-engine cases with exact expected instants: DST days first, then everyday rules."""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest

from calendar_service.domain.slots import LocalWindow, SlotQuery, SlotResult, Span, find_free_slots
from tests.calendar_service.unit.slot_reference import reference_free_slots

LONG_AGO = datetime(1970, 1, 1, tzinfo=UTC)
MONDAY = datetime(2026, 1, 5, tzinfo=UTC)  # an ordinary winter Monday


def utc(year: int, month: int, day: int, hour: int = 0, minute: int = 0) -> datetime:
    return datetime(year, month, day, hour, minute, tzinfo=UTC)


def every(first: datetime, count: int, minutes: int) -> list[datetime]:
    """``count`` instants ``minutes`` apart from ``first``."""
    return [first + timedelta(minutes=minutes * index) for index in range(count)]


def hours(weekday: int, start: time, end: time | None) -> LocalWindow:
    return LocalWindow(weekday=weekday, start=start, end=end)


def weekly_slots(
    zone: str, day: datetime, window: LocalWindow, duration: int, step: int
) -> tuple[datetime, ...]:
    """Slots of one weekly window over the three local days around ``day``."""
    local = day.replace(tzinfo=ZoneInfo(zone))
    query = SlotQuery(
        range=Span(local - timedelta(days=1), local + timedelta(days=2)),
        duration_minutes=duration,
        time_zone=zone,
        weekly=(window,),
        step_minutes=step,
    )
    return find_free_slots(query, [], LONG_AGO).starts


def utc_day(
    start: datetime,
    end: datetime,
    duration: int,
    busy: tuple[Span, ...] = (),
    *,
    step_minutes: int | None = None,
    buffer_before_minutes: int = 0,
    buffer_after_minutes: int = 0,
    max_results: int = 500,
) -> SlotResult:
    """Slots in a UTC range with no windows and ``now`` long ago."""
    query = SlotQuery(
        range=Span(start, end),
        duration_minutes=duration,
        step_minutes=step_minutes,
        buffer_before_minutes=buffer_before_minutes,
        buffer_after_minutes=buffer_after_minutes,
        max_results=max_results,
    )
    return find_free_slots(query, busy, LONG_AGO)


SUNDAY_1_TO_4 = hours(7, time(1), time(4))


@pytest.mark.parametrize(
    ("zone", "day", "window", "duration", "step", "expected"),
    [
        pytest.param(
            "America/New_York", datetime(2026, 3, 8), SUNDAY_1_TO_4, 60, 60,
            [utc(2026, 3, 8, 6), utc(2026, 3, 8, 7)],
            id="new-york-spring-forward-hourly: 01:00 EST, 03:00 EDT",
        ),
        pytest.param(
            "America/New_York", datetime(2026, 3, 8), SUNDAY_1_TO_4, 30, 30,
            every(utc(2026, 3, 8, 6), 4, 30),
            id="new-york-spring-forward-half-hourly",
        ),
        pytest.param(
            "America/New_York", datetime(2026, 3, 8), hours(7, time(2, 30), time(4)), 30, 30,
            [utc(2026, 3, 8, 7), utc(2026, 3, 8, 7, 30)],
            id="new-york-start-inside-gap-begins-at-03:00-EDT",
        ),
        pytest.param(
            "America/New_York", datetime(2026, 11, 1), SUNDAY_1_TO_4, 60, 60,
            every(utc(2026, 11, 1, 5), 4, 60),
            id="new-york-fall-back-hourly: both 01:00s",
        ),
        pytest.param(
            "America/New_York", datetime(2026, 11, 1), SUNDAY_1_TO_4, 30, 30,
            every(utc(2026, 11, 1, 5), 8, 30),
            id="new-york-fall-back-half-hourly",
        ),
        pytest.param(
            "America/New_York", datetime(2026, 11, 1), hours(7, time(0), time(1, 30)), 30, 30,
            every(utc(2026, 11, 1, 4), 5, 30),
            id="new-york-ambiguous-end-is-second-01:30",
        ),
        pytest.param(
            "Europe/Lisbon", datetime(2026, 3, 29), hours(7, time(0), time(3)), 60, 60,
            [utc(2026, 3, 29, 0), utc(2026, 3, 29, 1)],
            id="lisbon-spring-forward: 00:00 WET, 02:00 WEST",
        ),
        pytest.param(
            "Europe/Lisbon", datetime(2026, 10, 25), hours(7, time(0), time(3)), 60, 60,
            every(utc(2026, 10, 24, 23), 4, 60),
            id="lisbon-fall-back: 00:00, 01:00 WEST, 01:00 WET, 02:00 WET",
        ),
        pytest.param(
            "America/Sao_Paulo", datetime(2018, 11, 4), hours(7, time(0), time(3)), 60, 60,
            [utc(2018, 11, 4, 3), utc(2018, 11, 4, 4)],
            id="sao-paulo-2018-midnight-gap-starts-at-01:00",
        ),
        pytest.param(
            "America/Sao_Paulo", datetime(2019, 11, 3), hours(7, time(0), time(3)), 60, 60,
            [utc(2019, 11, 3, 3), utc(2019, 11, 3, 4), utc(2019, 11, 3, 5)],
            id="sao-paulo-2019-no-dst-ordinary-day",
        ),
    ],
)  # fmt: skip
def test_weekly_hours_across_offset_changes(
    zone: str,
    day: datetime,
    window: LocalWindow,
    duration: int,
    step: int,
    expected: list[datetime],
) -> None:
    assert list(weekly_slots(zone, day, window, duration, step)) == expected


def test_sao_paulo_saturday_evening_runs_into_the_midnight_gap() -> None:
    """Saturday 22:00-24:00 ends where Sunday's 01:00 begins, so the two windows merge."""
    windows = (hours(6, time(22), None), hours(7, time(0), time(2)))
    local = datetime(2018, 11, 3, tzinfo=ZoneInfo("America/Sao_Paulo"))
    query = SlotQuery(
        range=Span(local, local + timedelta(days=2)),
        duration_minutes=120,
        time_zone="America/Sao_Paulo",
        weekly=windows,
        step_minutes=60,
    )
    starts = find_free_slots(query, [], LONG_AGO).starts
    assert starts == (utc(2018, 11, 4, 1), utc(2018, 11, 4, 2))  # 22:00 and 23:00 Saturday


def test_two_offset_changes_in_one_range_both_move_the_grid() -> None:
    """Casablanca leaves +01 for Ramadan and returns; local even hours follow both changes."""
    zone = ZoneInfo("Africa/Casablanca")
    query = SlotQuery(
        range=Span(datetime(2026, 2, 1, tzinfo=zone), datetime(2026, 4, 15, tzinfo=zone)),
        duration_minutes=60,
        time_zone="Africa/Casablanca",
        step_minutes=120,
        max_results=5000,
    )
    starts = find_free_slots(query, [], LONG_AGO).starts
    assert {utc(2026, 2, 15, 1), utc(2026, 2, 15, 2)} <= set(starts)
    assert {utc(2026, 3, 22, 0), utc(2026, 3, 22, 3)} <= set(starts)
    assert not {utc(2026, 3, 22, 1), utc(2026, 3, 22, 2)} & set(starts)
    assert list(starts) == reference_free_slots(query, [], LONG_AGO)


@pytest.mark.parametrize(
    ("before", "after", "expected_minutes"),
    [(15, 15, [0, 120, 150]), (0, 30, [0, 90, 120, 150]), (30, 0, [0, 30, 120, 150])],
)
def test_buffers_keep_slots_away_from_busy_time(
    before: int, after: int, expected_minutes: list[int]
) -> None:
    """Busy 10:00-10:30 widened by buffer_after before it and buffer_before after it."""
    busy = (Span(MONDAY.replace(hour=10), MONDAY.replace(hour=10, minute=30)),)
    result = utc_day(
        MONDAY.replace(hour=9),
        MONDAY.replace(hour=12),
        30,
        busy,
        step_minutes=30,
        buffer_before_minutes=before,
        buffer_after_minutes=after,
    )
    assert result.starts == tuple(
        MONDAY.replace(hour=9) + timedelta(minutes=m) for m in expected_minutes
    )


def test_buffers_do_not_apply_at_window_edges() -> None:
    window = Span(MONDAY.replace(hour=9), MONDAY.replace(hour=10))
    query = SlotQuery(
        range=Span(MONDAY, MONDAY + timedelta(days=1)),
        duration_minutes=60,
        windows=(window,),
        buffer_before_minutes=30,
        buffer_after_minutes=30,
    )
    assert find_free_slots(query, [], LONG_AGO).starts == (MONDAY.replace(hour=9),)


def test_busy_time_touching_a_slot_does_not_block_it() -> None:
    busy = (Span(MONDAY.replace(hour=10), MONDAY.replace(hour=11)),)
    result = utc_day(MONDAY.replace(hour=9), MONDAY.replace(hour=12), 60, busy)
    assert result.starts == (MONDAY.replace(hour=9), MONDAY.replace(hour=11))


def test_minimum_notice_counts_from_now() -> None:
    query = SlotQuery(
        range=Span(MONDAY.replace(hour=9), MONDAY.replace(hour=12)),
        duration_minutes=30,
        step_minutes=30,
        minimum_notice_minutes=60,
    )
    starts = find_free_slots(query, [], MONDAY.replace(hour=9, minute=10)).starts
    assert starts == tuple(
        MONDAY.replace(hour=h, minute=m) for h, m in [(10, 30), (11, 0), (11, 30)]
    )


@pytest.mark.parametrize(
    ("zone", "expected"),
    [("Asia/Kolkata", [(0, 30), (1, 30)]), ("Asia/Kathmandu", [(0, 15), (1, 15)])],
)
def test_steps_snap_to_the_local_hour_in_offset_zones(
    zone: str, expected: list[tuple[int, int]]
) -> None:
    """+05:30 and +05:45: whole local hours are not whole UTC hours."""
    query = SlotQuery(
        range=Span(MONDAY, MONDAY.replace(hour=3)), duration_minutes=60, time_zone=zone
    )
    starts = find_free_slots(query, [], LONG_AGO).starts
    assert starts == tuple(MONDAY.replace(hour=h, minute=m) for h, m in expected)


def test_default_step_is_fifteen_when_the_duration_does_not_divide_a_day() -> None:
    result = utc_day(MONDAY.replace(hour=9), MONDAY.replace(hour=10, minute=30), 50)
    assert result.starts == tuple(MONDAY.replace(hour=9, minute=m) for m in (0, 15, 30))


def test_unaligned_range_start_rounds_up_to_the_grid() -> None:
    start = MONDAY.replace(hour=9, minute=7, second=30)
    result = utc_day(start, MONDAY.replace(hour=11), 30)
    assert result.starts == tuple(
        MONDAY.replace(hour=h, minute=m) for h, m in [(9, 30), (10, 0), (10, 30)]
    )


@pytest.mark.parametrize(("limit", "truncated"), [(5, True), (23, True), (24, False), (25, False)])
def test_truncation_flag(limit: int, truncated: bool) -> None:
    result = utc_day(MONDAY, MONDAY + timedelta(days=1), 60, max_results=limit)
    assert result.starts == tuple(MONDAY.replace(hour=h) for h in range(min(limit, 24)))
    assert result.truncated is truncated


def test_touching_windows_merge_but_a_one_minute_hole_splits_them() -> None:
    def slots(second_start: datetime) -> tuple[datetime, ...]:
        windows = (
            Span(MONDAY.replace(hour=9), MONDAY.replace(hour=10)),
            Span(second_start, MONDAY.replace(hour=11)),
        )
        query = SlotQuery(
            range=Span(MONDAY, MONDAY + timedelta(days=1)),
            duration_minutes=120,
            step_minutes=60,
            windows=windows,
        )
        return find_free_slots(query, [], LONG_AGO).starts

    assert slots(MONDAY.replace(hour=10)) == (MONDAY.replace(hour=9),)
    assert slots(MONDAY.replace(hour=10, minute=1)) == ()


def test_weekly_windows_touching_across_midnight_merge() -> None:
    windows = (hours(1, time(22), None), hours(2, time(0), time(2)))
    query = SlotQuery(
        range=Span(MONDAY, MONDAY + timedelta(days=2)),
        duration_minutes=180,
        weekly=windows,
        step_minutes=60,
    )
    starts = find_free_slots(query, [], LONG_AGO).starts
    assert starts == (MONDAY.replace(hour=22), MONDAY.replace(hour=23))


def test_weekly_and_absolute_windows_are_united() -> None:
    query = SlotQuery(
        range=Span(MONDAY, MONDAY + timedelta(days=1)),
        duration_minutes=60,
        weekly=(hours(1, time(9), time(10)),),
        windows=(Span(MONDAY.replace(hour=14), MONDAY.replace(hour=15)),),
    )
    starts = find_free_slots(query, [], LONG_AGO).starts
    assert starts == (MONDAY.replace(hour=9), MONDAY.replace(hour=14))


def test_inputs_in_other_zones_are_instants() -> None:
    new_york = ZoneInfo("America/New_York")
    busy = (
        Span(datetime(2026, 1, 5, 4, tzinfo=new_york), datetime(2026, 1, 5, 5, tzinfo=new_york)),
    )
    result = utc_day(MONDAY.replace(hour=8), MONDAY.replace(hour=11), 60, busy)
    assert result.starts == (MONDAY.replace(hour=8), MONDAY.replace(hour=10))


@pytest.mark.parametrize(
    "busy",
    [
        pytest.param((Span(MONDAY, MONDAY + timedelta(days=1)),), id="all-busy"),
        pytest.param((), id="range-shorter-than-duration"),
    ],
)
def test_no_slots(busy: tuple[Span, ...]) -> None:
    result = utc_day(MONDAY.replace(hour=9), MONDAY.replace(hour=9, minute=45), 60, busy)
    assert result == SlotResult(minutes=(), truncated=False)
    assert result.starts == ()
