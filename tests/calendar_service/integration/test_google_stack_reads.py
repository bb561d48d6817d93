"""Reads through the whole stack: GrpcCalendarAdapter → calendar service (Google backend, its
free/busy cache) → emulator.

Item 6: an event written straight into Google, behind both caches' backs, is missed by the
cached re-check for the TTL and seen by the fresh one. Item 10c: identical concurrent RPCs
share one Google call."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import grpc
import pytest

from agenda.calendar.v1 import calendar_service_pb2 as pb
from agenda.calendar.v1 import calendar_service_pb2_grpc as pb_grpc
from agenda_kit.calendar.grpc_client import GrpcCalendarAdapter
from agenda_kit.settings import SharedSettings
from calendar_service.bootstrap import CalendarApp, bootstrap
from calendar_service.infrastructure.grpc.mappers import time_range
from tests.fakes.google_calendar import Emulator
from tests.fakes.google_fixtures import CALENDAR_ID, ServiceAccount, google_settings
from tests.fakes.in_memory_holds import InMemoryHolds

TOKEN = "fresh-token"
MONDAY = datetime(2031, 3, 3, tzinfo=UTC)
DAY = (MONDAY, MONDAY + timedelta(days=1))
TEN = MONDAY + timedelta(hours=10)


@pytest.fixture
async def app(
    emulator: Emulator, service_account: ServiceAccount, tmp_path: Path
) -> AsyncIterator[CalendarApp]:
    settings = google_settings(
        emulator,
        service_account,
        TOKEN,
        freebusy_cache_ttl_seconds=600,  # the cache certainly outlives the test
    )
    started = await bootstrap(
        settings, SharedSettings(AGENDA_DATA_DIR=tmp_path), holds=InMemoryHolds()
    )
    started.calendar.clock = lambda: MONDAY - timedelta(days=7)  # never the real clock
    await started.start()
    yield started
    await started.stop(0)


@pytest.fixture
async def client(app: CalendarApp) -> AsyncIterator[GrpcCalendarAdapter]:
    async with GrpcCalendarAdapter.connect(
        f"127.0.0.1:{app.port}", token=TOKEN, cache_ttl=600
    ) as adapter:
        yield adapter


def write_in_google(emulator: Emulator) -> None:
    """Someone else books 10:00-11:00 in Google itself (no call through the service)."""
    emulator.state.insert(
        CALENDAR_ID,
        {
            "summary": "booked in Google directly",
            "start": {"dateTime": TEN.isoformat(), "timeZone": "UTC"},
            "end": {"dateTime": (TEN + timedelta(hours=1)).isoformat(), "timeZone": "UTC"},
        },
    )


async def test_fresh_slots_see_a_write_made_behind_both_caches(
    client: GrpcCalendarAdapter, emulator: Emulator
) -> None:
    assert TEN in await client.get_free_slots(CALENDAR_ID, *DAY, 60)
    write_in_google(emulator)
    calls = emulator.faults.count("freeBusy")

    cached = await client.get_free_slots(CALENDAR_ID, *DAY, 60)
    assert TEN in cached  # stale, as the cached re-check was (issue 11 item 6)
    assert emulator.faults.count("freeBusy") == calls

    fresh = await client.get_free_slots(CALENDAR_ID, *DAY, 60, fresh=True)
    assert TEN not in fresh
    assert emulator.faults.count("freeBusy") == calls + 1


async def test_fresh_free_busy_skips_the_service_cache_too(
    app: CalendarApp, emulator: Emulator
) -> None:
    """Raw gRPC (no client cache): only the service's cache stands in the way."""
    auth = (("authorization", f"Bearer {TOKEN}"),)

    def ask(mode: pb.ReadMode.ValueType) -> pb.QueryFreeBusyRequest:
        return pb.QueryFreeBusyRequest(
            calendar_ids=[CALENDAR_ID], range=time_range(*DAY), read_mode=mode
        )

    async with grpc.aio.insecure_channel(f"127.0.0.1:{app.port}") as channel:
        stub = pb_grpc.CalendarServiceStub(channel)
        before = await stub.QueryFreeBusy(ask(pb.READ_MODE_UNSPECIFIED), metadata=auth)
        write_in_google(emulator)
        cached = await stub.QueryFreeBusy(ask(pb.READ_MODE_CACHED), metadata=auth)
        fresh = await stub.QueryFreeBusy(ask(pb.READ_MODE_FRESH), metadata=auth)

    assert list(before.calendars[0].busy) == list(cached.calendars[0].busy) == []
    (busy,) = fresh.calendars[0].busy
    assert busy.start.ToDatetime(tzinfo=UTC) == TEN


async def test_twenty_concurrent_identical_rpcs_make_one_google_call(
    app: CalendarApp, emulator: Emulator
) -> None:
    """Item 10c through the service: 20 raw GetFreeSlots RPCs at once (no client cache) → one
    freeBusy call, however they interleave (late ones join the flight or hit the cache)."""
    auth = (("authorization", f"Bearer {TOKEN}"),)
    request = pb.GetFreeSlotsRequest(
        calendar_id=CALENDAR_ID, range=time_range(*DAY), duration_minutes=60
    )
    gate = emulator.faults.hold("freeBusy")
    async with grpc.aio.insecure_channel(f"127.0.0.1:{app.port}") as channel:
        stub = pb_grpc.CalendarServiceStub(channel)
        calls = [
            asyncio.ensure_future(stub.GetFreeSlots(request, metadata=auth)) for _ in range(20)
        ]
        await emulator.faults.arrived("freeBusy").wait()
        gate.set()
        replies = await asyncio.gather(*calls)

    assert emulator.faults.count("freeBusy") == 1
    assert all(reply == replies[0] for reply in replies)
    assert len(replies[0].slot_starts) == 24
