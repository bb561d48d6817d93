"""The gRPC calendar client against a real calendar server: every calendar error reaches the
client as the port error of its ``ErrorInfo`` reason (metadata and ``RetryInfo`` included),
create-if-free refuses through the client, and the new event model round-trips (update by
field mask, conflict policy, etag, change feed, private-property filter)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest

from agenda_kit.calendar.errors import (
    CalendarAccessDeniedError,
    CalendarCredentialsError,
    CalendarError,
    CalendarNotFoundError,
    CalendarQuotaError,
    CalendarUnavailableError,
    EtagMismatchError,
    EventNotFoundError,
    IdempotencyConflictError,
    InvalidCalendarRequestError,
    SlotTakenError,
)
from agenda_kit.calendar.grpc_client import GrpcCalendarAdapter
from agenda_kit.calendar.port import (
    ChangeQuery,
    ConflictPolicy,
    EventChanges,
    EventDraft,
    Transparency,
)
from calendar_service.bootstrap import CalendarApp
from tests.conftest import TOKEN
from tests.fakes.in_memory_calendar import InMemoryCalendar

MONDAY = datetime(2030, 1, 7, 9, tzinfo=UTC)


@pytest.fixture
async def client(calendar_app: CalendarApp) -> AsyncIterator[GrpcCalendarAdapter]:
    async with GrpcCalendarAdapter.connect(
        f"127.0.0.1:{calendar_app.port}", token=TOKEN, max_attempts=1
    ) as connected:
        yield connected


def draft(key: str, hour: float = 0, minutes: int = 60, **fields: object) -> EventDraft:
    start = MONDAY + timedelta(hours=hour)
    base = EventDraft(
        calendar_id="ana",
        summary="Visit",
        description="",
        start=start,
        end=start + timedelta(minutes=minutes),
        idempotency_key=key,
    )
    return replace(base, **fields)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "error",
    [
        CalendarQuotaError("quota", reason="QUOTA_EXCEEDED", retry_after=42.0),
        CalendarQuotaError("daily", reason="DAILY_LIMIT_EXCEEDED", retry_after=3600.0),
        CalendarUnavailableError(retry_after=2.0),
        CalendarCredentialsError(),
        CalendarAccessDeniedError(reason="ORGANIZER_ONLY"),
        CalendarNotFoundError(),
        EtagMismatchError(),
        SlotTakenError(metadata={"conflictStart": "2030-01-07T09:00:00Z", "heldBy": "event"}),
        InvalidCalendarRequestError("bad", field="time", reason="PROVIDER_REJECTED_REQUEST"),
    ],
    ids=lambda error: error.reason,
)
async def test_each_error_reaches_the_client_by_its_reason(
    client: GrpcCalendarAdapter, in_memory_calendar: InMemoryCalendar, error: CalendarError
) -> None:
    in_memory_calendar.fail_with = error
    with pytest.raises(CalendarError) as caught:
        await client.list_events("ana", MONDAY, MONDAY + timedelta(days=1))
    got = caught.value
    assert (type(got), got.reason, got.metadata) == (type(error), error.reason, error.metadata)
    assert got.retry_after == error.retry_after
    assert str(got) == str(error)
    if isinstance(error, InvalidCalendarRequestError):
        assert isinstance(got, InvalidCalendarRequestError) and got.field == "time"


async def test_create_if_free_refuses_through_the_client_and_overlap_is_explicit(
    client: GrpcCalendarAdapter,
) -> None:
    await client.insert_event(draft("first"))
    with pytest.raises(SlotTakenError) as taken:
        await client.insert_event(draft("second", 0.5))
    assert taken.value.metadata["heldBy"] == "event"
    overlapping, created = await client.insert_event(
        draft("second", 0.5, conflict_policy=ConflictPolicy.ALLOW_OVERLAP)
    )
    assert created
    free, _ = await client.insert_event(draft("free", 0, transparency=Transparency.TRANSPARENT))
    assert free.transparency is Transparency.TRANSPARENT
    with pytest.raises(IdempotencyConflictError):
        await client.insert_event(draft("first", 5))
    assert overlapping.event_id


async def test_update_with_etag_and_the_change_feed_through_the_client(
    client: GrpcCalendarAdapter,
) -> None:
    event, _ = await client.insert_event(draft("mine", private={"bookingId": "b-7"}))
    renamed = await client.update_event(
        "ana", event.event_id, EventChanges(summary="Renamed", location="Room 2", etag=event.etag)
    )
    assert (renamed.summary, renamed.location, renamed.start) == ("Renamed", "Room 2", event.start)
    with pytest.raises(EtagMismatchError):
        await client.update_event("ana", event.event_id, EventChanges(summary="x", etag=event.etag))
    found = await client.list_events(
        "ana", MONDAY, MONDAY + timedelta(days=1), private={"bookingId": "b-7"}
    )
    assert [e.event_id for e in found.events] == [event.event_id]
    since = datetime(2000, 1, 1, tzinfo=UTC)  # every change the fake stamped
    feed = await client.list_changes(ChangeQuery(calendar_id="ana", updated_since=since))
    assert [e.summary for e in feed.events] == ["Renamed"] and feed.next_sync_token
    assert await client.cancel_event("ana", event.event_id, etag=renamed.etag)
    after = await client.list_changes(
        ChangeQuery(calendar_id="ana", sync_token=feed.next_sync_token)
    )
    assert [(e.event_id, e.status) for e in after.events] == [(event.event_id, "cancelled")]
    with pytest.raises(EventNotFoundError):
        await client.update_event("ana", "nope", EventChanges(summary="x"))
