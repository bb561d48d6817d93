"""A change feed on Google delivers every deletion, as strict as Google is about them.

Google's Event reference: in an incremental listing, "deleted events are only guaranteed to
have the id field populated", and "the get method always returns them". The emulator is that
strict (``EmulatorState.bare_deletions``): a feed gives a deleted event as id and status.
Before this change the adapter dropped such a stub, so a client syncing its events through the
service never learned that one was deleted in Google Calendar (a person deleting it there):
it kept a stale event forever. Now each stub is read whole (its owner, references and times),
so its owner's feed lists it cancelled and another owner's does not; a stub Google no longer
answers whole is an id-only deletion (an ``Event`` without ``time``) that only callers who
see all owners receive, and the gRPC client maps it to ``EventPage.deleted``; a read that
fails otherwise fails the listing, never drops the deletion.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import grpc
import pytest

from agenda.calendar.v1 import calendar_service_pb2 as pb
from agenda.calendar.v1 import calendar_service_pb2_grpc as pb_grpc
from agenda_kit.auth.directory import token_hash
from agenda_kit.calendar.grpc_client import GrpcCalendarAdapter
from agenda_kit.calendar.port import ChangeQuery, DeletedEvent
from agenda_kit.mongo import EmbeddedMongo
from agenda_kit.proto_time import to_timestamp as _stamp
from agenda_kit.settings import SharedSettings
from calendar_service.bootstrap import CalendarApp, bootstrap
from calendar_service.infrastructure.settings import Backend
from tests.calendar_service.integration.backends import service_settings
from tests.fakes.google_calendar import Emulator
from tests.fakes.google_faults import Fault
from tests.fakes.google_fixtures import CALENDAR_ID, ServiceAccount

pytest_plugins = ["tests.kit.mongo_fixtures"]
T0 = datetime(2032, 3, 1, 8, 0, tzinfo=UTC)
SINCE = T0 - timedelta(days=3650)
TOKENS = {"x": "token-of-x-0123456789", "y": "token-of-y-0123456789"}
OPS_TOKEN = "token-of-ops-0123456789"


def _principals(directory: Path) -> Path:
    writers = "".join(
        f'[[principal]]\nname = "{who}"\nrole = "calendar-client"\n'
        f'token_sha256 = ["{token_hash(token)}"]\n'
        f'calendars = [{{ pattern = "{CALENDAR_ID}", write = true }}]\n'
        for who, token in TOKENS.items()
    )
    ops = (
        '[[principal]]\nname = "ops"\nrole = "calendar-client"\n'
        f'token_sha256 = ["{token_hash(OPS_TOKEN)}"]\n'
        f'calendars = [{{ pattern = "{CALENDAR_ID}", all_owners = true }}]\n'
    )
    path = directory / "principals.toml"
    path.write_text(writers + ops)
    return path


@dataclass
class Running:
    stub: pb_grpc.CalendarServiceAsyncStub
    emulator: Emulator
    port: int

    async def call(self, who: str, method: str, request: Any) -> Any:
        token = OPS_TOKEN if who == "ops" else TOKENS[who]
        auth = (("authorization", f"Bearer {token}"),)
        return await getattr(self.stub, method)(request, metadata=auth, timeout=10)

    async def feed(self, who: str) -> list[pb.Event]:
        request = pb.ListEventsRequest(
            calendar_id=CALENDAR_ID, updated_since=_stamp(SINCE), page_size=50
        )
        return list((await self.call(who, "ListEvents", request)).events)

    async def create(self, who: str, key: str, hour: int = 0) -> pb.Event:
        start = T0 + timedelta(hours=hour)
        request = pb.CreateEventRequest(
            calendar_id=CALENDAR_ID,
            summary="Corte — Ana",
            idempotency_key=key,
            time=pb.TimeRange(start=_stamp(start), end=_stamp(start + timedelta(minutes=30))),
        )
        created: pb.CreateEventResponse = await self.call(who, "CreateEvent", request)
        return created.event


@pytest.fixture
async def running(
    tmp_path: Path,
    emulator: Emulator,
    service_account: ServiceAccount,
    embedded_mongo: EmbeddedMongo,
) -> AsyncIterator[Running]:
    database = f"feed_deletions_{id(tmp_path) % 100000}"
    settings = service_settings(Backend.GOOGLE, emulator, service_account, database=database)
    shared = SharedSettings(
        AGENDA_DATA_DIR=tmp_path,
        AGENDA_PRINCIPALS_FILE=_principals(tmp_path),
        MONGODB_URI=embedded_mongo.uri,
    )
    app: CalendarApp = await bootstrap(settings, shared)
    await app.start()
    try:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{app.port}") as channel:
            yield Running(pb_grpc.CalendarServiceStub(channel), emulator, app.port)
    finally:
        await app.stop(0)


def _statuses(events: list[pb.Event]) -> dict[str, tuple[str, bool]]:
    """Each listed event's status and whether it has a time."""
    return {e.event_id: (e.status, e.HasField("time")) for e in events}


async def test_the_emulator_gives_a_deleted_event_in_a_feed_as_a_bare_stub(
    running: Running,
) -> None:
    event = await running.create("x", "stub-1")
    running.emulator.state.delete(CALENDAR_ID, event.event_id)
    stored = running.emulator.state.get(CALENDAR_ID, event.event_id)
    assert stored.cancelled and "start" in stored.data  # kept whole, as events.get gives it
    running.emulator.faults.calls.clear()

    await running.feed("x")

    assert running.emulator.faults.count("events.get") == 1  # the stub, read whole


async def test_a_deletion_made_in_google_reaches_its_owner_and_no_one_else(
    running: Running,
) -> None:
    mine = await running.create("x", "mine-1")
    kept = await running.create("x", "mine-2", hour=1)
    theirs = await running.create("y", "theirs-1", hour=2)
    for event in (mine, theirs):  # a person deletes them in Google Calendar
        running.emulator.state.delete(CALENDAR_ID, event.event_id)

    x_feed = _statuses(await running.feed("x"))
    y_feed = _statuses(await running.feed("y"))
    ops_feed = _statuses(await running.feed("ops"))

    assert x_feed == {mine.event_id: ("cancelled", True), kept.event_id: ("confirmed", True)}
    assert y_feed == {theirs.event_id: ("cancelled", True)}
    assert ops_feed == x_feed | y_feed
    (listed,) = [e for e in await running.feed("x") if e.event_id == mine.event_id]
    assert listed.owner == "x" and listed.time == mine.time


async def test_a_deletion_google_no_longer_describes_goes_by_id_to_all_owner_callers_only(
    running: Running,
) -> None:
    gone = await running.create("x", "gone-1")
    running.emulator.state.delete(CALENDAR_ID, gone.event_id)

    running.emulator.faults.fail_always("events.get", Fault.error(404, "notFound"))
    ops_feed = await running.feed("ops")
    x_feed = await running.feed("x")

    assert _statuses(ops_feed) == {gone.event_id: ("cancelled", False)}
    (stub,) = ops_feed
    assert (stub.calendar_id, stub.owner, stub.summary) == (CALENDAR_ID, "", "")
    assert x_feed == []  # names no owner: x cannot be told it was theirs

    # the project's own gRPC client reads it as a deletion known by id, not as an event
    client = GrpcCalendarAdapter.connect(f"127.0.0.1:{running.port}", token=OPS_TOKEN)
    try:
        page = await client.list_changes(ChangeQuery(calendar_id=CALENDAR_ID, updated_since=SINCE))
    finally:
        await client.close()
    assert page.events == ()
    assert page.deleted == (DeletedEvent(gone.event_id, CALENDAR_ID, stub.etag),)


async def test_a_failed_read_of_a_deletion_fails_the_listing_instead_of_dropping_it(
    running: Running,
) -> None:
    event = await running.create("x", "fails-1")
    running.emulator.state.delete(CALENDAR_ID, event.event_id)
    # refused outright (a 5xx would be retried until the budget is spent: the same outcome)
    running.emulator.faults.fail_always("events.get", Fault.error(403, "forbidden"))

    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await running.feed("x")

    assert caught.value.code() == grpc.StatusCode.FAILED_PRECONDITION  # CALENDAR_ACCESS_DENIED
    running.emulator.faults.clear()
    assert _statuses(await running.feed("x")) == {event.event_id: ("cancelled", True)}
