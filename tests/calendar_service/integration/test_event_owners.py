"""Issue 9, calendar ownership, through the real calendar service on both backends (Google
through the emulator, and the local MongoDB calendar): events carry their writer as
``extendedProperties.private.agendaOwner`` plus the writer's opaque references; another
principal on the same (shared) calendar cannot read, list or cancel them, nor take over their
idempotency key; a calendar outside a principal's grants is refused before anything is
written (the local backend creates no calendar for it)."""

from __future__ import annotations

import base64
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import grpc
import pytest
from google.protobuf.timestamp_pb2 import Timestamp
from pymongo import AsyncMongoClient

from agenda.calendar.v1 import calendar_service_pb2 as pb
from agenda.calendar.v1 import calendar_service_pb2_grpc as pb_grpc
from agenda_kit.auth.directory import token_hash
from agenda_kit.errors import details_of
from agenda_kit.mongo import EmbeddedMongo
from agenda_kit.settings import SharedSettings
from calendar_service.bootstrap import CalendarApp, bootstrap
from calendar_service.infrastructure.settings import Backend
from tests.calendar_service.integration.backends import service_settings
from tests.fakes.google_calendar import Emulator
from tests.fakes.google_fixtures import CALENDAR_ID, ServiceAccount

pytest_plugins = ["tests.kit.mongo_fixtures"]
T0 = datetime(2032, 3, 1, 8, 0, tzinfo=UTC)
TOKENS = {"x": "token-of-x-0123456789", "y": "token-of-y-0123456789"}


def _stamp(value: datetime) -> Timestamp:
    result = Timestamp()
    result.FromDatetime(value)
    return result


def _principals(directory: Path) -> Path:
    tables = "".join(
        f'[[principal]]\nname = "{who}"\nrole = "calendar-client"\n'
        f'token_sha256 = ["{token_hash(token)}"]\n'
        f'calendars = [{{ pattern = "{CALENDAR_ID}", write = true }}]\n'
        for who, token in TOKENS.items()
    )
    path = directory / "principals.toml"
    path.write_text(tables)
    return path


@dataclass
class Running:
    stub: pb_grpc.CalendarServiceAsyncStub
    backend: str
    emulator: Emulator | None
    mongo: AsyncMongoClient[Any] | None
    database: str

    async def call(self, who: str, method: str, request: Any) -> Any:
        auth = (("authorization", f"Bearer {TOKENS[who]}"),)
        return await getattr(self.stub, method)(request, metadata=auth, timeout=10)

    async def answer(self, who: str, method: str, request: Any) -> tuple[Any, ...]:
        """Everything a caller learns from an answer: code, message, details, result."""
        try:
            result = await self.call(who, method, request)
        except grpc.aio.AioRpcError as error:
            return error.code(), error.details(), details_of(error)
        return grpc.StatusCode.OK, str(result)

    async def code(self, who: str, method: str, request: Any) -> grpc.StatusCode:
        try:
            await self.call(who, method, request)
        except grpc.aio.AioRpcError as error:
            return error.code()
        return grpc.StatusCode.OK


@pytest.fixture(params=["google", "local"])
async def running(
    request: pytest.FixtureRequest,
    tmp_path: Path,
    emulator: Emulator,
    service_account: ServiceAccount,
    embedded_mongo: EmbeddedMongo,
) -> AsyncIterator[Running]:
    database = f"owners_{request.param}_{id(tmp_path) % 100000}"
    settings = service_settings(
        Backend(request.param), emulator, service_account, database=database
    )
    shared = SharedSettings(
        AGENDA_DATA_DIR=tmp_path,
        AGENDA_PRINCIPALS_FILE=_principals(tmp_path),
        MONGODB_URI=embedded_mongo.uri,
    )
    app: CalendarApp = await bootstrap(settings, shared)
    await app.start()
    mongo: AsyncMongoClient[Any] = AsyncMongoClient(embedded_mongo.uri)
    try:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{app.port}") as channel:
            yield Running(
                pb_grpc.CalendarServiceStub(channel),
                request.param,
                emulator if request.param == "google" else None,
                mongo if request.param == "local" else None,
                database,
            )
    finally:
        await app.stop(0)
        await mongo.drop_database(database)
        await mongo.close()


def _create(key: str, calendar: str = CALENDAR_ID, **extra: Any) -> pb.CreateEventRequest:
    extra.setdefault("time", pb.TimeRange(start=_stamp(T0), end=_stamp(T0 + timedelta(minutes=30))))
    return pb.CreateEventRequest(
        calendar_id=calendar,
        summary="Corte — Ana",
        description="Booked through Agenda.",
        idempotency_key=key,
        **extra,
    )


def _range() -> pb.TimeRange:
    return pb.TimeRange(start=_stamp(T0 - timedelta(days=1)), end=_stamp(T0 + timedelta(days=1)))


async def test_events_carry_their_owner_and_hide_from_other_principals(running: Running) -> None:
    refs = {"agendaAppointment": "7d1c0a4e", "agendaTenant": "3f0c"}
    created = await running.call("x", "CreateEvent", _create("k-1", private_properties=refs))
    event = created.event
    assert (event.owner, dict(event.private_properties)) == ("x", refs)
    if running.emulator is not None:
        stored = running.emulator.state.get(CALENDAR_ID, event.event_id).data
        private = dict(stored["extendedProperties"]["private"])
        assert private.pop("requestFingerprint").startswith("v2:")  # what the key promises
        assert private == refs | {"agendaOwner": "x", "idempotencyKey": "k-1"}
    get = pb.GetEventRequest(calendar_id=CALENDAR_ID, event_id=event.event_id)
    cancel = pb.CancelEventRequest(calendar_id=CALENDAR_ID, event_id=event.event_id)
    window = pb.TimeRange(
        start=_stamp(T0 - timedelta(hours=1)), end=_stamp(T0 + timedelta(hours=2))
    )
    listing = pb.ListEventsRequest(calendar_id=CALENDAR_ID, range=window, include_cancelled=True)
    assert await running.code("y", "GetEvent", get) == grpc.StatusCode.NOT_FOUND
    # Cancelling it is answered as for an id never created (Google: OK, nothing cancelled;
    # local: NOT_FOUND) — the same answer either way, and X's event stays.
    absent = pb.CancelEventRequest(calendar_id=CALENDAR_ID, event_id="0123456789abcdef0123")
    assert await running.answer("y", "CancelEvent", cancel) == await running.answer(
        "y", "CancelEvent", absent
    )  # same code, same message (no id in it), same details
    assert [e.event_id for e in (await running.call("y", "ListEvents", listing)).events] == []
    # Y's reuse of X's key names Y's own event, never X's: at X's time it is refused as
    # taken (the answer names no id); allowed to overlap, it is a new event of Y.
    with pytest.raises(grpc.aio.AioRpcError) as refused:
        await running.call("y", "CreateEvent", _create("k-1"))
    assert refused.value.code() is grpc.StatusCode.FAILED_PRECONDITION
    assert details_of(refused.value).reason == "SLOT_TAKEN"
    assert event.event_id not in str(refused.value.details())
    overlap = _create("k-1", conflict_policy=pb.CONFLICT_POLICY_ALLOW_OVERLAP)
    own = (await running.call("y", "CreateEvent", overlap)).event
    assert (own.owner, own.event_id != event.event_id) == ("y", True)
    assert (
        await running.call(
            "y",
            "CancelEvent",
            pb.CancelEventRequest(calendar_id=CALENDAR_ID, event_id=own.event_id),
        )
    ).cancelled
    # Busy time still counts X's event for Y (free/busy shows no details).
    busy = await running.call(
        "y", "QueryFreeBusy", pb.QueryFreeBusyRequest(calendar_ids=[CALENDAR_ID], range=window)
    )
    assert len(busy.calendars[0].busy) == 1
    # X still sees and cancels its own event.
    assert (await running.call("x", "GetEvent", get)).event.status == "confirmed"
    assert (await running.call("x", "CancelEvent", cancel)).cancelled


async def test_reserved_or_oversized_private_properties_are_invalid(running: Running) -> None:
    for properties in (
        {"agendaOwner": "y"},
        {"idempotencyKey": "other"},
        {f"k{i}": "v" for i in range(21)},
        {"k": "v" * 257},
    ):
        code = await running.code("x", "CreateEvent", _create("k-2", private_properties=properties))
        assert code == grpc.StatusCode.INVALID_ARGUMENT, properties


async def test_an_ungranted_calendar_is_refused_and_not_created(running: Running) -> None:
    code = await running.code("x", "CreateEvent", _create("k-3", calendar="someone-else"))
    assert code == grpc.StatusCode.PERMISSION_DENIED
    if running.mongo is not None:
        calendars = running.mongo[running.database]["calendars"]
        assert await calendars.count_documents({"_id": "someone-else"}) == 0
        assert await running.mongo[running.database]["events"].count_documents({}) == 0


async def test_page_and_feed_tokens_name_no_other_owners_event(running: Running) -> None:
    """Session 43's adversarial review: on the built-in calendar, y's listing with
    ``page_size = 1`` had no event but a page token holding x's event id (and a feed token
    holding when x changed an event): the backend paged every owner's events and the service
    filtered after. Now the backend lists only the caller's own, on both backends."""
    for n in range(3):
        start = T0 + timedelta(hours=n)
        at = pb.TimeRange(start=_stamp(start), end=_stamp(start + timedelta(minutes=30)))
        await running.call("x", "CreateEvent", _create(f"x-{n}", time=at))
    x_ids = {
        e.event_id
        for e in (
            await running.call(
                "x", "ListEvents", pb.ListEventsRequest(calendar_id=CALENDAR_ID, range=_range())
            )
        ).events
    }
    listing = pb.ListEventsRequest(calendar_id=CALENDAR_ID, range=_range(), page_size=1)
    feed = pb.ListEventsRequest(
        calendar_id=CALENDAR_ID, updated_since=_stamp(T0 - timedelta(days=3650)), page_size=1
    )
    for request in (listing, feed):
        page = await running.call("y", "ListEvents", request)
        assert list(page.events) == []
        for token in (page.next_page_token, page.next_sync_token):
            body = token.split(".")[0]  # a sealed token: its body, then its MAC
            decoded = base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)) if body else b""
            assert not any(i.encode() in decoded or i in token for i in x_ids), running.backend
        if running.backend == "local" or request is listing:  # Google's feed: its own tokens
            assert page.next_page_token == "", running.backend  # nothing more of y's to page


async def test_an_owners_feed_ends_with_a_sync_token_it_can_continue(running: Running) -> None:
    """The owner filter must not cost a feed its sync token (a second review of the change
    above: on Google a feed filtered by a private property ends with none, so x's feed could
    never be continued). On Google the feed is filtered by the service, not by Google."""
    await running.call("x", "CreateEvent", _create("feed-1"))
    feed = pb.ListEventsRequest(
        calendar_id=CALENDAR_ID, updated_since=_stamp(T0 - timedelta(days=3650)), page_size=50
    )
    page = await running.call("x", "ListEvents", feed)
    assert [e.owner for e in page.events] == ["x"] and page.next_sync_token, running.backend
    more = pb.ListEventsRequest(calendar_id=CALENDAR_ID, sync_token=page.next_sync_token)
    await running.call("x", "ListEvents", more)
