"""``LocalCalendarAdapter`` on the real MongoDB wire protocol (one embedded SecantusDB)."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from pymongo import AsyncMongoClient

from agenda_kit.calendar.errors import (
    CalendarUnavailableError,
    EventNotFoundError,
    IdempotencyConflictError,
    InvalidCalendarRequestError,
)
from agenda_kit.calendar.port import EventDraft, Interval
from agenda_kit.mongo import EmbeddedMongo, make_client
from calendar_service.infrastructure.local import LocalCalendarAdapter, init_local_calendar
from calendar_service.infrastructure.local.documents import CalendarDocument, EventDocument

pytest_plugins = ["tests.kit.mongo_fixtures"]

DAY = datetime(2031, 3, 10, tzinfo=UTC)
WIDE = (DAY - timedelta(days=1), DAY + timedelta(days=2))


def at(hour: float) -> datetime:
    return DAY + timedelta(hours=hour)


def draft(key: str, start: float, end: float, calendar_id: str = "ana") -> EventDraft:
    return EventDraft(
        calendar_id=calendar_id,
        summary=f"Consulta {key}",
        description="Primeira consulta",
        start=at(start),
        end=at(end),
        idempotency_key=key,
        time_zone="America/Sao_Paulo",
    )


@pytest.fixture
async def calendar(mongo_client: AsyncMongoClient[Any], database_name: str) -> LocalCalendarAdapter:
    await init_local_calendar(mongo_client, database_name)
    return LocalCalendarAdapter()


async def test_created_event_can_be_read_listed_and_cancelled(
    calendar: LocalCalendarAdapter,
) -> None:
    event, created = await calendar.insert_event(draft("k1", 10, 11))

    assert created
    assert event.start == at(10)
    assert event.start.tzinfo is not None
    assert event.status == "confirmed"
    assert await calendar.get_event("ana", event.event_id) == event
    assert (await calendar.list_events("ana", *WIDE)).events == (event,)
    assert await calendar.cancel_event("ana", event.event_id) is True
    assert await calendar.cancel_event("ana", event.event_id) is False
    cancelled = await calendar.get_event("ana", event.event_id)
    assert cancelled.status == "cancelled"
    assert (await calendar.list_events("ana", *WIDE)).events == ()
    listed = await calendar.list_events("ana", *WIDE, include_cancelled=True)
    assert listed.events == (cancelled,)


async def test_first_event_creates_its_calendar(calendar: LocalCalendarAdapter) -> None:
    await calendar.insert_event(draft("k1", 10, 11, calendar_id="bia"))
    await calendar.insert_event(draft("k2", 12, 13, calendar_id="bia"))

    stored = await CalendarDocument.get("bia")
    assert stored is not None
    assert stored.time_zone == "America/Sao_Paulo"
    assert await CalendarDocument.count() == 1


async def test_unknown_events_are_not_found(calendar: LocalCalendarAdapter) -> None:
    event, _ = await calendar.insert_event(draft("k1", 10, 11))

    with pytest.raises(EventNotFoundError):
        await calendar.get_event("ana", "nope")
    with pytest.raises(EventNotFoundError):
        await calendar.get_event("other", event.event_id)
    with pytest.raises(EventNotFoundError):
        await calendar.cancel_event("ana", "nope")


async def test_repeated_create_returns_the_first_event(calendar: LocalCalendarAdapter) -> None:
    first, created_first = await calendar.insert_event(draft("k1", 10, 11))
    again, created_again = await calendar.insert_event(draft("k1", 10, 11))

    assert (created_first, created_again) == (True, False)
    assert again == first
    assert await EventDocument.count() == 1


async def test_fifty_concurrent_creates_store_one_event(calendar: LocalCalendarAdapter) -> None:
    results = await asyncio.gather(*(calendar.insert_event(draft("k1", 10, 11)) for _ in range(50)))

    assert [created for _, created in results].count(True) == 1
    assert len({event.event_id for event, _ in results}) == 1
    assert await EventDocument.count() == 1


async def test_key_reused_for_another_event_is_a_conflict(
    calendar: LocalCalendarAdapter,
) -> None:
    await calendar.insert_event(draft("k1", 10, 11))

    with pytest.raises(IdempotencyConflictError):
        await calendar.insert_event(draft("k1", 10, 12))
    with pytest.raises(IdempotencyConflictError):
        await calendar.insert_event(replace(draft("k1", 10, 11), summary="Outra"))


async def test_same_key_in_another_calendar_is_another_event(
    calendar: LocalCalendarAdapter,
) -> None:
    ana, _ = await calendar.insert_event(draft("k1", 10, 11, calendar_id="ana"))
    bia, created = await calendar.insert_event(draft("k1", 10, 11, calendar_id="bia"))

    assert created
    assert ana.event_id != bia.event_id


async def test_retry_with_sub_millisecond_times_is_not_a_conflict(
    calendar: LocalCalendarAdapter,
) -> None:
    precise = replace(draft("k1", 10, 11), start=at(10) + timedelta(microseconds=123_456))
    first, _ = await calendar.insert_event(precise)
    again, created = await calendar.insert_event(precise)

    assert not created
    assert again.start == first.start == at(10) + timedelta(microseconds=123_000)


async def test_busy_time_is_clipped_merged_sorted_and_skips_cancelled(
    calendar: LocalCalendarAdapter,
) -> None:
    for key, start, end in [("c", 13, 14), ("a", 8, 10), ("b", 9.5, 11), ("d", 14, 15)]:
        await calendar.insert_event(draft(key, start, end))
    (event, _) = await calendar.insert_event(draft("x", 16, 17))
    await calendar.insert_event(draft("late", 18, 20))
    await calendar.cancel_event("ana", event.event_id)

    (free_busy,) = await calendar.query_free_busy(["ana"], at(9), at(19))

    assert free_busy.error is None
    assert free_busy.busy == (
        Interval(at(9), at(11)),
        Interval(at(13), at(15)),
        Interval(at(18), at(19)),
    )


async def test_busy_time_of_several_calendars_in_the_order_asked(
    calendar: LocalCalendarAdapter,
) -> None:
    await calendar.insert_event(draft("a", 10, 11, calendar_id="ana"))
    await calendar.insert_event(draft("b", 12, 13, calendar_id="bia"))

    result = await calendar.query_free_busy(["bia", "never-used", "ana"], at(0), at(24))

    assert [fb.calendar_id for fb in result] == ["bia", "never-used", "ana"]
    assert [fb.busy for fb in result] == [
        (Interval(at(12), at(13)),),
        (),
        (Interval(at(10), at(11)),),
    ]
    assert all(fb.error is None for fb in result)


async def test_events_touching_the_range_are_not_busy(calendar: LocalCalendarAdapter) -> None:
    await calendar.insert_event(draft("before", 8, 9))
    await calendar.insert_event(draft("after", 12, 13))

    (free_busy,) = await calendar.query_free_busy(["ana"], at(9), at(12))

    assert free_busy.busy == ()


async def test_paging_through_250_events(calendar: LocalCalendarAdapter) -> None:
    # Pairs share a start, so the cursor must break ties by id.
    for number in range(250):
        quarter = number // 2 / 4
        await calendar.insert_event(draft(f"k{number:03}", quarter, quarter + 0.5))
    seen: list[str] = []
    sizes: list[int] = []
    token: str | None = None
    while True:
        page = await calendar.list_events("ana", *WIDE, page_size=100, page_token=token)
        sizes.append(len(page.events))
        seen.extend(event.event_id for event in page.events)
        token = page.next_page_token
        if token is None:
            break

    assert sizes == [100, 100, 50]
    assert len(set(seen)) == 250
    starts = [(await calendar.get_event("ana", event_id)).start for event_id in seen]
    assert starts == sorted(starts)


async def test_bad_page_requests_are_rejected(calendar: LocalCalendarAdapter) -> None:
    with pytest.raises(InvalidCalendarRequestError):
        await calendar.list_events("ana", *WIDE, page_size=0)
    with pytest.raises(InvalidCalendarRequestError):
        await calendar.list_events("ana", *WIDE, page_size=1001)
    with pytest.raises(InvalidCalendarRequestError):
        await calendar.list_events("ana", *WIDE, page_token="not a token")
    with pytest.raises(InvalidCalendarRequestError):
        await calendar.query_free_busy(["ana"], at(10), at(9))


async def test_free_slots_end_to_end(calendar: LocalCalendarAdapter) -> None:
    await calendar.insert_event(draft("busy", 10, 11))
    cancelled, _ = await calendar.insert_event(draft("gone", 11, 12))
    await calendar.cancel_event("ana", cancelled.event_id)

    slots = await calendar.get_free_slots("ana", at(9), at(13), 60)
    event_id = await calendar.create_event("ana", "Nova", "", at(12), at(13), idempotency_key="new")

    assert slots == [at(9), at(11), at(12)]
    assert (await calendar.get_event("ana", event_id)).summary == "Nova"
    assert await calendar.get_free_slots("ana", at(9), at(13), 60) == [at(9), at(11)]


async def test_driver_failures_become_calendar_unavailable(
    embedded_mongo: EmbeddedMongo, database_name: str
) -> None:
    client = make_client(embedded_mongo.uri)
    await init_local_calendar(client, database_name)
    await client.close()
    calendar = LocalCalendarAdapter()

    with pytest.raises(CalendarUnavailableError):
        await calendar.insert_event(draft("k1", 10, 11))
    with pytest.raises(CalendarUnavailableError):
        await calendar.query_free_busy(["ana"], at(0), at(24))
