"""Issue 13: Google freeBusy calls per availability question, counted at the emulator through
the real calendar service (raw gRPC, so no client cache helps).

One miss fetches a week of the calendar in one call; a booking made through the service is
applied to the cached week (no re-read), a cancel drops it; a fresh read always asks Google.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import grpc
import pytest

from agenda.calendar.v1 import calendar_service_pb2 as pb
from agenda.calendar.v1 import calendar_service_pb2_grpc as pb_grpc
from agenda_kit.settings import SharedSettings
from calendar_service.bootstrap import CalendarApp, bootstrap
from calendar_service.infrastructure.grpc.mappers import time_range
from tests.fakes.google_calendar import Emulator
from tests.fakes.google_fixtures import CALENDAR_ID, ServiceAccount, google_settings
from tests.fakes.in_memory_holds import InMemoryHolds

TOKEN = "economy-token"
AUTH = (("authorization", f"Bearer {TOKEN}"),)
MONDAY = datetime(2031, 3, 3, tzinfo=UTC)
TEN = MONDAY + timedelta(hours=10)
FREE_BUSY = "freeBusy"


@pytest.fixture
async def stub(
    emulator: Emulator, service_account: ServiceAccount, tmp_path: Path
) -> AsyncIterator[pb_grpc.CalendarServiceAsyncStub]:
    settings = google_settings(
        emulator,
        service_account,
        TOKEN,
        freebusy_cache_ttl_seconds=600,  # the cache certainly outlives the test
    )
    app: CalendarApp = await bootstrap(
        settings, SharedSettings(AGENDA_DATA_DIR=tmp_path), holds=InMemoryHolds()
    )
    app.calendar.clock = lambda: MONDAY - timedelta(days=7)  # never the real clock
    await app.start()
    async with grpc.aio.insecure_channel(f"127.0.0.1:{app.port}") as channel:
        stub: pb_grpc.CalendarServiceAsyncStub = pb_grpc.CalendarServiceStub(channel)
        yield stub
    await app.stop(0)


def slots_request(
    day: int, mode: pb.ReadMode.ValueType = pb.READ_MODE_UNSPECIFIED
) -> pb.GetFreeSlotsRequest:
    start = MONDAY + timedelta(days=day)
    return pb.GetFreeSlotsRequest(
        calendar_id=CALENDAR_ID,
        range=time_range(start, start + timedelta(days=1)),
        duration_minutes=60,
        read_mode=mode,
    )


async def starts(
    stub: pb_grpc.CalendarServiceAsyncStub, request: pb.GetFreeSlotsRequest
) -> set[datetime]:
    reply = await stub.GetFreeSlots(request, metadata=AUTH)
    return {stamp.ToDatetime(tzinfo=UTC) for stamp in reply.slot_starts}


async def book_ten(stub: pb_grpc.CalendarServiceAsyncStub) -> str:
    request = pb.CreateEventRequest(
        calendar_id=CALENDAR_ID,
        summary="booked through the service",
        time=time_range(TEN, TEN + timedelta(hours=1)),
        idempotency_key="economy-1",
    )
    reply = await stub.CreateEvent(request, metadata=AUTH)
    return str(reply.event.event_id)


async def test_a_week_of_questions_about_one_calendar_costs_one_call(
    stub: pb_grpc.CalendarServiceAsyncStub, emulator: Emulator
) -> None:
    for day in range(7):
        assert len(await starts(stub, slots_request(day))) == 24
    ranges = pb.QueryFreeBusyRequest(
        calendar_ids=[CALENDAR_ID],
        range=time_range(MONDAY + timedelta(hours=30), TEN + timedelta(days=3)),
    )
    await stub.QueryFreeBusy(ranges, metadata=AUTH)

    assert emulator.faults.count(FREE_BUSY) == 1


async def test_a_booking_through_the_service_is_applied_to_the_cache(
    stub: pb_grpc.CalendarServiceAsyncStub, emulator: Emulator
) -> None:
    assert TEN in await starts(stub, slots_request(0))
    await book_ten(stub)
    calls = emulator.faults.count(FREE_BUSY)

    after = await starts(stub, slots_request(0))

    assert TEN not in after and len(after) == 23  # never offers the slot it just filled
    assert emulator.faults.count(FREE_BUSY) == calls  # ... and did not ask Google again


async def test_a_cancel_through_the_service_drops_the_cached_week(
    stub: pb_grpc.CalendarServiceAsyncStub, emulator: Emulator
) -> None:
    event_id = await book_ten(stub)
    assert TEN not in await starts(stub, slots_request(0))
    calls = emulator.faults.count(FREE_BUSY)
    cancel = pb.CancelEventRequest(calendar_id=CALENDAR_ID, event_id=event_id)
    await stub.CancelEvent(cancel, metadata=AUTH)

    assert TEN in await starts(stub, slots_request(0))
    assert emulator.faults.count(FREE_BUSY) == calls + 1


async def test_fresh_reads_always_ask_google(
    stub: pb_grpc.CalendarServiceAsyncStub, emulator: Emulator
) -> None:
    await starts(stub, slots_request(0))
    calls = emulator.faults.count(FREE_BUSY)
    for _ in range(3):
        await starts(stub, slots_request(0, pb.READ_MODE_FRESH))
    assert emulator.faults.count(FREE_BUSY) == calls + 3
