"""An idempotency key names one request, all of it (review 10, F1): a key sent again with a
different value in ANY field of ``CreateEventRequest`` that changes what is written is
``ALREADY_EXISTS IDEMPOTENCY_KEY_REUSED`` on both backends, and nothing is written; the same
request sent again answers the stored event (``created = false``). The fields are read from the
proto message, so a field added later without a variant here fails this test.

What the request is compared with is what the client sent, kept with the key (a fingerprint),
never what the provider stored: a replay after a write whose answer was lost, or after the
provider normalized the event, is still the same request. A record stored before fingerprints
is compared on the fields every record has (start, end, summary, transparency)."""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

import grpc
import pytest
from pymongo import AsyncMongoClient

from agenda.calendar.v1 import calendar_service_pb2 as pb
from agenda_kit.errors import details_of
from agenda_kit.mongo import EmbeddedMongo
from calendar_service.infrastructure.grpc.fingerprint import request_fingerprints
from tests.calendar_service.integration import test_event_model as model
from tests.calendar_service.integration.test_event_model import T0, ZONE, Running, span, stamp
from tests.fakes.google_faults import Fault
from tests.fakes.google_fixtures import CALENDAR_ID

pytest_plugins = ["tests.kit.mongo_fixtures"]
running = model.running  # the fixture: the service on both backends
KEY_SCOPE = frozenset({"idempotency_key", "calendar_id"})
"""The key itself and what scopes it (another calendar's key is another event's)."""


def _base(key: str) -> pb.CreateEventRequest:
    return pb.CreateEventRequest(
        calendar_id=CALENDAR_ID,
        summary="Visit",
        description="first",
        idempotency_key=key,
        time_zone=ZONE,
        time=span(T0),
        private_properties={"bookingId": "1"},
        location="Room 1",
    )


def _all_day(request: pb.CreateEventRequest) -> None:
    request.ClearField("time")
    request.all_day.CopyFrom(pb.DateSpan(start_date="2032-05-01", end_date="2032-05-02"))


VARIANTS: dict[str, Callable[[pb.CreateEventRequest], None]] = {
    "summary": lambda r: setattr(r, "summary", "Visit 2"),
    "description": lambda r: setattr(r, "description", "second"),
    "time": lambda r: r.time.CopyFrom(span(T0 + timedelta(hours=2))),
    "time_zone": lambda r: setattr(r, "time_zone", "Europe/Lisbon"),
    "private_properties": lambda r: r.private_properties.__setitem__("bookingId", "2"),
    "conflict_policy": lambda r: setattr(r, "conflict_policy", pb.CONFLICT_POLICY_ALLOW_OVERLAP),
    "location": lambda r: setattr(r, "location", "Room 2"),
    "attendees": lambda r: r.attendees.append(pb.Attendee(email="guest@example.com")),
    "send_updates": lambda r: setattr(r, "send_updates", pb.SEND_UPDATES_ALL),
    "all_day": _all_day,
    "transparency": lambda r: setattr(r, "transparency", pb.TRANSPARENCY_TRANSPARENT),
}


def test_every_field_of_the_request_has_a_variant() -> None:
    """Every field of CreateEventRequest but the key's scope changes what is written."""
    fields = {f.name for f in pb.CreateEventRequest.DESCRIPTOR.fields}
    assert set(VARIANTS) == fields - KEY_SCOPE


async def _reuse_outcome(running: Running, request: pb.CreateEventRequest) -> tuple[str, str]:
    try:
        await running.call("CreateEvent", request)
    except grpc.aio.AioRpcError as error:
        return error.code().name, details_of(error).reason
    return "OK", ""


@pytest.mark.parametrize("field", sorted(VARIANTS))
async def test_a_key_sent_again_with_another_value_is_refused(
    running: Running,
    field: str,
) -> None:
    first: pb.CreateEventResponse = await running.call("CreateEvent", _base(field))
    changed = _base(field)
    VARIANTS[field](changed)
    assert await _reuse_outcome(running, changed) == ("ALREADY_EXISTS", "IDEMPOTENCY_KEY_REUSED")
    again: pb.CreateEventResponse = await running.call("CreateEvent", _base(field))
    assert (again.created, again.event.event_id) == (False, first.event.event_id)
    assert again.event.private_properties["bookingId"] == "1"
    if running.emulator is not None:
        assert running.emulator.state.events_per_key()[field] == 1


SAME_REQUEST: dict[str, Callable[[pb.CreateEventRequest], None]] = {
    "an explicit default transparency": lambda r: setattr(
        r, "transparency", pb.TRANSPARENCY_OPAQUE
    ),
    "an explicit default conflict policy": lambda r: setattr(
        r, "conflict_policy", pb.CONFLICT_POLICY_REJECT
    ),
    "an explicit default send_updates": lambda r: setattr(r, "send_updates", pb.SEND_UPDATES_NONE),
    "instants differing below the millisecond": lambda r: r.time.CopyFrom(
        pb.TimeRange(
            start=stamp(T0 + timedelta(microseconds=300)),
            end=stamp(T0 + timedelta(minutes=60, microseconds=900)),
        )
    ),
    "the properties in another order": lambda r: r.private_properties.update(
        {"zeta": "z", "alpha": "a"}
    ),
}


@pytest.mark.parametrize("spelling", sorted(SAME_REQUEST))
async def test_the_same_request_spelled_otherwise_is_a_replay(
    running: Running,
    spelling: str,
) -> None:
    key = f"same-{len(spelling)}"
    base = _base(key)
    if spelling == "the properties in another order":
        base.private_properties.update({"alpha": "a", "zeta": "z"})
    first: pb.CreateEventResponse = await running.call("CreateEvent", base)
    again = _base(key)
    SAME_REQUEST[spelling](again)
    replay: pb.CreateEventResponse = await running.call("CreateEvent", again)
    assert (replay.created, replay.event.event_id) == (False, first.event.event_id)


async def test_an_empty_zone_and_utc_are_one_request(running: Running) -> None:
    base = _base("utc")
    base.time_zone = ""
    first: pb.CreateEventResponse = await running.call("CreateEvent", base)
    base.time_zone = "UTC"
    replay: pb.CreateEventResponse = await running.call("CreateEvent", base)
    assert (replay.created, replay.event.event_id) == (False, first.event.event_id)


async def test_a_replay_after_the_answer_was_lost_compares_what_was_sent(
    running: Running,
) -> None:
    """Google stored the event and the answer never came back; then the provider (or anyone)
    changed the stored text. The same request is still a replay; another is still refused."""
    if running.emulator is None:
        pytest.skip("a provider fault: Google only")
    emulator = running.emulator
    emulator.faults.fail_always("events.insert", Fault.store_then_drop())
    assert (await _reuse_outcome(running, _base("lost")))[0] == "UNAVAILABLE"
    emulator.faults.clear()
    (stored,) = [e for e in emulator.state.events() if e.data["summary"] == "Visit"]
    stored.data["description"] = "<b>first</b>"  # as a provider may normalize it
    replay: pb.CreateEventResponse = await running.call("CreateEvent", _base("lost"))
    assert replay.created is False
    changed = _base("lost")
    changed.private_properties["bookingId"] = "2"
    assert await _reuse_outcome(running, changed) == ("ALREADY_EXISTS", "IDEMPOTENCY_KEY_REUSED")


@pytest.mark.parametrize("kept", ["none", "v1"])
async def test_a_key_kept_before_the_current_fingerprint_still_replays(
    running: Running,
    embedded_mongo: EmbeddedMongo,
    database_name: str,
    kept: str,
) -> None:
    """No fingerprint kept with the key (a record stored before fingerprints): start, end,
    summary and transparency decide (what every stored record has), so another description
    still replays, never INTERNAL. A v1 fingerprint (kept before attendees were a set): the
    same request replays after the upgrade. Either way another summary is refused."""
    first: pb.CreateEventResponse = await running.call("CreateEvent", _base(kept))
    fingerprint = None if kept == "none" else request_fingerprints(_base(kept))[1]
    await _keep_fingerprint(
        running, embedded_mongo, database_name, first.event.event_id, fingerprint
    )
    again = _base(kept)
    if fingerprint is None:
        again.description = "second"
    replay: pb.CreateEventResponse = await running.call("CreateEvent", again)
    assert (replay.created, replay.event.event_id) == (False, first.event.event_id)
    again.summary = "Visit 2"
    assert await _reuse_outcome(running, again) == ("ALREADY_EXISTS", "IDEMPOTENCY_KEY_REUSED")


async def test_the_request_is_still_a_replay_after_the_event_changed(running: Running) -> None:
    """An update (of the references too: Google replaces them whole) keeps what the key
    promised; the original request sent again answers the event as it is now."""
    first: pb.CreateEventResponse = await running.call("CreateEvent", _base("changed"))
    update = pb.UpdateEventRequest(
        calendar_id=CALENDAR_ID,
        event_id=first.event.event_id,
        event=pb.Event(summary="Moved visit", private_properties={"bookingId": "9"}),
    )
    update.update_mask.paths.extend(["summary", "private_properties"])
    await running.call("UpdateEvent", update)
    replay: pb.CreateEventResponse = await running.call("CreateEvent", _base("changed"))
    assert (replay.created, replay.event.summary) == (False, "Moved visit")
    assert dict(replay.event.private_properties) == {"bookingId": "9"}


def _over_busy(rng: random.Random, key: str, busy_start: datetime) -> pb.CreateEventRequest:
    """``_base(key)`` changed in a random way, at a random time overlapping the hour from
    ``busy_start`` (another event's)."""
    changed = _base(key)
    start = busy_start + timedelta(minutes=rng.randrange(-45, 60, 5))
    changed.time.CopyFrom(span(start, rng.choice([15, 30, 60, 90])))
    for field in rng.sample(["summary", "description", "location", "private_properties"], k=2):
        if rng.random() < 0.5:
            VARIANTS[field](changed)
    return changed


async def test_a_reused_key_over_a_busy_slot_is_the_key_reused(running: Running) -> None:
    """A property over generated requests (seeded): a key sent again with another request
    whose time another event takes is refused for the key, never for the slot — the key is
    checked first, whether its own event is live or cancelled, on both backends."""
    rng = random.Random(20261208)
    busy_start = T0 + timedelta(hours=4)
    await running.create("busy", time=span(busy_start))
    outcomes: list[tuple[str, str]] = []
    for index in range(16):
        key = f"over-busy-{index}"
        own = _base(key)
        own.time.CopyFrom(span(T0 + timedelta(days=index + 1)))
        first: pb.CreateEventResponse = await running.call("CreateEvent", own)
        if index % 4 == 3:
            cancel = pb.CancelEventRequest(calendar_id=CALENDAR_ID, event_id=first.event.event_id)
            await running.call("CancelEvent", cancel)
        outcomes.append(await _reuse_outcome(running, _over_busy(rng, key, busy_start)))
    wrong = [o for o in outcomes if o != ("ALREADY_EXISTS", "IDEMPOTENCY_KEY_REUSED")]
    assert not wrong, f"{len(wrong)} of {len(outcomes)} generated cases answered {set(wrong)}"


async def test_the_same_attendees_in_another_order_and_case_are_a_replay(
    running: Running,
) -> None:
    """Attendees are a set of addresses compared without case (the proto's ``unordered`` and
    ``case_insensitive`` marks; the fingerprint is the edge's, one rule for both backends)."""
    if running.emulator is not None:
        pytest.skip("this service account may not invite on the emulator (no delegation)")
    base = _base("people")
    base.attendees.extend(
        [pb.Attendee(email="ana@example.com"), pb.Attendee(email="bo@example.org", optional=True)]
    )
    first: pb.CreateEventResponse = await running.call("CreateEvent", base)
    again = _base("people")
    again.attendees.extend(
        [pb.Attendee(email="Bo@Example.org", optional=True), pb.Attendee(email="ANA@example.com")]
    )
    replay: pb.CreateEventResponse = await running.call("CreateEvent", again)
    assert (replay.created, replay.event.event_id) == (False, first.event.event_id)


async def _keep_fingerprint(
    running: Running,
    embedded_mongo: EmbeddedMongo,
    database_name: str,
    event_id: str,
    fingerprint: str | None,
) -> None:
    """Keep ``fingerprint`` with the event instead of its own (None: none, as before
    fingerprints)."""
    if running.emulator is not None:
        stored = running.emulator.state.get(CALENDAR_ID, event_id)
        private = stored.data["extendedProperties"]["private"]
        assert private.pop("requestFingerprint", None) is not None
        if fingerprint is not None:
            private["requestFingerprint"] = fingerprint
        return
    change = (
        {"$unset": {"fingerprint": ""}}
        if fingerprint is None
        else {"$set": {"fingerprint": fingerprint}}
    )
    client: AsyncMongoClient[Any] = AsyncMongoClient(embedded_mongo.uri)
    try:
        result = await client[database_name]["events"].update_one({"_id": event_id}, change)
        assert result.modified_count == 1
    finally:
        await client.close()
