"""Item 10d: CancelEvent on an unknown calendar is NOT_FOUND on both backends.

The rule for an unknown EVENT in a known calendar differs by backend, because what the
backend knows differs: Google answers 404 both for an event that never existed and for one
deleted long ago (and 410 for one deleted recently), so the Google backend answers
``cancelled=false``; the built-in calendar never forgets an event, so an id it never stored is
NOT_FOUND. Google also answers 404 for ``events.delete`` in an unknown calendar; the adapter
tells the two apart with ``calendars.get``, only on that 404.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import grpc
import pytest
from pymongo import AsyncMongoClient

from agenda.calendar.v1 import calendar_service_pb2 as pb
from agenda.calendar.v1 import calendar_service_pb2_grpc as pb_grpc
from agenda_kit.calendar.errors import CalendarNotFoundError, EventNotFoundError
from agenda_kit.calendar.port import EventDraft
from agenda_kit.settings import SharedSettings
from calendar_service.bootstrap import bootstrap
from calendar_service.infrastructure.google import GoogleCalendarAdapter
from calendar_service.infrastructure.local import LocalCalendarAdapter, init_local_calendar
from calendar_service.infrastructure.settings import CalendarSettings
from tests.conftest import AUTH, TOKEN
from tests.fakes.google_calendar import Emulator
from tests.fakes.google_fixtures import CALENDAR_ID
from tests.fakes.in_memory_holds import InMemoryHolds

pytest_plugins = ["tests.kit.mongo_fixtures"]
GHOST = "ghost@agenda.test"
T0 = datetime(2031, 3, 10, 13, 0, tzinfo=UTC)


def draft(calendar_id: str, key: str) -> EventDraft:
    return EventDraft(
        calendar_id=calendar_id,
        summary="Consulta",
        description="",
        start=T0,
        end=T0 + timedelta(minutes=30),
        idempotency_key=key,
    )


@pytest.fixture
async def local(mongo_client: AsyncMongoClient[Any], database_name: str) -> LocalCalendarAdapter:
    await init_local_calendar(mongo_client, database_name)
    return LocalCalendarAdapter(clock=lambda: T0 - timedelta(days=1))


async def test_google_unknown_calendar_is_calendar_not_found(
    adapter: GoogleCalendarAdapter, emulator: Emulator
) -> None:
    with pytest.raises(CalendarNotFoundError):
        await adapter.cancel_event(GHOST, "neverexisted0")
    assert emulator.faults.count("calendars.get") == 1


async def test_google_unknown_and_deleted_events_stay_not_cancelled(
    adapter: GoogleCalendarAdapter, emulator: Emulator
) -> None:
    event, _ = await adapter.insert_event(draft(CALENDAR_ID, "c-1"))
    assert await adapter.cancel_event(CALENDAR_ID, event.event_id) is True
    assert await adapter.cancel_event(CALENDAR_ID, event.event_id) is False  # 410: no probe
    assert emulator.faults.count("calendars.get") == 0
    assert await adapter.cancel_event(CALENDAR_ID, "neverexisted0") is False  # 404 + probe
    assert emulator.faults.count("calendars.get") == 1


async def test_google_move_in_an_unknown_calendar_is_not_found(
    adapter: GoogleCalendarAdapter,
) -> None:
    with pytest.raises(CalendarNotFoundError):
        await adapter.move_event(GHOST, "neverexisted0", T0, T0 + timedelta(hours=1))


async def test_local_unknown_calendar_is_calendar_not_found(local: LocalCalendarAdapter) -> None:
    event, _ = await local.insert_event(draft("ana", "c-2"))

    with pytest.raises(CalendarNotFoundError):
        await local.cancel_event(GHOST, event.event_id)
    with pytest.raises(CalendarNotFoundError):
        await local.move_event(GHOST, event.event_id, T0, T0 + timedelta(hours=1))
    with pytest.raises(EventNotFoundError):  # known calendar, unknown event: unchanged
        await local.cancel_event("ana", "nope")
    assert await local.cancel_event("ana", event.event_id) is True


@pytest.fixture
async def google_stub(
    adapter: GoogleCalendarAdapter, tmp_path: Path
) -> AsyncIterator[pb_grpc.CalendarServiceAsyncStub]:
    settings = CalendarSettings(grpc_port=0, auth_tokens=[TOKEN], metrics_port=0)
    app = await bootstrap(
        settings, SharedSettings(AGENDA_DATA_DIR=tmp_path), backend=adapter, holds=InMemoryHolds()
    )
    await app.start()
    async with grpc.aio.insecure_channel(f"127.0.0.1:{app.port}") as channel:
        yield pb_grpc.CalendarServiceStub(channel)
    await app.stop(0)


async def test_cancel_event_over_grpc_with_the_google_backend(
    google_stub: pb_grpc.CalendarServiceAsyncStub,
) -> None:
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await google_stub.CancelEvent(
            pb.CancelEventRequest(calendar_id=GHOST, event_id="neverexisted0"), metadata=AUTH
        )
    assert caught.value.code() == grpc.StatusCode.NOT_FOUND
    assert "calendar" in (caught.value.details() or "")
    known = pb.CancelEventRequest(calendar_id=CALENDAR_ID, event_id="neverexisted0")
    assert (await google_stub.CancelEvent(known, metadata=AUTH)).cancelled is False


async def test_google_move_probes_the_calendar_only_after_a_404(
    adapter: GoogleCalendarAdapter, emulator: Emulator
) -> None:
    event, _ = await adapter.insert_event(draft(CALENDAR_ID, "c-3"))
    await adapter.cancel_event(CALENDAR_ID, event.event_id)
    later = (T0 + timedelta(hours=2), T0 + timedelta(hours=3))

    with pytest.raises(EventNotFoundError):  # read first: cancelled, no probe
        await adapter.move_event(CALENDAR_ID, event.event_id, *later)
    with pytest.raises(EventNotFoundError):  # 410 deleted, no probe
        await adapter.move_event(CALENDAR_ID, event.event_id, *later, time_zone="UTC")
    assert emulator.faults.count("calendars.get") == 0
    with pytest.raises(EventNotFoundError):  # 404, the calendar exists: the event is unknown
        await adapter.move_event(CALENDAR_ID, "neverexisted0", *later)
    assert emulator.faults.count("calendars.get") == 1
