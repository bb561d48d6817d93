"""Every invalid slot-query field is rejected with ``InvalidSlotQueryError`` naming it."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, time, timedelta
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from calendar_service.domain.slots import (
    MAX_RANGE_DAYS,
    InvalidSlotQueryError,
    LocalWindow,
    SlotQuery,
    Span,
    find_free_slots,
    free_slots_of,
    validate_query,
)

START = datetime(2026, 1, 5, tzinfo=UTC)
VALID = SlotQuery(range=Span(START, START + timedelta(days=7)), duration_minutes=30)
NOW = datetime(2026, 1, 1, tzinfo=UTC)
HYPOTHESIS = settings(max_examples=150, deadline=None, derandomize=True)


def forged_span(start: datetime, end: datetime) -> Span:
    """A span that skipped ``__post_init__`` (e.g. built by a careless mapper)."""
    span = object.__new__(Span)
    object.__setattr__(span, "start", start)
    object.__setattr__(span, "end", end)
    return span


def assert_rejected(field: str, **changes: Any) -> None:
    query = replace(VALID, **changes)
    with pytest.raises(InvalidSlotQueryError) as caught:
        validate_query(query)
    assert caught.value.field == field
    assert str(caught.value) == caught.value.message
    with pytest.raises(InvalidSlotQueryError):
        find_free_slots(query, [], NOW)


def test_a_valid_query_passes() -> None:
    validate_query(VALID)
    assert len(find_free_slots(VALID, [], NOW).starts) == 7 * 48


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("duration_minutes", 0),
        ("duration_minutes", 1441),
        ("duration_minutes", True),
        ("step_minutes", 0),
        ("step_minutes", 1441),
        ("step_minutes", 7),
        ("buffer_before_minutes", -1),
        ("buffer_before_minutes", 1441),
        ("buffer_after_minutes", -1),
        ("buffer_after_minutes", 1441),
        ("minimum_notice_minutes", -1),
        ("minimum_notice_minutes", 527_041),
        ("max_results", 0),
        ("max_results", 5001),
        ("time_zone", ""),
        ("time_zone", "Mars/Olympus_Mons"),
        ("time_zone", "America"),
        ("time_zone", "../etc/passwd"),
        ("time_zone", "/etc/localtime"),
        ("time_zone", "utc"),
    ],
)
def test_out_of_range_fields_are_named(field: str, value: object) -> None:
    assert_rejected(field, **{field: value})


@pytest.mark.parametrize(
    "span",
    [
        pytest.param(Span(START, START + timedelta(days=MAX_RANGE_DAYS, minutes=1)), id="too-long"),
        pytest.param(forged_span(START, START), id="empty"),
        pytest.param(forged_span(START.replace(tzinfo=None), START + timedelta(1)), id="naive"),
        pytest.param(
            Span(datetime(1, 1, 1, tzinfo=UTC), datetime(1, 1, 2, tzinfo=UTC)), id="year-one"
        ),
    ],
)
def test_bad_ranges_are_rejected(span: Span) -> None:
    assert_rejected("range", range=span)


def test_range_of_exactly_the_maximum_is_accepted() -> None:
    validate_query(replace(VALID, range=Span(START, START + timedelta(days=MAX_RANGE_DAYS))))


@pytest.mark.parametrize(
    "window",
    [
        LocalWindow(weekday=0, start=time(9), end=time(17)),
        LocalWindow(weekday=8, start=time(9), end=time(17)),
        LocalWindow(weekday=1, start=time(17), end=time(9)),
        LocalWindow(weekday=1, start=time(9), end=time(9)),
        LocalWindow(weekday=1, start=time(9, tzinfo=UTC), end=time(17)),
    ],
)
def test_bad_weekly_hours_are_rejected(window: LocalWindow) -> None:
    assert_rejected("weekly", weekly=(window,))


def test_bad_absolute_windows_are_rejected() -> None:
    assert_rejected("windows", windows=(forged_span(START + timedelta(1), START),))


def test_now_must_be_aware() -> None:
    with pytest.raises(InvalidSlotQueryError) as caught:
        find_free_slots(VALID, [], datetime(2026, 1, 1))
    assert caught.value.field == "now"


@pytest.mark.parametrize(
    ("start", "end"),
    [
        (START, START),
        (START + timedelta(1), START),
        (datetime(2026, 1, 5), datetime(2026, 1, 6)),
    ],
)
def test_spans_refuse_empty_or_naive_intervals(start: datetime, end: datetime) -> None:
    with pytest.raises(ValueError, match="span"):
        Span(start, end)


@HYPOTHESIS
@given(st.integers(1, 1440).filter(lambda step: 1440 % step != 0))
def test_steps_that_do_not_divide_a_day_are_rejected(step: int) -> None:
    assert_rejected("step_minutes", step_minutes=step)


@HYPOTHESIS
@given(st.sampled_from([step for step in range(1, 1441) if 1440 % step == 0]))
def test_steps_that_divide_a_day_are_accepted(step: int) -> None:
    validate_query(replace(VALID, step_minutes=step))


@HYPOTHESIS
@given(
    st.sampled_from(["duration_minutes", "buffer_before_minutes", "max_results"]),
    st.one_of(st.integers(max_value=-1), st.integers(min_value=5001)),
)
def test_integers_far_outside_their_limits_are_rejected(field: str, value: int) -> None:
    assert_rejected(field, **{field: value})


@HYPOTHESIS
@given(st.text(max_size=20).map(str.lower).filter(lambda key: key != "posixrules"))
def test_random_lowercase_text_is_not_a_time_zone(key: str) -> None:
    """IANA keys are case-sensitive and start upper-case ("utc" and "" are rejected too)."""
    assert_rejected("time_zone", time_zone=key)


def test_busy_microseconds_of_no_length_are_never_busy() -> None:
    """``free_slots_of`` (the engine on microseconds, as the service calls it) takes what
    ``find_free_slots`` takes from spans, and an empty or reversed interval blocks nothing."""
    hour = Span(START + timedelta(hours=1), START + timedelta(hours=2))
    low, high = hour.micros

    assert free_slots_of(VALID, [hour.micros], NOW) == find_free_slots(VALID, [hour], NOW)
    assert free_slots_of(VALID, [(low, low), (high, low)], NOW) == find_free_slots(VALID, [], NOW)
