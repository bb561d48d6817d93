"""Property tests: a read by day keys finds exactly the busy time the overlap filter finds.

The local calendar used to read ``start < range end ∧ end > range start``; it now reads the
events whose ``busy_days`` share a key with the range's days, then clips and merges. These
tests select documents both ways in memory (the selection MongoDB makes) and compare the busy
time ``busy_of`` builds from each, for events crossing or ending exactly at UTC midnight,
multi-day events, ranges given in zones whose midnight is not UTC's, and touching bounds."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from calendar_service.infrastructure.local.day_keys import event_day_keys, read_keys, utc_days
from calendar_service.infrastructure.local.queries import busy_of
from tests.scale import size

BASE = datetime(2031, 3, 9, tzinfo=UTC)
CALENDARS = ("ana", "bia", "ana:2031-03-10")  # a colon in an id must not collide with a key
ZONES = ("UTC", "America/Sao_Paulo", "Asia/Kathmandu", "Australia/Lord_Howe", "Pacific/Kiritimati")
SETTINGS = settings(
    max_examples=size(80, 400),  # make test: 80 per property; RELIABILITY_SCALE=full: 400
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
MINUTE = 60_000


def _ms(value: datetime) -> int:
    return (value - datetime(1970, 1, 1, tzinfo=UTC)) // timedelta(milliseconds=1)


# Instants in milliseconds around BASE, often exactly on a UTC midnight or a minute off it.
offsets = st.one_of(
    st.integers(0, 6).map(lambda day: day * 1440 * MINUTE),
    st.integers(0, 6).flatmap(
        lambda day: st.sampled_from((-1, 1, -MINUTE, MINUTE)).map(
            lambda delta: day * 1440 * MINUTE + delta
        )
    ),
    st.integers(0, 7 * 1440 * MINUTE),
)
lengths = st.one_of(
    st.integers(1, 3 * 1440 * MINUTE),
    st.sampled_from((1, MINUTE, 30 * MINUTE, 1440 * MINUTE, 2 * 1440 * MINUTE)),
)


@st.composite
def events(draw: st.DrawFn) -> dict[str, Any]:
    start = _ms(BASE) + draw(offsets)
    end = draw(st.one_of(lengths.map(lambda length: start + length), st.just(None)))
    if end is None:  # end exactly at a UTC midnight after start
        end = (start // (1440 * MINUTE) + draw(st.integers(1, 3))) * 1440 * MINUTE
    calendar_id = draw(st.sampled_from(CALENDARS))
    return {"calendar_id": calendar_id, "start": start, "end": end}


@st.composite
def ranges(draw: st.DrawFn) -> tuple[datetime, datetime]:
    zone = ZoneInfo(draw(st.sampled_from(ZONES)))
    start = BASE + timedelta(milliseconds=draw(offsets))
    length = timedelta(milliseconds=draw(lengths))
    return start.astimezone(zone), (start + length).astimezone(zone)


def _instant(ms: int) -> datetime:
    return datetime(1970, 1, 1, tzinfo=UTC) + timedelta(milliseconds=ms)


def keyed(document: dict[str, Any]) -> list[str]:
    return event_day_keys(
        document["calendar_id"], _instant(document["start"]), _instant(document["end"])
    )


@SETTINGS
@given(st.lists(events(), max_size=30), ranges(), st.sets(st.sampled_from(CALENDARS), min_size=1))
def test_keyed_read_finds_the_busy_time_of_the_overlap_read(
    documents: list[dict[str, Any]], bounds: tuple[datetime, datetime], calendars: set[str]
) -> None:
    start, end = bounds
    wanted = set(read_keys(sorted(calendars), start, end))
    low, high = _ms(start), _ms(end)
    for calendar_id in calendars:
        mine = [document for document in documents if document["calendar_id"] == calendar_id]
        by_keys = [document for document in mine if wanted.intersection(keyed(document))]
        by_overlap = [d for d in mine if d["start"] < high and d["end"] > low]

        assert busy_of(by_keys, start, end) == busy_of(by_overlap, start, end)
        assert all(document in by_keys for document in by_overlap)


@SETTINGS
@given(events())
def test_an_event_is_keyed_on_exactly_the_utc_days_it_touches(document: dict[str, Any]) -> None:
    start, end = _instant(document["start"]), _instant(document["end"])
    days = utc_days(start, end)
    minutes = range(document["start"] // MINUTE, -(-document["end"] // MINUTE))
    touched = {_instant(minute * MINUTE).date() for minute in minutes}

    assert set(days) == touched
    assert len(keyed(document)) == len(days)
    assert all(key.startswith(document["calendar_id"] + ":") for key in keyed(document))


def test_an_event_ending_at_midnight_keeps_only_its_own_day() -> None:
    start = BASE + timedelta(hours=23)

    assert event_day_keys("ana", start, BASE + timedelta(days=1)) == ["ana:2031-03-09"]
    assert event_day_keys("ana", start, start) == []
