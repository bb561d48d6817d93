"""A successful Google answer is read through the shape its call expects
(``calendar_service/infrastructure/google/answers.py``): a 2xx body that is not that shape —
cut short, a proxy's HTML page, a JSON array, a field of the wrong type — is the provider
failing (``UNAVAILABLE``, retried first), never an empty listing, an absent event, free time
or ``INTERNAL``.

Review 15 (strict Google stand-in) found, before this rule: a move onto a Google event's time
while ``events.list`` answered a cut body MOVED the event (the listing read as empty: a double
booking); ``GetEvent`` answered ``NOT_FOUND`` for an event that exists; a create Google stored
but answered unreadably was ``NOT_FOUND``; ``items: null`` was ``INTERNAL``; a JSON array read
as an empty listing (``OK``).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import grpc
import pytest
from google.protobuf.timestamp_pb2 import Timestamp

from agenda.calendar.v1 import calendar_service_pb2 as pb
from agenda.calendar.v1 import calendar_service_pb2_grpc as pb_grpc
from agenda_kit.errors import details_of
from agenda_kit.settings import SharedSettings
from calendar_service.bootstrap import CalendarApp, bootstrap
from tests.fakes.google_calendar import Emulator
from tests.fakes.google_faults import Fault
from tests.fakes.google_fixtures import CALENDAR_ID, ServiceAccount, google_settings
from tests.fakes.in_memory_holds import InMemoryHolds

TOKEN = "answers-token"
AUTH = (("authorization", f"Bearer {TOKEN}"),)
T0 = datetime(2032, 3, 2, 9, 0, tzinfo=UTC)
Code = grpc.StatusCode
CUT = b'{"kind": "calendar#events", "items": ['
UNREADABLE = {
    "cut": (CUT, "application/json"),
    "html": (b"<html><body>Sign in</body></html>", "text/html"),
    "array": (b"[]", "application/json"),
    "empty": (b"", "application/json"),
    "wrong types": (b'{"items": null, "calendars": [], "id": 7}', "application/json"),
}


def _stamp(value: datetime) -> Timestamp:
    result = Timestamp()
    result.FromDatetime(value)
    return result


def _range(start: datetime, minutes: int) -> pb.TimeRange:
    return pb.TimeRange(start=_stamp(start), end=_stamp(start + timedelta(minutes=minutes)))


@pytest.fixture
async def stub(
    emulator: Emulator, service_account: ServiceAccount, tmp_path: Path
) -> AsyncIterator[pb_grpc.CalendarServiceAsyncStub]:
    settings = google_settings(
        emulator, service_account, TOKEN, hold_sweep_interval_seconds=0, google_max_attempts=2
    )
    app: CalendarApp = await bootstrap(
        settings, SharedSettings(AGENDA_DATA_DIR=tmp_path), holds=InMemoryHolds()
    )
    await app.start()
    try:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{app.port}") as channel:
            yield pb_grpc.CalendarServiceStub(channel)
    finally:
        await app.stop(0)


async def _code(call: object) -> tuple[Code, str, object]:
    try:
        response = await call  # type: ignore[misc]
    except grpc.aio.AioRpcError as error:
        return error.code(), details_of(error).reason, None
    return Code.OK, "", response


async def _create(stub: pb_grpc.CalendarServiceAsyncStub, key: str, start: datetime) -> pb.Event:
    request = pb.CreateEventRequest(
        calendar_id=CALENDAR_ID, summary="Visit", idempotency_key=key, time=_range(start, 30)
    )
    created: pb.CreateEventResponse = await stub.CreateEvent(request, metadata=AUTH, timeout=20)
    return created.event


def _busy_in_google(emulator: Emulator, start: datetime) -> None:
    """An event a person wrote directly in Google."""
    emulator.state.insert(
        CALENDAR_ID,
        {
            "id": "personal00001",
            "summary": "Dentist",
            "start": {"dateTime": start.isoformat()},
            "end": {"dateTime": (start + timedelta(hours=1)).isoformat()},
        },
    )


@pytest.mark.parametrize("label", sorted(UNREADABLE))
async def test_a_move_never_reads_an_unreadable_listing_as_free_time(
    stub: pb_grpc.CalendarServiceAsyncStub, emulator: Emulator, label: str
) -> None:
    event = await _create(stub, "k-move", T0)
    busy = T0 + timedelta(hours=3)
    _busy_in_google(emulator, busy)
    body, content_type = UNREADABLE[label]
    emulator.faults.fail_always("events.list", Fault.answer(body, content_type=content_type))
    move = pb.MoveEventRequest(
        calendar_id=CALENDAR_ID,
        event_id=event.event_id,
        time=_range(busy + timedelta(minutes=10), 30),
    )

    code, reason, _ = await _code(stub.MoveEvent(move, metadata=AUTH, timeout=20))

    assert (code, reason) == (Code.UNAVAILABLE, "PROVIDER_UNAVAILABLE")
    assert emulator.state.get(CALENDAR_ID, event.event_id).start == T0  # not moved


@pytest.mark.parametrize("label", sorted(UNREADABLE))
async def test_an_unreadable_event_or_listing_is_unavailable_never_absent_empty_or_internal(
    stub: pb_grpc.CalendarServiceAsyncStub, emulator: Emulator, label: str
) -> None:
    event = await _create(stub, "k-read", T0)
    body, content_type = UNREADABLE[label]
    garbage = Fault.answer(body, content_type=content_type)
    emulator.faults.fail_always("events.get", garbage)
    emulator.faults.fail_always("events.list", garbage)
    emulator.faults.fail_always("freeBusy", garbage)
    get = pb.GetEventRequest(calendar_id=CALENDAR_ID, event_id=event.event_id)
    listing = pb.ListEventsRequest(calendar_id=CALENDAR_ID, range=_range(T0, 600))
    slots = pb.GetFreeSlotsRequest(
        calendar_id=CALENDAR_ID,
        range=_range(T0, 600),
        duration_minutes=30,
        read_mode=pb.READ_MODE_FRESH,
    )

    answers = [
        await _code(stub.GetEvent(get, metadata=AUTH, timeout=20)),
        await _code(stub.ListEvents(listing, metadata=AUTH, timeout=20)),
        await _code(stub.GetFreeSlots(slots, metadata=AUTH, timeout=20)),
    ]

    assert [(code, reason) for code, reason, _ in answers] == [
        (Code.UNAVAILABLE, "PROVIDER_UNAVAILABLE")
    ] * 3


async def test_a_busy_interval_that_is_no_instant_is_unavailable_not_internal(
    stub: pb_grpc.CalendarServiceAsyncStub, emulator: Emulator
) -> None:
    answer = (
        b'{"calendars": {"%s": {"busy": [{"start": "soon", "end": "later"}]}}}'
        % CALENDAR_ID.encode()
    )
    emulator.faults.fail_always("freeBusy", Fault.answer(answer, content_type="application/json"))
    slots = pb.GetFreeSlotsRequest(
        calendar_id=CALENDAR_ID, range=_range(T0, 600), duration_minutes=30
    )

    code, reason, _ = await _code(stub.GetFreeSlots(slots, metadata=AUTH, timeout=20))

    assert (code, reason) == (Code.UNAVAILABLE, "PROVIDER_UNAVAILABLE")


async def test_a_create_google_stored_but_answered_unreadably_is_one_event_never_not_found(
    stub: pb_grpc.CalendarServiceAsyncStub, emulator: Emulator
) -> None:
    emulator.faults.fail_next("events.insert", Fault.store_then_garble(b"<html>oops</html>"))
    request = pb.CreateEventRequest(
        calendar_id=CALENDAR_ID, summary="Visit", idempotency_key="k-garbled", time=_range(T0, 30)
    )

    first = await _code(stub.CreateEvent(request, metadata=AUTH, timeout=20))
    again = await _code(stub.CreateEvent(request, metadata=AUTH, timeout=20))

    assert first[0] in (Code.OK, Code.UNAVAILABLE), first
    assert again[0] is Code.OK
    assert len(emulator.state.events(CALENDAR_ID)) == 1


async def test_an_unreadable_token_answer_is_the_endpoint_failing_not_refused_credentials(
    stub: pb_grpc.CalendarServiceAsyncStub, emulator: Emulator
) -> None:
    emulator.faults.fail_always("token", Fault.answer(b"<html>proxy</html>"))
    emulator.oauth.revoke_all()  # the next call needs a new token
    slots = pb.GetFreeSlotsRequest(
        calendar_id=CALENDAR_ID, range=_range(T0, 600), duration_minutes=30
    )

    code, reason, _ = await _code(stub.GetFreeSlots(slots, metadata=AUTH, timeout=20))
    emulator.faults.clear()
    after = await _code(stub.GetFreeSlots(slots, metadata=AUTH, timeout=20))

    assert (code, reason) == (Code.UNAVAILABLE, "PROVIDER_UNAVAILABLE")
    assert after[0] is Code.OK  # no credentials gate was closed
