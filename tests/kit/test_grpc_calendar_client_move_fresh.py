"""``GrpcCalendarAdapter.move_event`` and ``fresh`` reads against a real calendar server."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta

import pytest

from agenda_kit.calendar.errors import EventNotFoundError
from agenda_kit.calendar.grpc_client import GrpcCalendarAdapter
from agenda_kit.calendar.port import EventDraft, Interval
from calendar_service.bootstrap import CalendarApp
from tests.conftest import TOKEN
from tests.fakes.in_memory_calendar import InMemoryCalendar

MONDAY = datetime(2030, 1, 7, tzinfo=UTC)
DAY = (MONDAY, MONDAY + timedelta(days=1))


@pytest.fixture(autouse=True)
def _fixed_now(calendar_app: CalendarApp) -> None:
    """The minimum notice counts from a week before the example day, not the real clock."""
    calendar_app.calendar.clock = lambda: MONDAY - timedelta(days=7)


@pytest.fixture
async def client(calendar_app: CalendarApp) -> AsyncIterator[GrpcCalendarAdapter]:
    async with GrpcCalendarAdapter.connect(
        f"127.0.0.1:{calendar_app.port}", token=TOKEN
    ) as adapter:
        yield adapter


def draft(key: str, hour: int, calendar_id: str = "cal-1") -> EventDraft:
    start = MONDAY.replace(hour=hour)
    return EventDraft(
        calendar_id=calendar_id,
        summary=f"Consulta {key}",
        description="",
        start=start,
        end=start + timedelta(hours=1),
        idempotency_key=key,
        time_zone="America/Sao_Paulo",
    )


async def test_move_event_keeps_the_id_and_drops_cached_reads(client: GrpcCalendarAdapter) -> None:
    event, _ = await client.insert_event(draft("k1", 9))
    assert MONDAY.replace(hour=9) not in await client.get_free_slots("cal-1", *DAY, 60)

    moved = await client.move_event(
        "cal-1", event.event_id, MONDAY.replace(hour=15), MONDAY.replace(hour=16)
    )

    assert moved.event_id == event.event_id
    assert (moved.start, moved.time_zone) == (MONDAY.replace(hour=15), "America/Sao_Paulo")
    slots = await client.get_free_slots("cal-1", *DAY, 60)
    assert MONDAY.replace(hour=9) in slots
    assert MONDAY.replace(hour=15) not in slots
    assert await client.get_event("cal-1", event.event_id) == moved


async def test_moving_an_unknown_or_cancelled_event_is_event_not_found(
    client: GrpcCalendarAdapter,
) -> None:
    event, _ = await client.insert_event(draft("k2", 9))
    await client.cancel_event("cal-1", event.event_id)
    for event_id in ("nope", event.event_id):
        with pytest.raises(EventNotFoundError):
            await client.move_event(
                "cal-1", event_id, MONDAY.replace(hour=15), MONDAY.replace(hour=16)
            )


async def test_a_fresh_read_bypasses_both_caches(
    client: GrpcCalendarAdapter, in_memory_calendar: InMemoryCalendar
) -> None:
    """Item 6: an event written behind both caches' backs (straight into the backend) is
    invisible to the cached read for the TTL, and seen by the fresh one."""
    assert await client.get_free_slots("cal-1", *DAY, 60) == await client.get_free_slots(
        "cal-1", *DAY, 60
    )
    (before,) = await client.query_free_busy(["cal-1"], *DAY)
    assert client.cache_hits == 1
    await in_memory_calendar.insert_event(draft("behind", 9))

    cached_slots = await client.get_free_slots("cal-1", *DAY, 60)
    (cached_busy,) = await client.query_free_busy(["cal-1"], *DAY)
    fresh_slots = await client.get_free_slots("cal-1", *DAY, 60, fresh=True)
    (fresh_busy,) = await client.query_free_busy(["cal-1"], *DAY, fresh=True)

    assert MONDAY.replace(hour=9) in cached_slots
    assert cached_busy == before
    assert MONDAY.replace(hour=9) not in fresh_slots
    assert fresh_busy.busy == (Interval(MONDAY.replace(hour=9), MONDAY.replace(hour=10)),)
    assert in_memory_calendar.fresh_free_busy_calls == 2
    # The fresh answers refreshed this client's cache too.
    assert await client.get_free_slots("cal-1", *DAY, 60) == fresh_slots
    assert await client.query_free_busy(["cal-1"], *DAY) == [fresh_busy]
