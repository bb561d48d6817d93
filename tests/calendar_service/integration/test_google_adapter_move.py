"""GoogleCalendarAdapter.move_event against the emulator: ``events.patch`` keeps the id."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest

from agenda_kit.calendar.errors import EventNotFoundError, InvalidCalendarRequestError
from agenda_kit.calendar.port import EventDraft
from calendar_service.infrastructure.google import GoogleCalendarAdapter
from tests.fakes.google_calendar import Emulator
from tests.fakes.google_faults import Fault
from tests.fakes.google_fixtures import CALENDAR_ID

T0 = datetime(2031, 3, 10, 13, 0, tzinfo=UTC)
LATER = T0 + timedelta(hours=3)


def draft(key: str) -> EventDraft:
    return EventDraft(
        calendar_id=CALENDAR_ID,
        summary="Corte de cabelo",
        description=f"key {key}",
        start=T0,
        end=T0 + timedelta(minutes=30),
        idempotency_key=key,
        time_zone="America/Sao_Paulo",
    )


def busy(emulator: Emulator) -> list[tuple[datetime, datetime]]:
    return [(e.start, e.end) for e in emulator.state.events(CALENDAR_ID) if not e.cancelled]


async def test_move_patches_the_times_and_keeps_id_zone_and_key(
    adapter: GoogleCalendarAdapter, emulator: Emulator
) -> None:
    event, _ = await adapter.insert_event(draft("m-1"))

    moved = await adapter.move_event(CALENDAR_ID, event.event_id, LATER, LATER + timedelta(hours=1))

    assert moved.event_id == event.event_id
    assert (moved.start, moved.end) == (LATER, LATER + timedelta(hours=1))
    assert moved.time_zone == "America/Sao_Paulo"  # read first, then written back
    assert moved.idempotency_key == "m-1"
    assert busy(emulator) == [(LATER, LATER + timedelta(hours=1))]
    assert emulator.faults.count("events.patch") == 1
    assert await adapter.get_event(CALENDAR_ID, event.event_id) == moved


async def test_moving_to_where_it_is_succeeds(adapter: GoogleCalendarAdapter) -> None:
    event, _ = await adapter.insert_event(draft("m-2"))

    first = await adapter.move_event(CALENDAR_ID, event.event_id, LATER, LATER + timedelta(hours=1))
    again = await adapter.move_event(CALENDAR_ID, event.event_id, LATER, LATER + timedelta(hours=1))

    assert replace(again, etag="", updated=None) == replace(first, etag="", updated=None)
    assert again.etag != first.etag  # every write is a new version


async def test_a_given_zone_is_written_without_reading_first(
    adapter: GoogleCalendarAdapter, emulator: Emulator
) -> None:
    event, _ = await adapter.insert_event(draft("m-3"))
    reads = emulator.faults.count("events.get")

    moved = await adapter.move_event(
        CALENDAR_ID, event.event_id, LATER, LATER + timedelta(hours=1), time_zone="Europe/Lisbon"
    )

    assert moved.time_zone == "Europe/Lisbon"
    assert emulator.faults.count("events.get") == reads


async def test_unknown_and_cancelled_events_are_not_found(
    adapter: GoogleCalendarAdapter, emulator: Emulator
) -> None:
    event, _ = await adapter.insert_event(draft("m-4"))
    await adapter.cancel_event(CALENDAR_ID, event.event_id)

    with pytest.raises(EventNotFoundError):
        await adapter.move_event(CALENDAR_ID, "neverexisted0", LATER, LATER + timedelta(hours=1))
    with pytest.raises(EventNotFoundError):  # read first: cancelled
        await adapter.move_event(CALENDAR_ID, event.event_id, LATER, LATER + timedelta(hours=1))
    with pytest.raises(EventNotFoundError):  # patched directly: 410 deleted
        await adapter.move_event(
            CALENDAR_ID, event.event_id, LATER, LATER + timedelta(hours=1), time_zone="UTC"
        )
    assert busy(emulator) == []


async def test_transient_failures_are_retried_and_a_lost_answer_is_harmless(
    adapter: GoogleCalendarAdapter, emulator: Emulator
) -> None:
    event, _ = await adapter.insert_event(draft("m-5"))
    emulator.faults.fail_next("events.patch", Fault.error(503, "backendError"))
    emulator.faults.fail_next("events.patch", Fault.store_then_drop())

    moved = await adapter.move_event(CALENDAR_ID, event.event_id, LATER, LATER + timedelta(hours=1))

    assert (moved.start, moved.end) == (LATER, LATER + timedelta(hours=1))
    assert emulator.faults.count("events.patch") == 3
    assert busy(emulator) == [(LATER, LATER + timedelta(hours=1))]


async def test_a_bad_range_is_refused_before_any_call(
    adapter: GoogleCalendarAdapter, emulator: Emulator
) -> None:
    with pytest.raises(InvalidCalendarRequestError):
        await adapter.move_event(CALENDAR_ID, "abcdefghij", LATER, LATER)
    assert emulator.faults.count("events.patch") == 0
