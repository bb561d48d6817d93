"""One rule per kind of input, on every RPC and both backends (review 10, F3–F5):

- a time zone is checked by one function wherever a request names one: GetFreeSlots accepted
  ``localtime`` (the host's zone), ``Factory``, ``posix/…`` and ``right/…`` that CreateEvent
  and MoveEvent refuse;
- an all-day date is "YYYY-MM-DD" only: ISO week ("2031-W14-1") and basic ("20310402")
  spellings were accepted and stored as other strings;
- text may hold the format characters ordinary writing uses (ZWJ emoji sequences, ZWNJ in
  Persian and Hindi, a soft hyphen, directional marks, a no-break space) and still refuses
  control characters (every ``Cc`` but the line breaks a description allows, line and
  paragraph separators in one-line text, bidirectional embeddings and overrides)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import grpc
import pytest

from agenda.calendar.v1 import calendar_service_pb2 as pb
from agenda_kit.errors import details_of
from calendar_service.domain import validation as rules
from tests.calendar_service.integration import test_event_model as model
from tests.calendar_service.integration.test_event_model import T0, Running, span, stamp
from tests.fakes.google_fixtures import CALENDAR_ID

pytest_plugins = ["tests.kit.mongo_fixtures"]
running = model.running  # the fixture: the service on both backends

NOT_ZONES = ["localtime", "Factory", "posixrules", "right/UTC", "posix/America/New_York",
             "posix/UTC", "right/Europe/Lisbon", "Not/AZone", "utc", "../etc/passwd"]  # fmt: skip


async def _field_refused(running: Running, method: str, request: object) -> str:
    with pytest.raises(grpc.aio.AioRpcError) as refused:
        await running.call(method, request)
    details = details_of(refused.value)
    assert (refused.value.code(), details.reason) == (
        grpc.StatusCode.INVALID_ARGUMENT,
        "INVALID_REQUEST",
    ), method
    return details.violations[0][0]


@pytest.mark.parametrize("zone", NOT_ZONES)
async def test_every_rpc_refuses_the_same_zones(running: Running, zone: str) -> None:
    slots = pb.GetFreeSlotsRequest(
        calendar_id=CALENDAR_ID, range=span(T0, 600), duration_minutes=30, time_zone=zone
    )
    create = pb.CreateEventRequest(
        calendar_id=CALENDAR_ID, summary="Visit", idempotency_key="z", time=span(T0), time_zone=zone
    )
    assert await _field_refused(running, "GetFreeSlots", slots) == "time_zone"
    assert await _field_refused(running, "CreateEvent", create) == "time_zone"


NOT_DATES = ["2031-W14-1", "20310402", "2031-091", "2031-4-2", "2031-04-2", " 2031-04-02",
             "2031-04-02 ", "2031-04-02T00:00", "２０３１-04-02", "2031/04/02"]  # fmt: skip


@pytest.mark.parametrize("spelling", NOT_DATES)
async def test_an_all_day_date_is_yyyy_mm_dd_only(running: Running, spelling: str) -> None:
    for first, last, field in (
        (spelling, "2031-04-10", "all_day.start_date"),
        ("2031-03-30", spelling, "all_day.end_date"),
    ):
        create = pb.CreateEventRequest(
            calendar_id=CALENDAR_ID,
            summary="Off",
            idempotency_key="d",
            all_day=pb.DateSpan(start_date=first, end_date=last),
        )
        assert await _field_refused(running, "CreateEvent", create) == field


HUMAN_TEXT = [
    "👩‍⚕️ Consulta",  # ZWJ emoji sequence
    "👨‍👩‍👧 Família",
    "مریم‌ ملکی",  # ZWNJ, Persian
    "क्‍ष",  # ZWJ, Devanagari
    "Ana\u00adCarolina",  # soft hyphen
    "שלום\u200f Dana",  # right-to-left mark
    "Zoë\u00a0Café",  # no-break space
    "Ana ❤️",
]


@pytest.mark.parametrize("text", HUMAN_TEXT)
async def test_ordinary_text_with_format_characters_is_stored(running: Running, text: str) -> None:
    create = pb.CreateEventRequest(
        calendar_id=CALENDAR_ID,
        summary=text,
        location=text,
        description=f"{text}\n{text}",
        idempotency_key=f"text-{HUMAN_TEXT.index(text)}",
        time=span(T0),
        conflict_policy=pb.CONFLICT_POLICY_ALLOW_OVERLAP,
    )
    created: pb.CreateEventResponse = await running.call("CreateEvent", create)
    assert (created.event.summary, created.event.location) == (text, text)


CONTROLS = [chr(c) for c in [*range(0x00, 0x20), *range(0x7F, 0xA0)]]
SINGLE_LINE_ONLY = ["\u2028", "\u2029"]
BIDI_CONTROLS = [chr(c) for c in [*range(0x202A, 0x202F), *range(0x2066, 0x206A)]]


@pytest.mark.parametrize("character", CONTROLS + SINGLE_LINE_ONLY + BIDI_CONTROLS)
def test_control_characters_stay_refused(character: str) -> None:
    with pytest.raises(rules.InvalidRequestError, match=r"(control|NUL) characters"):
        rules.check_text("summary", f"Ana{character}Lima", longest=100)
    multiline_ok = character in "\t\n\r" or character in SINGLE_LINE_ONLY
    if multiline_ok:
        rules.check_text("description", f"Ana{character}Lima", longest=100, multiline=True)
    else:
        with pytest.raises(rules.InvalidRequestError, match=r"(control|NUL) characters"):
            rules.check_text("description", f"Ana{character}Lima", longest=100, multiline=True)


async def test_a_private_property_key_is_kept_on_every_backend_or_refused(
    running: Running,
) -> None:
    """Google silently drops an extended property whose key is over 44 characters (its
    extended-properties guide; the emulator does too): such a key was accepted (the contract
    said 64) and lost on Google — the create answered OK, the event and a filter on it had
    nothing (review 15). The bound is now Google's, on both backends."""
    longest, over = "k" * rules.MAX_PROPERTY_KEY, "k" * (rules.MAX_PROPERTY_KEY + 1)
    event = await running.create("kept-key", private_properties={longest: "4711"})
    listing = pb.ListEventsRequest(
        calendar_id=CALENDAR_ID, range=span(T0, 600), private_property_filter={longest: "4711"}
    )
    found: pb.ListEventsResponse = await running.call("ListEvents", listing)
    create = pb.CreateEventRequest(
        calendar_id=CALENDAR_ID,
        summary="Visit",
        idempotency_key="lost-key",
        time=span(T0),
        private_properties={over: "4711"},
        conflict_policy=pb.CONFLICT_POLICY_ALLOW_OVERLAP,
    )
    filtered = pb.ListEventsRequest(
        calendar_id=CALENDAR_ID, range=span(T0, 600), private_property_filter={over: "4711"}
    )

    assert event.private_properties[longest] == "4711"
    assert [e.event_id for e in found.events] == [event.event_id]
    assert await _field_refused(running, "CreateEvent", create) == "private_properties"
    assert await _field_refused(running, "ListEvents", filtered) == "private_property_filter"
    if running.emulator is not None:
        assert not running.emulator.state.dropped_properties


async def test_a_property_filter_lists_only_events_holding_every_entry(running: Running) -> None:
    """``private_property_filter``: only events whose properties hold EVERY entry. Google's
    extended-properties guide says repeated constraints are OR'ed (the emulator does so here);
    the service listed what Google returned, so an event holding one entry of two was listed
    (review 15)."""
    if running.emulator is not None:
        running.emulator.state.private_filter_any = True
    both = await running.create("both", private_properties={"a": "1", "b": "2"})
    await running.create("one", time=span(T0 + timedelta(hours=2)), private_properties={"a": "1"})
    await running.create("other", time=span(T0 + timedelta(hours=4)), private_properties={"b": "2"})
    listing = pb.ListEventsRequest(
        calendar_id=CALENDAR_ID, range=span(T0, 600), private_property_filter={"a": "1", "b": "2"}
    )
    feed = pb.ListEventsRequest(
        calendar_id=CALENDAR_ID,
        updated_since=stamp(datetime(2020, 1, 1, tzinfo=UTC)),
        private_property_filter={"a": "1", "b": "2"},
    )

    listed: pb.ListEventsResponse = await running.call("ListEvents", listing)
    changed: pb.ListEventsResponse = await running.call("ListEvents", feed)

    assert [e.event_id for e in listed.events] == [both.event_id]
    assert [e.event_id for e in changed.events] == [both.event_id]
