"""Which Google failures the adapter retries, and how retries stay inside the deadline."""

from __future__ import annotations

import asyncio
import time
from datetime import UTC, datetime, timedelta

import pytest
from structlog.testing import capture_logs

from agenda_kit.calendar.errors import (
    CalendarAccessDeniedError,
    CalendarError,
    CalendarNotFoundError,
    CalendarQuotaError,
    CalendarUnavailableError,
    EventNotFoundError,
    InvalidCalendarRequestError,
)
from agenda_kit.calendar.port import EventDraft
from agenda_kit.deadline import deadline_after
from calendar_service.infrastructure.google import GoogleCalendarAdapter
from tests.fakes.google_calendar import Emulator
from tests.fakes.google_faults import Fault
from tests.fakes.google_fixtures import CALENDAR_ID, AdapterFactory
from tests.waiting import until

T0 = datetime(2031, 5, 5, 12, 0, tzinfo=UTC)
INSERT = "events.insert"


def draft(key: str = "retry-key") -> EventDraft:
    return EventDraft(
        calendar_id=CALENDAR_ID,
        summary="Consulta",
        description="",
        start=T0,
        end=T0 + timedelta(minutes=45),
        idempotency_key=key,
    )


@pytest.mark.parametrize(
    ("status", "reason"),
    [
        (429, "rateLimitExceeded"),
        (503, "backendError"),
        (500, "backendError"),
        (403, "rateLimitExceeded"),
        (403, "userRateLimitExceeded"),
    ],
)
async def test_transient_errors_are_retried_then_succeed(
    adapter: GoogleCalendarAdapter, emulator: Emulator, status: int, reason: str
) -> None:
    emulator.faults.fail_next(INSERT, Fault.error(status, reason), times=2)

    _, created = await adapter.insert_event(draft())

    assert created
    assert emulator.faults.count(INSERT) == 3
    assert emulator.state.events_per_key() == {"retry-key": 1}


@pytest.mark.parametrize(
    ("status", "reason", "expected"),
    [
        (400, "invalid", InvalidCalendarRequestError),
        (403, "forbidden", CalendarAccessDeniedError),
        (404, "notFound", CalendarNotFoundError),
    ],
)
async def test_permanent_errors_are_not_retried(
    adapter: GoogleCalendarAdapter,
    emulator: Emulator,
    status: int,
    reason: str,
    expected: type[CalendarError],
) -> None:
    emulator.faults.fail_next(INSERT, Fault.error(status, reason), times=3)

    with pytest.raises(expected):
        await adapter.insert_event(draft())

    assert emulator.faults.count(INSERT) == 1


async def test_404_on_an_event_is_event_not_found_and_not_retried(
    adapter: GoogleCalendarAdapter, emulator: Emulator
) -> None:
    with pytest.raises(EventNotFoundError):
        await adapter.get_event(CALENDAR_ID, "missingevent1")
    assert emulator.faults.count("events.get") == 1


async def test_409_is_not_retried_but_resolved_by_reading_the_event(
    adapter: GoogleCalendarAdapter, emulator: Emulator
) -> None:
    await adapter.insert_event(draft())
    emulator.faults.calls.clear()

    _, created = await adapter.insert_event(draft())

    assert not created
    assert emulator.faults.counts() == {INSERT: 1, "events.get": 1}


@pytest.mark.parametrize(
    ("fault", "expected"),
    [
        (Fault.error(503, "backendError"), CalendarUnavailableError),
        (Fault.error(500, "backendError"), CalendarUnavailableError),
        (Fault.error(429, "rateLimitExceeded"), CalendarQuotaError),
        (Fault.error(403, "userRateLimitExceeded"), CalendarQuotaError),
        (Fault.connection_reset(), CalendarUnavailableError),
    ],
)
async def test_exhausted_retries_translate_to_calendar_errors(
    adapter: GoogleCalendarAdapter,
    emulator: Emulator,
    fault: Fault,
    expected: type[CalendarError],
) -> None:
    emulator.faults.fail_always(INSERT, fault)

    with pytest.raises(expected) as caught:
        await adapter.insert_event(draft())

    assert emulator.faults.count(INSERT) == 5  # below the quota gate's threshold (8)
    assert str(caught.value)  # a readable message, never an empty one
    assert (caught.value.retry_after or 0) > 0


async def test_unavailable_message_is_english_and_product_neutral(
    adapter: GoogleCalendarAdapter, emulator: Emulator
) -> None:
    emulator.faults.fail_always(INSERT, Fault.error(503, "backendError"))
    with pytest.raises(CalendarUnavailableError, match="temporarily unavailable"):
        await adapter.insert_event(draft())


async def test_connection_resets_are_retried(
    adapter: GoogleCalendarAdapter, emulator: Emulator
) -> None:
    emulator.faults.fail_next(INSERT, Fault.connection_reset(), times=2)
    emulator.faults.fail_next("freeBusy", Fault.connection_reset(), times=2)

    _, created = await adapter.insert_event(draft())
    (free_busy,) = await adapter.query_free_busy([CALENDAR_ID], T0, T0 + timedelta(days=1))

    assert created
    assert len(free_busy.busy) == 1
    assert emulator.faults.count(INSERT) == 3
    assert emulator.faults.count("freeBusy") == 3


async def test_a_lost_response_after_the_insert_returns_the_single_stored_event(
    adapter: GoogleCalendarAdapter, emulator: Emulator
) -> None:
    emulator.faults.fail_next(INSERT, Fault.store_then_drop())

    event, created = await adapter.insert_event(draft("dropped"))

    assert event.idempotency_key == "dropped"
    assert not created  # the retry found the event the lost attempt stored
    assert emulator.state.events_per_key() == {"dropped": 1}
    assert emulator.faults.counts() == {"token": 1, INSERT: 2, "events.get": 1}


async def test_a_slow_attempt_times_out_and_is_retried(
    make_adapter: AdapterFactory, emulator: Emulator
) -> None:
    adapter = await make_adapter(request_timeout=0.2)
    emulator.faults.fail_next(INSERT, Fault.slow(1.0))

    event, _ = await adapter.insert_event(draft())

    assert event.idempotency_key == "retry-key"
    assert emulator.faults.count(INSERT) == 2  # the slow attempt timed out; the retry stored it
    await until(  # the slow attempt lands late (409 inside the emulator): wait for exactly that
        lambda: emulator.faults.in_flight[INSERT] == 0, what="the slow attempt's answer"
    )
    assert emulator.state.events_per_key() == {"retry-key": 1}


async def test_all_attempts_slow_gives_unavailable_within_the_budget(
    make_adapter: AdapterFactory, emulator: Emulator
) -> None:
    adapter = await make_adapter(request_timeout=0.3, default_budget=1.0, max_attempts=50)
    emulator.faults.fail_always(INSERT, Fault.slow(10.0))

    started = time.monotonic()
    with pytest.raises(CalendarUnavailableError):
        await adapter.insert_event(draft())

    # Each attempt is cut at 0.3 s and none starts past the 1 s budget: at most 4, and the
    # caller never waits a 10 s attempt out (a bound for a hang, not a timing margin).
    assert 2 <= emulator.faults.count(INSERT) <= 4
    assert time.monotonic() - started < 10.0


async def test_deadline_bounds_the_whole_retry_budget_and_no_write_starts_after_it(
    make_adapter: AdapterFactory, emulator: Emulator
) -> None:
    adapter = await make_adapter(
        max_attempts=100, default_budget=30.0, backoff_initial=0.02, backoff_max=0.08
    )
    emulator.faults.fail_always("*", Fault.error(503, "backendError"))

    started = time.monotonic()
    with deadline_after(0.5), pytest.raises(CalendarUnavailableError):
        await adapter.insert_event(draft())
    returned = time.monotonic()

    # The 0.5 s deadline, not the 30 s budget, ended the retries (a bound for a hang, not a
    # margin); where an attempt may start is checked at the boundary by the expired-deadline
    # test below, without timing.
    assert returned - started < 15.0
    inserts = [call for call in emulator.faults.calls if call.route == INSERT]
    assert len(inserts) >= 3
    calls = len(emulator.faults.calls)
    await asyncio.sleep(0.2)  # nothing more arrives once the call has returned
    assert len(emulator.faults.calls) == calls


async def test_an_expired_deadline_starts_no_attempt(
    adapter: GoogleCalendarAdapter, emulator: Emulator
) -> None:
    with deadline_after(0.01):
        await asyncio.sleep(0.02)
        with pytest.raises(CalendarUnavailableError):
            await adapter.insert_event(draft())
    assert emulator.faults.count(INSERT) == 0


async def test_retries_are_logged_with_reason_and_attempt_but_no_token(
    adapter: GoogleCalendarAdapter, emulator: Emulator
) -> None:
    emulator.faults.fail_next(INSERT, Fault.error(429, "rateLimitExceeded"))

    with capture_logs() as logs:
        await adapter.insert_event(draft())

    retries = [entry for entry in logs if entry["event"] == "google_calendar.retry"]
    assert [(r["attempt"], r["reason"]) for r in retries] == [(1, "429 rateLimitExceeded")]
    issued = list(emulator.oauth.tokens)
    assert issued
    assert not any(token in repr(logs) for token in issued)
    assert "PRIVATE KEY" not in repr(logs)


@pytest.mark.parametrize("as_date", [False, True], ids=["seconds", "http-date"])
async def test_a_retry_after_is_kept_in_either_of_its_two_forms(
    adapter: GoogleCalendarAdapter, emulator: Emulator, as_date: bool
) -> None:
    """RFC 9110 lets ``Retry-After`` be delta-seconds or an HTTP date; the date form was read
    as no hint at all (the caller was told the default second while Google said 9)."""
    fault = Fault.error(503, "backendError", retry_after=9, as_date=as_date)
    emulator.faults.fail_always(INSERT, fault)

    with pytest.raises(CalendarUnavailableError) as caught:
        await adapter.insert_event(draft())

    assert caught.value.retry_after == 9.0
