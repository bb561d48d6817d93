"""Issue 13: Google push notifications (``events.watch``) let the free/busy cache live longer.

First the emulator's channel shape (what Google sends), then the whole service: a followed
calendar stays cached past the short TTL, a change made in Google itself (no call through the
service) is pushed and drops it at once, a notification without the channel's token changes
nothing, and a fresh read still always asks Google.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import grpc
import pytest
from aiohttp import ClientSession, web

from agenda.calendar.v1 import calendar_service_pb2 as pb
from agenda.calendar.v1 import calendar_service_pb2_grpc as pb_grpc
from agenda_kit.calendar.errors import CalendarError
from agenda_kit.settings import SharedSettings
from calendar_service.bootstrap import CalendarApp, bootstrap
from calendar_service.infrastructure.google import GoogleCalendarAdapter
from calendar_service.infrastructure.google.watch import (
    NOTIFICATIONS_PATH,
    GoogleChangeFeed,
    stop_channel,
    watch_events,
)
from calendar_service.infrastructure.grpc.mappers import time_range
from tests.e2e.processes import free_port
from tests.fakes.google_calendar import Emulator
from tests.fakes.google_fixtures import CALENDAR_ID, ServiceAccount, google_settings
from tests.fakes.in_memory_holds import InMemoryHolds

TOKEN = "watch-token"
AUTH = (("authorization", f"Bearer {TOKEN}"),)
MONDAY = datetime(2031, 3, 3, tzinfo=UTC)
TEN = MONDAY + timedelta(hours=10)
FREE_BUSY = "freeBusy"


def write_in_google(emulator: Emulator) -> None:
    """Someone books 10:00-11:00 in Google Calendar itself."""
    emulator.state.insert(
        CALENDAR_ID,
        {
            "summary": "booked in Google directly",
            "start": {"dateTime": TEN.isoformat()},
            "end": {"dateTime": (TEN + timedelta(hours=1)).isoformat()},
        },
    )


# --- the emulator speaks Google's channel protocol ---------------------------------------


@pytest.fixture
async def inbox() -> AsyncIterator[tuple[str, list[dict[str, str]]]]:
    """A receiver recording each notification's X-Goog-* headers."""
    received: list[dict[str, str]] = []

    async def record(request: web.Request) -> web.Response:
        received.append({k: v for k, v in request.headers.items() if k.startswith("X-Goog-")})
        return web.Response()

    app = web.Application()
    app.router.add_post("/hook", record)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    host, port = runner.addresses[0][:2]
    yield f"http://{host}:{port}/hook", received
    await runner.cleanup()


async def test_a_channel_gets_sync_then_a_notification_per_change_until_stopped(
    adapter: GoogleCalendarAdapter,
    emulator: Emulator,
    inbox: tuple[str, list[dict[str, str]]],
) -> None:
    address, received = inbox
    body = {"id": "chan-1", "type": "web_hook", "address": address, "token": "secret"}
    channel = await watch_events(adapter, CALENDAR_ID, body)
    assert channel["kind"] == "api#channel" and channel["id"] == "chan-1"
    assert channel["resourceId"] and int(channel["expiration"]) > 0
    write_in_google(emulator)
    await emulator.watch.settled()

    assert [r["X-Goog-Resource-State"] for r in received] == ["sync", "exists"]
    assert [r["X-Goog-Message-Number"] for r in received] == ["1", "2"]
    assert {r["X-Goog-Channel-ID"] for r in received} == {"chan-1"}
    assert {r["X-Goog-Channel-Token"] for r in received} == {"secret"}
    assert {r["X-Goog-Resource-ID"] for r in received} == {channel["resourceId"]}

    await stop_channel(adapter, "chan-1", channel["resourceId"])
    write_in_google(emulator)
    await emulator.watch.settled()
    assert len(received) == 2


async def test_google_refuses_a_plain_http_address_and_a_reused_channel_id(
    adapter: GoogleCalendarAdapter, inbox: tuple[str, list[dict[str, str]]]
) -> None:
    address, _ = inbox
    plain = {"id": "c", "type": "web_hook", "address": "http://example.com/hook"}
    with pytest.raises(CalendarError):
        await watch_events(adapter, CALENDAR_ID, plain)
    await watch_events(adapter, CALENDAR_ID, {"id": "c", "type": "web_hook", "address": address})
    with pytest.raises(CalendarError):
        await watch_events(
            adapter, CALENDAR_ID, {"id": "c", "type": "web_hook", "address": address}
        )


# --- the service follows the calendars it caches -----------------------------------------


class Clock:
    """The free/busy cache's clock (monotonic seconds), moved by the test."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
async def app(
    emulator: Emulator, service_account: ServiceAccount, tmp_path: Path
) -> AsyncIterator[CalendarApp]:
    port = free_port()
    settings = google_settings(
        emulator,
        service_account,
        TOKEN,
        freebusy_cache_ttl_seconds=15,
        freebusy_followed_ttl_seconds=600,
        google_watch_address=f"http://127.0.0.1:{port}{NOTIFICATIONS_PATH}",
        google_watch_port=port,
    )
    started = await bootstrap(
        settings, SharedSettings(AGENDA_DATA_DIR=tmp_path), holds=InMemoryHolds()
    )
    started.calendar.clock = lambda: MONDAY - timedelta(days=7)  # never the real clock
    started.calendar.blocks.clock = Clock()
    await started.start()
    yield started
    await started.stop(0)
    await started.resources.aclose()


async def starts(app: CalendarApp, fresh: bool = False) -> set[datetime]:
    request = pb.GetFreeSlotsRequest(
        calendar_id=CALENDAR_ID,
        range=time_range(MONDAY, MONDAY + timedelta(days=1)),
        duration_minutes=60,
        read_mode=pb.READ_MODE_FRESH if fresh else pb.READ_MODE_CACHED,
    )
    async with grpc.aio.insecure_channel(f"127.0.0.1:{app.port}") as channel:
        stub: pb_grpc.CalendarServiceAsyncStub = pb_grpc.CalendarServiceStub(channel)
        reply = await stub.GetFreeSlots(request, metadata=AUTH)
    return {stamp.ToDatetime(tzinfo=UTC) for stamp in reply.slot_starts}


async def followed(app: CalendarApp, emulator: Emulator) -> GoogleChangeFeed:
    """The service's feed once its channel on the calendar is open (and synced)."""
    feed = app.calendar.feed
    assert isinstance(feed, GoogleChangeFeed)
    for _ in range(500):
        if feed.assured_seconds(CALENDAR_ID) > 0:
            break
        await asyncio.sleep(0.01)
    await emulator.watch.settled()
    assert feed.assured_seconds(CALENDAR_ID) > 0
    return feed


def advance(app: CalendarApp, seconds: float) -> None:
    clock = app.calendar.blocks.clock
    assert isinstance(clock, Clock)
    clock.now += seconds


async def test_a_followed_calendar_outlives_the_short_ttl_until_google_pushes_a_change(
    app: CalendarApp, emulator: Emulator
) -> None:
    assert TEN in await starts(app)  # a miss: one call, then the calendar is followed
    await followed(app, emulator)
    advance(app, 20)  # past the short TTL: what was read before the channel opened expires
    assert TEN in await starts(app)
    calls = emulator.faults.count(FREE_BUSY)

    advance(app, 300)  # far past the short TTL, within the followed one
    assert TEN in await starts(app)
    assert emulator.faults.count(FREE_BUSY) == calls

    write_in_google(emulator)  # no call through the service: only the push tells it
    await emulator.watch.settled()
    assert TEN not in await starts(app)
    assert emulator.faults.count(FREE_BUSY) == calls + 1


async def test_a_notification_without_the_channel_token_changes_nothing(
    app: CalendarApp, emulator: Emulator
) -> None:
    await starts(app)
    feed = await followed(app, emulator)
    channel_id = next(iter(emulator.watch.channels))
    address = emulator.watch.channels[channel_id].address
    calls = emulator.faults.count(FREE_BUSY)
    async with ClientSession() as session:
        forged = {"X-Goog-Channel-ID": channel_id, "X-Goog-Resource-State": "exists"}
        async with session.post(address, headers=forged) as reply:
            assert reply.status == 404
        forged["X-Goog-Channel-Token"] = "guessed"
        async with session.post(address, headers=forged) as reply:
            assert reply.status == 404

    await starts(app)
    assert emulator.faults.count(FREE_BUSY) == calls
    assert feed.notifications == 1  # only the channel's own sync


async def test_fresh_reads_still_always_ask_google(app: CalendarApp, emulator: Emulator) -> None:
    await starts(app)
    await followed(app, emulator)
    calls = emulator.faults.count(FREE_BUSY)
    write_in_google(emulator)  # pushed, but a fresh read does not wait for that
    assert TEN not in await starts(app, fresh=True)
    assert emulator.faults.count(FREE_BUSY) == calls + 1


async def test_the_push_of_a_booking_made_through_the_service_keeps_the_cache(
    app: CalendarApp, emulator: Emulator
) -> None:
    """Our own booking is pushed too; it is in the cache already, so that push is consumed
    (a later change made elsewhere is still pushed and drops it)."""
    await starts(app)
    feed = await followed(app, emulator)
    advance(app, 20)
    await starts(app)  # read again now that the channel is open: followed TTL
    request = pb.CreateEventRequest(
        calendar_id=CALENDAR_ID,
        summary="booked through the service",
        time=time_range(TEN, TEN + timedelta(hours=1)),
        idempotency_key="watch-1",
    )
    async with grpc.aio.insecure_channel(f"127.0.0.1:{app.port}") as channel:
        stub: pb_grpc.CalendarServiceAsyncStub = pb_grpc.CalendarServiceStub(channel)
        await stub.CreateEvent(request, metadata=AUTH)
    await emulator.watch.settled()
    calls = emulator.faults.count(FREE_BUSY)

    assert feed.notifications == 2  # sync, then the booking's own push
    assert TEN not in await starts(app)
    assert emulator.faults.count(FREE_BUSY) == calls

    emulator.state.insert(
        CALENDAR_ID,
        {
            "summary": "booked in Google directly",
            "start": {"dateTime": (TEN + timedelta(hours=2)).isoformat()},
            "end": {"dateTime": (TEN + timedelta(hours=3)).isoformat()},
        },
    )
    await emulator.watch.settled()
    assert TEN + timedelta(hours=2) not in await starts(app)
    assert emulator.faults.count(FREE_BUSY) == calls + 1
