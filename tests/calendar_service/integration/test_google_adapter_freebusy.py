"""freeBusy through the adapter: batches of ≤ 50 calendars, windows of ≤ 60 days, merging."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from agenda_kit.calendar.errors import (
    CalendarAccessDeniedError,
    InvalidCalendarRequestError,
)
from agenda_kit.calendar.port import FreeBusyError, Interval
from calendar_service.infrastructure.google import GoogleCalendarAdapter
from tests.fakes.google_calendar import Emulator
from tests.fakes.google_faults import Fault
from tests.fakes.google_fixtures import CALENDAR_ID, AdapterFactory

T0 = datetime(2031, 1, 1, tzinfo=UTC)


def busy(emulator: Emulator, calendar_id: str, start: datetime, hours: float) -> None:
    end = start + timedelta(hours=hours)
    emulator.state.insert(
        calendar_id,
        {"start": {"dateTime": start.isoformat()}, "end": {"dateTime": end.isoformat()}},
    )


async def test_120_calendars_take_3_requests_in_request_order(
    adapter: GoogleCalendarAdapter, emulator: Emulator
) -> None:
    ids = [f"pro-{i:03d}@agenda.test" for i in range(120)]
    for i, calendar_id in enumerate(ids):
        emulator.state.add_calendar(calendar_id)
        busy(emulator, calendar_id, T0 + timedelta(hours=i), 1)

    result = await adapter.query_free_busy(ids, T0, T0 + timedelta(days=7))

    assert emulator.faults.count("freeBusy") == 3
    assert [fb.calendar_id for fb in result] == ids
    assert all(fb.error is None for fb in result)
    assert [fb.busy[0].start for fb in result] == [T0 + timedelta(hours=i) for i in range(120)]


async def test_150_days_take_3_windows_and_straddling_busy_is_joined(
    adapter: GoogleCalendarAdapter, emulator: Emulator
) -> None:
    boundary = T0 + timedelta(days=60)
    busy(emulator, CALENDAR_ID, boundary - timedelta(hours=1), 2)
    busy(emulator, CALENDAR_ID, T0 + timedelta(days=140), 1)

    (result,) = await adapter.query_free_busy([CALENDAR_ID], T0, T0 + timedelta(days=150))

    assert emulator.faults.count("freeBusy") == 3
    assert result.busy == (
        Interval(boundary - timedelta(hours=1), boundary + timedelta(hours=1)),
        Interval(T0 + timedelta(days=140), T0 + timedelta(days=140, hours=1)),
    )


async def test_requests_run_concurrently_but_bounded(
    make_adapter: AdapterFactory, emulator: Emulator
) -> None:
    adapter = await make_adapter(freebusy_concurrency=4)
    emulator.faults.latency = 0.05
    ids = [f"c{i}@agenda.test" for i in range(150)]
    emulator.state.allow_any_calendar = True

    result = await adapter.query_free_busy(ids, T0, T0 + timedelta(days=150))

    assert len(result) == 150
    assert emulator.faults.count("freeBusy") == 9
    assert emulator.faults.peak_in_flight["freeBusy"] == 4


async def test_unknown_calendars_report_an_error_and_busy_is_clipped(
    adapter: GoogleCalendarAdapter, emulator: Emulator
) -> None:
    busy(emulator, CALENDAR_ID, T0 - timedelta(hours=1), 2)

    result = await adapter.query_free_busy(
        ["ghost@agenda.test", CALENDAR_ID, "ghost@agenda.test"], T0, T0 + timedelta(days=1)
    )

    assert [(fb.calendar_id, fb.error) for fb in result] == [
        ("ghost@agenda.test", FreeBusyError.NOT_FOUND),
        (CALENDAR_ID, None),
        ("ghost@agenda.test", FreeBusyError.NOT_FOUND),
    ]
    assert result[1].busy == (Interval(T0, T0 + timedelta(hours=1)),)
    assert emulator.faults.count("freeBusy") == 1


async def test_one_failing_batch_is_retried_alone(
    adapter: GoogleCalendarAdapter, emulator: Emulator
) -> None:
    emulator.faults.fail_next("freeBusy", Fault.error(503, "backendError"))

    (result,) = await adapter.query_free_busy([CALENDAR_ID], T0, T0 + timedelta(days=90))

    assert result.busy == ()
    assert emulator.faults.count("freeBusy") == 3


async def test_a_permanent_failure_of_one_batch_fails_the_query(
    adapter: GoogleCalendarAdapter, emulator: Emulator
) -> None:
    emulator.faults.fail_next("freeBusy", Fault.error(403, "forbidden"))

    with pytest.raises(CalendarAccessDeniedError):
        await adapter.query_free_busy([CALENDAR_ID], T0, T0 + timedelta(days=150))

    assert emulator.faults.count("freeBusy") <= 3


async def test_free_slots_come_from_google_busy_time(
    adapter: GoogleCalendarAdapter, emulator: Emulator
) -> None:
    busy(emulator, CALENDAR_ID, T0 + timedelta(hours=1), 1)

    slots = await adapter.get_free_slots(CALENDAR_ID, T0, T0 + timedelta(hours=3), 60)

    assert slots == [T0, T0 + timedelta(hours=2)]


async def test_bad_ranges_are_rejected_before_calling_google(
    adapter: GoogleCalendarAdapter, emulator: Emulator
) -> None:
    with pytest.raises(InvalidCalendarRequestError):
        await adapter.query_free_busy([CALENDAR_ID], T0, T0)
    assert emulator.faults.count("freeBusy") == 0
    assert await adapter.query_free_busy([], T0, T0 + timedelta(days=1)) == []
