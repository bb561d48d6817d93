"""GoogleCalendarAdapter against the emulator: idempotent inserts, get, list, cancel."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest

from agenda_kit.calendar.errors import (
    CalendarNotFoundError,
    CalendarUnavailableError,
    EventNotFoundError,
    IdempotencyConflictError,
    InvalidCalendarRequestError,
)
from agenda_kit.calendar.port import EventDraft
from calendar_service.domain.event_ids import event_id_for
from calendar_service.infrastructure.google import GoogleCalendarAdapter
from tests.fakes.google_calendar import Emulator
from tests.fakes.google_faults import Fault
from tests.fakes.google_fixtures import CALENDAR_ID

T0 = datetime(2031, 3, 10, 13, 0, tzinfo=UTC)


def draft(key: str, *, start: datetime = T0, minutes: int = 30, **extra: str) -> EventDraft:
    return EventDraft(
        calendar_id=extra.get("calendar_id", CALENDAR_ID),
        summary="Corte de cabelo",
        description=f"key {key}",
        start=start,
        end=start + timedelta(minutes=minutes),
        idempotency_key=key,
        time_zone=extra.get("time_zone", "America/Sao_Paulo"),
    )


def key_id(key: str) -> str:
    """The id a write of the key by no particular owner (the adapter used directly) gets."""
    return event_id_for(CALENDAR_ID, "", key)


def test_event_ids_are_base32hex_of_calendar_owner_and_key() -> None:
    event_id = event_id_for(CALENDAR_ID, "a", "booking-1")
    assert event_id == event_id_for(CALENDAR_ID, "a", "booking-1")
    assert event_id != event_id_for(CALENDAR_ID, "a", "booking-2")
    assert event_id != event_id_for(CALENDAR_ID, "b", "booking-1")
    assert event_id != event_id_for("other@agenda.test", "a", "booking-1")
    assert len(event_id) == 52
    assert set(event_id) <= set("0123456789abcdefghijklmnopqrstuv")


async def test_insert_creates_and_maps_the_event(
    adapter: GoogleCalendarAdapter, emulator: Emulator
) -> None:
    event, created = await adapter.insert_event(draft("k-1"))

    assert created
    assert event.event_id == key_id("k-1")
    assert (event.start, event.end) == (T0, T0 + timedelta(minutes=30))
    assert event.start.tzinfo is UTC
    assert event.time_zone == "America/Sao_Paulo"
    assert event.idempotency_key == "k-1"
    assert emulator.state.events_per_key() == {"k-1": 1}


async def test_same_key_twice_returns_the_same_event_not_created(
    adapter: GoogleCalendarAdapter, emulator: Emulator
) -> None:
    first, created_first = await adapter.insert_event(draft("k-2"))
    second, created_second = await adapter.insert_event(draft("k-2"))

    assert (created_first, created_second) == (True, False)
    assert second == first
    assert emulator.faults.counts()["events.insert"] == 2
    assert emulator.faults.counts()["events.get"] == 1
    assert emulator.state.events_per_key() == {"k-2": 1}


async def test_create_event_returns_the_provider_id(adapter: GoogleCalendarAdapter) -> None:
    event_id = await adapter.create_event(
        CALENDAR_ID, "s", "d", T0, T0 + timedelta(hours=1), idempotency_key="k-3"
    )
    assert event_id == key_id("k-3")


async def test_an_id_stolen_by_another_key_is_a_conflict(
    adapter: GoogleCalendarAdapter, emulator: Emulator
) -> None:
    emulator.state.insert(
        CALENDAR_ID,
        {
            "id": key_id("mine"),
            "start": {"dateTime": "2031-03-10T10:00:00Z"},
            "end": {"dateTime": "2031-03-10T11:00:00Z"},
            "extendedProperties": {"private": {"idempotencyKey": "someone-else"}},
        },
    )
    with pytest.raises(IdempotencyConflictError):
        await adapter.insert_event(draft("mine"))


async def test_same_key_for_a_different_event_is_a_conflict(
    adapter: GoogleCalendarAdapter,
) -> None:
    await adapter.insert_event(draft("k-7"))

    with pytest.raises(IdempotencyConflictError):
        await adapter.insert_event(draft("k-7", minutes=60))
    with pytest.raises(IdempotencyConflictError):
        await adapter.insert_event(replace(draft("k-7"), summary="Outra coisa"))


async def test_retry_with_sub_second_times_is_not_a_conflict(
    adapter: GoogleCalendarAdapter,
) -> None:
    precise = draft("k-8", start=T0 + timedelta(microseconds=123_456))
    first, _ = await adapter.insert_event(precise)
    again, created = await adapter.insert_event(precise)

    assert not created
    assert again == first


async def test_insert_into_unknown_calendar_is_not_found(adapter: GoogleCalendarAdapter) -> None:
    with pytest.raises(CalendarNotFoundError):
        await adapter.insert_event(draft("k-4", calendar_id="ghost@agenda.test"))


async def test_get_event_and_missing_event(adapter: GoogleCalendarAdapter) -> None:
    created, _ = await adapter.insert_event(draft("k-5"))

    assert await adapter.get_event(CALENDAR_ID, created.event_id) == created
    with pytest.raises(EventNotFoundError):
        await adapter.get_event(CALENDAR_ID, "nosuchevent00")


async def test_cancel_then_cancel_again_then_unknown(
    adapter: GoogleCalendarAdapter, emulator: Emulator
) -> None:
    event, _ = await adapter.insert_event(draft("k-6"))

    assert await adapter.cancel_event(CALENDAR_ID, event.event_id) is True
    assert await adapter.cancel_event(CALENDAR_ID, event.event_id) is False  # 410 deleted
    assert await adapter.cancel_event(CALENDAR_ID, "neverexisted0") is False  # 404
    assert (await adapter.get_event(CALENDAR_ID, event.event_id)).status == "cancelled"
    assert emulator.faults.count("events.delete") == 3


async def test_list_events_follows_page_tokens_in_start_order(
    adapter: GoogleCalendarAdapter,
) -> None:
    for i in reversed(range(7)):
        await adapter.insert_event(draft(f"list-{i}", start=T0 + timedelta(hours=i)))
    cancelled, _ = await adapter.insert_event(draft("list-x", start=T0 + timedelta(minutes=5)))
    await adapter.cancel_event(CALENDAR_ID, cancelled.event_id)

    keys: list[str | None] = []
    token: str | None = None
    pages = 0
    while True:
        page = await adapter.list_events(
            CALENDAR_ID, T0, T0 + timedelta(days=1), page_size=3, page_token=token
        )
        pages += 1
        keys += [event.idempotency_key for event in page.events]
        token = page.next_page_token
        if token is None:
            break

    assert pages == 3
    assert keys == [f"list-{i}" for i in range(7)]
    with_cancelled = await adapter.list_events(
        CALENDAR_ID, T0, T0 + timedelta(days=1), include_cancelled=True
    )
    assert len(with_cancelled.events) == 8


async def test_bad_requests_are_invalid_and_not_retried(
    adapter: GoogleCalendarAdapter, emulator: Emulator
) -> None:
    with pytest.raises(InvalidCalendarRequestError, match="page_token is not valid"):
        await adapter.list_events(CALENDAR_ID, T0, T0 + timedelta(days=1), page_token="bogus!")
    with pytest.raises(InvalidCalendarRequestError):
        await adapter.list_events(CALENDAR_ID, T0, T0 - timedelta(days=1))
    assert emulator.faults.count("events.list") == 0  # a token it did not issue: never sent


async def test_a_409_whose_event_is_gone_a_moment_later_is_retryable_not_an_unknown_calendar(
    adapter: GoogleCalendarAdapter, emulator: Emulator
) -> None:
    """Google answers 409 to the insert (the id is taken) and 404 to the fetch of that id
    (deleted meanwhile, or not consistent yet): the calendar exists, so the caller is told to
    try again (review acting as another product: NOT_FOUND CALENDAR_NOT_FOUND, which a product
    might act on by unlinking a healthy calendar)."""
    emulator.faults.fail_next("events.insert", Fault.error(409, "duplicate"))
    with pytest.raises(CalendarUnavailableError) as told:
        await adapter.insert_event(draft("k-409"))
    assert told.value.retry_after is not None
    emulator.faults.fail_next("events.insert", Fault.error(409, "duplicate"))
    with pytest.raises(CalendarNotFoundError):  # an unknown calendar is still said so
        await adapter.insert_event(draft("k-410", calendar_id="nobody@agenda.test"))
