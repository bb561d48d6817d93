"""The event model other products need, through the calendar service on both backends (Google
through the strict emulator, the MongoDB calendar): location and attendees, all-day events in
the calendar's own zone, transparency, updates by field mask with etag preconditions, the
change feed (updated_since, sync tokens, cancellations included), the private-property filter,
recurring instances — and 0 requests the emulator refused for their shape."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import grpc
import pytest
from google.protobuf.timestamp_pb2 import Timestamp

from agenda.calendar.v1 import calendar_service_pb2 as pb
from agenda.calendar.v1 import calendar_service_pb2_grpc as pb_grpc
from agenda_kit.errors import details_of
from agenda_kit.mongo import EmbeddedMongo
from agenda_kit.settings import SharedSettings
from calendar_service.bootstrap import CalendarApp, bootstrap
from calendar_service.infrastructure.settings import Backend
from tests.calendar_service.integration.backends import service_settings
from tests.fakes.google_calendar import Emulator
from tests.fakes.google_fixtures import CALENDAR_ID, ServiceAccount

pytest_plugins = ["tests.kit.mongo_fixtures"]
TOKEN = "event-model-token"
AUTH = (("authorization", f"Bearer {TOKEN}"),)
ZONE = "America/Sao_Paulo"
T0 = datetime(2032, 4, 6, 13, 0, tzinfo=UTC)  # a Tuesday, 10:00 in São Paulo


def stamp(value: datetime) -> Timestamp:
    result = Timestamp()
    result.FromDatetime(value)
    return result


def span(start: datetime, minutes: int = 60) -> pb.TimeRange:
    return pb.TimeRange(start=stamp(start), end=stamp(start + timedelta(minutes=minutes)))


@dataclass
class Running:
    stub: pb_grpc.CalendarServiceAsyncStub
    backend: str
    emulator: Emulator | None

    async def call(self, method: str, request: Any) -> Any:
        return await getattr(self.stub, method)(request, metadata=AUTH, timeout=10)

    async def fails(self, method: str, request: Any) -> tuple[grpc.StatusCode, str]:
        with pytest.raises(grpc.aio.AioRpcError) as caught:
            await self.call(method, request)
        return caught.value.code(), details_of(caught.value).reason

    async def create(self, key: str, **fields: Any) -> pb.Event:
        fields.setdefault("time", span(T0))
        request = pb.CreateEventRequest(
            calendar_id=CALENDAR_ID, summary="Visit", idempotency_key=key, time_zone=ZONE, **fields
        )
        created: pb.CreateEventResponse = await self.call("CreateEvent", request)
        return created.event


@pytest.fixture(params=["google", "local"])
async def running(
    request: pytest.FixtureRequest,
    tmp_path: Path,
    emulator: Emulator,
    service_account: ServiceAccount,
    embedded_mongo: EmbeddedMongo,
    database_name: str,
) -> AsyncIterator[Running]:
    backend = Backend(request.param)
    if backend is Backend.GOOGLE:
        emulator.state.zones[CALENDAR_ID] = ZONE
    settings = service_settings(
        backend, emulator, service_account, database=database_name, auth_tokens=[TOKEN]
    )
    shared = SharedSettings(AGENDA_DATA_DIR=tmp_path, MONGODB_URI=embedded_mongo.uri)
    app: CalendarApp = await bootstrap(settings, shared)
    await app.start()
    try:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{app.port}") as channel:
            google = emulator if request.param == "google" else None
            yield Running(pb_grpc.CalendarServiceStub(channel), request.param, google)
            if google is not None:
                assert sum(google.state.schema_violations.values()) == 0
    finally:
        await app.stop(0)


async def test_location_attendees_created_updated_and_etag(running: Running) -> None:
    guest = pb.Attendee(email="guest@example.com", display_name="Guest")
    if running.backend == "google":  # a service account without delegation may not invite
        code, reason = await running.fails(
            "CreateEvent",
            pb.CreateEventRequest(
                calendar_id=CALENDAR_ID,
                summary="Visit",
                idempotency_key="invite",
                time=span(T0),
                attendees=[guest],
                send_updates=pb.SEND_UPDATES_ALL,
            ),
        )
        assert (code, reason) == (grpc.StatusCode.FAILED_PRECONDITION, "ATTENDEES_NOT_ALLOWED")
        event = await running.create("k1", location="Rua das Flores, 123")
    else:
        event = await running.create("k1", location="Rua das Flores, 123", attendees=[guest])
        assert [(a.email, a.response_status) for a in event.attendees] == [
            ("guest@example.com", "needsAction")
        ]
    assert event.location == "Rua das Flores, 123"
    assert event.HasField("create_time") and event.HasField("update_time") and event.etag
    assert event.transparency == pb.TRANSPARENCY_OPAQUE


async def test_update_by_mask_with_etag_preconditions(running: Running) -> None:
    event = await running.create("k2", description="first")
    mask_update = pb.UpdateEventRequest(
        calendar_id=CALENDAR_ID,
        event_id=event.event_id,
        event=pb.Event(summary="Renamed", location="Room 2", description="ignored"),
        etag=event.etag,
    )
    mask_update.update_mask.paths.extend(["summary", "location"])
    updated = (await running.call("UpdateEvent", mask_update)).event
    assert (updated.summary, updated.location, updated.description) == (
        "Renamed",
        "Room 2",
        "first",
    )
    assert updated.etag != event.etag and updated.time == event.time
    stale = await running.fails("UpdateEvent", mask_update)  # the etag it was sent with is old
    assert stale == (grpc.StatusCode.ABORTED, "ETAG_MISMATCH")
    bad_mask = pb.UpdateEventRequest(calendar_id=CALENDAR_ID, event_id=event.event_id)
    bad_mask.update_mask.paths.append("owner")
    assert (await running.fails("UpdateEvent", bad_mask))[1] == "INVALID_REQUEST"
    cancel = pb.CancelEventRequest(
        calendar_id=CALENDAR_ID, event_id=event.event_id, etag=event.etag
    )
    assert await running.fails("CancelEvent", cancel) == (grpc.StatusCode.ABORTED, "ETAG_MISMATCH")
    cancel.etag = updated.etag
    assert (await running.call("CancelEvent", cancel)).cancelled


async def test_all_day_events_are_the_calendars_local_dates(running: Running) -> None:
    if running.backend == "local":  # the built-in calendar takes its zone from its first event
        await running.create("zone", time=span(T0 + timedelta(days=30)))
    day = pb.DateSpan(start_date="2032-04-07", end_date="2032-04-08")
    event = await running.create("holiday", time=None, all_day=day)
    local_midnight = datetime(2032, 4, 7, 3, 0, tzinfo=UTC)  # 00:00 in São Paulo
    assert event.time.start.ToDatetime(tzinfo=UTC) == local_midnight
    assert event.time.end.ToDatetime(tzinfo=UTC) == local_midnight + timedelta(days=1)
    assert (event.all_day.start_date, event.all_day.end_date) == ("2032-04-07", "2032-04-08")
    read = (
        await running.call(
            "GetEvent", pb.GetEventRequest(calendar_id=CALENDAR_ID, event_id=event.event_id)
        )
    ).event
    assert read.all_day == event.all_day and read.time == event.time
    inside = await running.fails(
        "CreateEvent",
        pb.CreateEventRequest(
            calendar_id=CALENDAR_ID,
            summary="x",
            idempotency_key="inside",
            time=span(local_midnight + timedelta(hours=12)),
        ),
    )
    assert inside == (grpc.StatusCode.FAILED_PRECONDITION, "SLOT_TAKEN")


async def test_a_transparent_event_leaves_its_time_free(running: Running) -> None:
    await running.create("free", transparency=pb.TRANSPARENCY_TRANSPARENT, time=span(T0, 120))
    busy = await running.call(
        "QueryFreeBusy",
        pb.QueryFreeBusyRequest(
            calendar_ids=[CALENDAR_ID], range=span(T0, 180), read_mode=pb.READ_MODE_FRESH
        ),
    )
    assert list(busy.calendars[0].busy) == []
    over = await running.create("over", time=span(T0 + timedelta(minutes=30)))
    assert over.transparency == pb.TRANSPARENCY_OPAQUE


async def test_change_feed_and_private_property_filter(running: Running) -> None:
    since = datetime(2000, 1, 1, tzinfo=UTC)  # a fresh calendar: every change is new
    first = await running.create("f1", private_properties={"bookingId": "b-1"})
    second = await running.create(
        "f2", time=span(T0 + timedelta(hours=2)), private_properties={"bookingId": "b-2"}
    )
    feed = await running.call(
        "ListEvents", pb.ListEventsRequest(calendar_id=CALENDAR_ID, updated_since=stamp(since))
    )
    assert {e.event_id for e in feed.events} == {first.event_id, second.event_id}
    assert feed.next_sync_token
    cancel = pb.CancelEventRequest(calendar_id=CALENDAR_ID, event_id=first.event_id)
    await running.call("CancelEvent", cancel)
    changes = await running.call(
        "ListEvents",
        pb.ListEventsRequest(calendar_id=CALENDAR_ID, sync_token=feed.next_sync_token),
    )
    cancelled = [e for e in changes.events if e.event_id == first.event_id]
    assert [e.status for e in cancelled] == ["cancelled"]
    mine = await running.call(
        "ListEvents",
        pb.ListEventsRequest(
            calendar_id=CALENDAR_ID,
            range=span(T0 - timedelta(days=1), 3 * 1440),
            private_property_filter={"bookingId": "b-2"},
        ),
    )
    assert [e.event_id for e in mine.events] == [second.event_id]
    mixed = pb.ListEventsRequest(
        calendar_id=CALENDAR_ID, sync_token=feed.next_sync_token, range=span(T0)
    )
    assert (await running.fails("ListEvents", mixed))[1] == "INVALID_REQUEST"


async def test_recurring_instances_name_their_recurring_event(running: Running) -> None:
    if running.emulator is None:  # the built-in calendar has no recurrence
        assert (await running.create("single")).recurring_event_id == ""
        return
    running.emulator.state.insert(
        CALENDAR_ID,
        {
            "id": "standup20320406",
            "summary": "Stand-up",
            "recurringEventId": "standup",
            "start": {"dateTime": "2032-04-06T12:00:00Z"},
            "end": {"dateTime": "2032-04-06T12:15:00Z"},
        },
    )
    read = await running.call(
        "GetEvent", pb.GetEventRequest(calendar_id=CALENDAR_ID, event_id="standup20320406")
    )
    assert read.event.recurring_event_id == "standup"


async def test_a_key_whose_event_was_cancelled_stays_used(running: Running) -> None:
    """Re-sending a cancelled event's create (same key, same content) never books again:
    while its old time is free the answer is the cancelled event (created = false); once
    another event took the time it is SLOT_TAKEN (the guard cannot read a cancelled event
    back to call it a replay). Either way no second event takes the time."""
    first = await running.create("once")
    await running.call(
        "CancelEvent", pb.CancelEventRequest(calendar_id=CALENDAR_ID, event_id=first.event_id)
    )
    again_free = await _outcome(running, "once")
    await running.create("someone-else", time=span(T0))
    again_taken = await _outcome(running, "once")
    assert again_free == ("OK", "cancelled"), running.backend
    assert again_taken == ("FAILED_PRECONDITION", "SLOT_TAKEN"), running.backend
    busy = await running.call(
        "QueryFreeBusy",
        pb.QueryFreeBusyRequest(
            calendar_ids=[CALENDAR_ID], range=span(T0), read_mode=pb.READ_MODE_FRESH
        ),
    )
    assert len(busy.calendars[0].busy) == 1


async def _outcome(running: Running, key: str) -> tuple[str, str]:
    try:
        event = await running.create(key)
    except grpc.aio.AioRpcError as error:
        return error.code().name, details_of(error).reason
    return "OK", event.status


async def test_a_key_replayed_with_another_transparency_is_another_event(running: Running) -> None:
    """Session 43's adversarial review: the same key sent again asking for a transparent
    event answered the stored opaque one as a replay (``created = false``), so the caller was
    never told its event takes the time. Whether an event takes the time is part of what a
    retry must repeat: ``IDEMPOTENCY_KEY_REUSED``."""
    await running.create("busy-once")
    code, reason = await running.fails(
        "CreateEvent",
        pb.CreateEventRequest(
            calendar_id=CALENDAR_ID, summary="Visit", idempotency_key="busy-once",
            time_zone=ZONE, time=span(T0), transparency=pb.TRANSPARENCY_TRANSPARENT,
        ),
    )  # fmt: skip
    assert (code, reason) == (grpc.StatusCode.ALREADY_EXISTS, "IDEMPOTENCY_KEY_REUSED")


async def test_an_update_names_its_fields_by_the_requests_own_path(running: Running) -> None:
    """UpdateEventRequest holds the event's fields under ``event``: every FieldViolation of
    an update names them there (a fourth review found ``event.time`` for one check of the time
    and ``time`` for another, ``private_properties`` and ``all_day`` bare)."""
    event = await running.create("paths")
    cases = {
        "time": pb.Event(time=span(T0, 60 * 24 * 40)),  # longer than 31 days
        "private_properties": pb.Event(private_properties={"a.b": "v"}),
    }
    for path, changed in cases.items():
        request = pb.UpdateEventRequest(
            calendar_id=CALENDAR_ID, event_id=event.event_id, event=changed
        )
        request.update_mask.paths.append(path)
        with pytest.raises(grpc.aio.AioRpcError) as refused:
            await running.call("UpdateEvent", request)
        violations = details_of(refused.value).violations
        assert violations and violations[0][0] == f"event.{path}", (path, violations)
