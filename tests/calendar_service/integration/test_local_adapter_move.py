"""``LocalCalendarAdapter.move_event`` on the real MongoDB wire protocol."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from pymongo import AsyncMongoClient

from agenda_kit.calendar.errors import (
    CalendarNotFoundError,
    EventNotFoundError,
    InvalidCalendarRequestError,
)
from agenda_kit.calendar.port import EventDraft, Interval
from calendar_service.infrastructure.local import LocalCalendarAdapter, init_local_calendar

pytest_plugins = ["tests.kit.mongo_fixtures"]

DAY = datetime(2031, 3, 10, tzinfo=UTC)
WIDE = (DAY - timedelta(days=1), DAY + timedelta(days=2))
MOVED_AT = datetime(2031, 1, 1, tzinfo=UTC)


def at(hour: float) -> datetime:
    return DAY + timedelta(hours=hour)


def draft(key: str, start: float, end: float) -> EventDraft:
    return EventDraft(
        calendar_id="ana",
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
    return LocalCalendarAdapter(clock=lambda: MOVED_AT)


async def test_move_keeps_the_id_and_frees_the_old_time(calendar: LocalCalendarAdapter) -> None:
    event, _ = await calendar.insert_event(draft("k1", 10, 11))

    moved = await calendar.move_event("ana", event.event_id, at(14), at(15.5))

    assert moved.event_id == event.event_id
    assert (moved.start, moved.end) == (at(14), at(15.5))
    assert moved.time_zone == "America/Sao_Paulo"
    assert moved.idempotency_key == "k1"
    assert await calendar.get_event("ana", event.event_id) == moved
    (busy,) = await calendar.query_free_busy(["ana"], *WIDE)
    assert busy.busy == (Interval(at(14), at(15.5)),)


async def test_moving_to_where_it_is_succeeds_and_a_zone_can_change(
    calendar: LocalCalendarAdapter,
) -> None:
    event, _ = await calendar.insert_event(draft("k2", 10, 11))

    same = await calendar.move_event("ana", event.event_id, at(10), at(11))
    zoned = await calendar.move_event(
        "ana", event.event_id, at(10), at(11), time_zone="Europe/Lisbon"
    )

    assert replace(same, etag="", updated=None) == replace(event, etag="", updated=None)
    assert zoned.time_zone == "Europe/Lisbon"
    assert len({event.etag, same.etag, zoned.etag}) == 3  # every write is a new version


async def test_cancelled_and_unknown_events_and_calendars_are_not_found(
    calendar: LocalCalendarAdapter,
) -> None:
    event, _ = await calendar.insert_event(draft("k3", 10, 11))
    await calendar.cancel_event("ana", event.event_id)

    for event_id in (event.event_id, "nope"):
        with pytest.raises(EventNotFoundError):
            await calendar.move_event("ana", event_id, at(14), at(15))
    with pytest.raises(CalendarNotFoundError):  # a calendar that never held an event
        await calendar.move_event("bia", event.event_id, at(14), at(15))
    assert (await calendar.get_event("ana", event.event_id)).start == at(10)


async def test_concurrent_moves_leave_one_consistent_event(calendar: LocalCalendarAdapter) -> None:
    event, _ = await calendar.insert_event(draft("k4", 10, 11))

    moves = [calendar.move_event("ana", event.event_id, at(h), at(h + 1)) for h in range(12, 20)]
    results = await asyncio.gather(*moves)

    stored = await calendar.get_event("ana", event.event_id)
    assert stored in results
    assert len((await calendar.list_events("ana", *WIDE)).events) == 1


async def test_a_bad_range_is_invalid(calendar: LocalCalendarAdapter) -> None:
    with pytest.raises(InvalidCalendarRequestError):
        await calendar.move_event("ana", "x", at(11), at(10))
