"""Inputs a caller can send that answered INTERNAL (session 43's adversarial review, acting as
another product), on both backends over gRPC: each is INVALID_ARGUMENT naming its field now,
and nothing is written. A page or sync token of JSON nested thousands deep; an all-day event
in a zone no zone database has, on a calendar with no zone of its own; an all-day date in year
1 (Tokyo's midnight is in year 0); an event shorter than a millisecond (stored truncated to
the millisecond, it was an empty event kept and replayed as INTERNAL); instants at the end of
year 9999 (a free/busy read cut into windows overflowed)."""

from __future__ import annotations

import base64
from datetime import UTC, datetime, timedelta

import grpc
import pytest

from agenda.calendar.v1 import calendar_service_pb2 as pb
from agenda_kit.errors import details_of
from tests.calendar_service.integration.test_event_model import (
    T0,
    Running,
    running,  # noqa: F401  (the fixture, on both backends)
    span,
    stamp,
)
from tests.fakes.google_fixtures import CALENDAR_ID

pytest_plugins = ["tests.kit.mongo_fixtures"]
DEEP = base64.urlsafe_b64encode(b"[" * 3000).decode().rstrip("=")
END_OF_TIME = datetime(9999, 12, 31, 23, 0, tzinfo=UTC)


def _all_day(first: str, last: str, zone: str, key: str) -> pb.CreateEventRequest:
    return pb.CreateEventRequest(
        calendar_id=CALENDAR_ID,
        summary="Day off",
        idempotency_key=key,
        time_zone=zone,
        all_day=pb.DateSpan(start_date=first, end_date=last),
    )


def _sub_millisecond() -> pb.CreateEventRequest:
    at = T0 + timedelta(microseconds=100)
    within = pb.TimeRange(start=stamp(at), end=stamp(at + timedelta(microseconds=800)))
    return pb.CreateEventRequest(
        calendar_id=CALENDAR_ID, summary="Blink", idempotency_key="blink", time=within
    )


CASES = [
    ("deep page token", "ListEvents",
     lambda: pb.ListEventsRequest(calendar_id=CALENDAR_ID, range=span(T0), page_token=DEEP)),
    ("deep sync token", "ListEvents",
     lambda: pb.ListEventsRequest(calendar_id=CALENDAR_ID, sync_token=DEEP)),
    ("all-day in an unknown zone", "CreateEvent",
     lambda: _all_day("2032-04-06", "2032-04-07", "Not/AZone", "zone")),
    ("all-day in year 1", "CreateEvent",
     lambda: _all_day("0001-01-01", "0001-01-02", "Asia/Tokyo", "year-1")),
    ("an event shorter than a millisecond", "CreateEvent", _sub_millisecond),
    ("free/busy at the end of year 9999", "QueryFreeBusy",
     lambda: pb.QueryFreeBusyRequest(calendar_ids=[CALENDAR_ID], range=span(END_OF_TIME, 30))),
    *[(f"a zone file that is no zone: {zone}", "CreateEvent",
       lambda zone=zone: pb.CreateEventRequest(calendar_id=CALENDAR_ID, summary="Zoned",
                                               idempotency_key=f"z-{zone}", time=span(T0),
                                               time_zone=zone))
      for zone in ("localtime", "Factory", "posixrules", "posix/America/Sao_Paulo", "right/UTC")],
    *[(f"an event id of dots: {dots}", method,
       lambda dots=dots, request=request: request(calendar_id=CALENDAR_ID, event_id=dots))
      for dots in (".", "..")
      for method, request in (("GetEvent", pb.GetEventRequest),
                              ("CancelEvent", pb.CancelEventRequest))],
    ("an event at the end of year 9999", "CreateEvent",
     lambda: pb.CreateEventRequest(calendar_id=CALENDAR_ID, summary="Late",
                                   idempotency_key="late", time=span(END_OF_TIME, 30))),
]  # fmt: skip


GOOGLE_ANSWERS = {
    "deep page token": "Google's own tokens: the emulator answers them as Google does",
    "deep sync token": "Google's own tokens: the emulator answers them as Google does",
    "all-day in an unknown zone": "a Google calendar always has its own zone, used instead",
}


@pytest.mark.parametrize(("name", "method", "build"), CASES, ids=[c[0] for c in CASES])
async def test_a_caller_input_is_refused_as_invalid_never_internal(
    running: Running,  # noqa: F811
    name: str,
    method: str,
    build: object,
) -> None:
    request = build()  # type: ignore[operator]
    if running.backend == "google" and name in GOOGLE_ANSWERS:
        pytest.skip(GOOGLE_ANSWERS[name])
    with pytest.raises(grpc.aio.AioRpcError) as refused:
        await running.call(method, request)
    assert refused.value.code() is grpc.StatusCode.INVALID_ARGUMENT, (name, refused.value)
    assert details_of(refused.value).reason == "INVALID_REQUEST", name
    listed = await running.call(
        "ListEvents",
        pb.ListEventsRequest(calendar_id=CALENDAR_ID, range=span(T0 - timedelta(days=1), 4320)),
    )
    assert list(listed.events) == [], name  # nothing was written


@pytest.mark.parametrize("blank", ["", "   ", "\t"])
async def test_an_update_never_blanks_the_summary(running: Running, blank: str) -> None:  # noqa: F811
    """A create refused a blank summary and an update stored one (review acting as another
    product, session 45): a summary an update sets is refused blank, and nothing changes."""
    created = await running.call(
        "CreateEvent",
        pb.CreateEventRequest(
            calendar_id=CALENDAR_ID, summary="Titled", idempotency_key="t", time=span(T0)
        ),
    )
    update = pb.UpdateEventRequest(
        calendar_id=CALENDAR_ID,
        event_id=created.event.event_id,
        event=pb.Event(summary=blank),
        etag=created.event.etag,
    )
    update.update_mask.paths.append("summary")
    with pytest.raises(grpc.aio.AioRpcError) as refused:
        await running.call("UpdateEvent", update)
    assert refused.value.code() is grpc.StatusCode.INVALID_ARGUMENT
    assert details_of(refused.value).reason == "INVALID_REQUEST"
    stored = await running.call(
        "GetEvent", pb.GetEventRequest(calendar_id=CALENDAR_ID, event_id=created.event.event_id)
    )
    assert stored.event.summary == "Titled"


async def test_a_page_token_of_another_listing_is_refused(running: Running) -> None:  # noqa: F811
    """The contract promises INVALID_REQUEST for a page token of another listing; the built-in
    calendar read one as a position in any listing (review acting as another product): a
    token from one range, used with another range, or with cancelled events included, was
    accepted and could skip events silently."""
    for key in ("p1", "p2", "p3"):
        offset = {"p1": 0, "p2": 2, "p3": 4}[key]
        await running.call(
            "CreateEvent",
            pb.CreateEventRequest(
                calendar_id=CALENDAR_ID,
                summary="Paged",
                idempotency_key=key,
                time=span(T0 + timedelta(hours=offset)),
            ),
        )
    listing = pb.ListEventsRequest(calendar_id=CALENDAR_ID, range=span(T0, 600), page_size=1)
    first = await running.call("ListEvents", listing)
    assert first.next_page_token
    same = pb.ListEventsRequest()
    same.CopyFrom(listing)
    same.page_token = first.next_page_token
    assert len((await running.call("ListEvents", same)).events) == 1  # its own listing goes on
    others = [
        pb.ListEventsRequest(calendar_id=CALENDAR_ID, range=span(T0, 300), page_size=1),
        pb.ListEventsRequest(
            calendar_id=CALENDAR_ID, range=span(T0, 600), page_size=1, include_cancelled=True
        ),
    ]
    for other in others:
        other.page_token = first.next_page_token
        code, reason = await running.fails("ListEvents", other)
        assert (code, reason) == (grpc.StatusCode.INVALID_ARGUMENT, "INVALID_REQUEST"), other
