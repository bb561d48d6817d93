"""Beanie documents of the local calendar; only this package sees them.

Instants are stored in UTC with BSON's millisecond precision: ``stored_instant`` is applied on
the way in, so a retried draft compares equal to the stored event.
"""

from __future__ import annotations

import contextlib
from datetime import UTC, date, datetime
from typing import Any, Literal

from beanie import Document, init_beanie
from pymongo import ASCENDING, AsyncMongoClient, IndexModel
from pymongo.errors import OperationFailure

from agenda_kit.calendar.port import Attendee, CalendarEvent, DateSpan, EventDraft, Transparency
from calendar_service.application.idempotency import fingerprint_of
from calendar_service.infrastructure.local.backfill import backfill_busy_days
from calendar_service.infrastructure.local.day_keys import event_day_keys

EventStatus = Literal["confirmed", "cancelled"]
CONFIRMED: EventStatus = "confirmed"
CANCELLED: EventStatus = "cancelled"


def stored_instant(value: datetime) -> datetime:
    """``value`` in UTC truncated to whole milliseconds, as MongoDB keeps it."""
    if value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    utc = value.astimezone(UTC)
    return utc.replace(microsecond=utc.microsecond // 1000 * 1000)


class CalendarDocument(Document):
    """A local calendar, created lazily the first time an event is written to it."""

    id: str  # type: ignore[assignment]  # the calendar id, not an ObjectId
    name: str
    time_zone: str = "UTC"
    created_at: datetime

    class Settings:
        name = "calendars"


LEGACY_KEY_INDEX = "calendar_idempotency_key"
"""The former unique (calendar, key) index: one key per calendar for every owner. Dropped at
start-up: keys are scoped per owner (``calendar_owner_key``)."""


class EventDocument(Document):
    """One event; ``_id`` is derived from (calendar, owner, idempotency key)
    (``calendar_service.domain.event_ids``). ``busy_days``: the keys of the UTC days a
    confirmed opaque event keeps busy (``day_keys``), empty once cancelled or transparent;
    every write that changes start, end, status or transparency sets them. ``version``
    counts writes (the etag); ``updated_at`` is the change feed's order."""

    id: str  # type: ignore[assignment]  # the event id, not an ObjectId
    calendar_id: str
    summary: str
    description: str = ""
    start: datetime
    end: datetime
    time_zone: str = "UTC"
    status: EventStatus = CONFIRMED
    idempotency_key: str
    owner: str = ""
    private: dict[str, str] = {}  # noqa: RUF012 - pydantic copies defaults
    busy_days: list[str] = []  # noqa: RUF012 - pydantic copies defaults
    location: str = ""
    attendees: list[dict[str, Any]] = []  # noqa: RUF012 - pydantic copies defaults
    all_day: list[str] | None = None
    """``[start date, end date)`` as ISO dates for an all-day event."""
    transparency: str = Transparency.OPAQUE.value
    fingerprint: str | None = None
    """The fingerprint of the request that created it (``application.idempotency``); None
    for events stored before fingerprints, or written by a port caller without one."""
    version: int = 1
    created_at: datetime
    updated_at: datetime

    class Settings:
        name = "events"
        indexes = [  # noqa: RUF012 - Beanie reads a plain class attribute
            IndexModel(
                [("calendar_id", ASCENDING), ("owner", ASCENDING), ("idempotency_key", ASCENDING)],
                name="calendar_owner_key",
                unique=True,
            ),
            IndexModel(
                [("calendar_id", ASCENDING), ("updated_at", ASCENDING), ("_id", ASCENDING)],
                name="calendar_updated",
            ),
            IndexModel(
                [("calendar_id", ASCENDING), ("start", ASCENDING), ("_id", ASCENDING)],
                name="calendar_start",
            ),
            IndexModel([("calendar_id", ASCENDING), ("end", ASCENDING)], name="calendar_end"),
            IndexModel([("busy_days", ASCENDING)], name="busy_days"),
        ]

    @classmethod
    def from_domain(cls, draft: EventDraft, event_id: str, now: datetime) -> EventDocument:
        """A new confirmed event for ``draft``."""
        start, end = stored_instant(draft.start), stored_instant(draft.end)
        opaque = draft.transparency is Transparency.OPAQUE
        return cls(
            id=event_id,
            calendar_id=draft.calendar_id,
            summary=draft.summary,
            description=draft.description,
            start=start,
            end=end,
            time_zone=draft.time_zone,
            idempotency_key=draft.idempotency_key,
            owner=draft.owner,
            private=dict(draft.private),
            busy_days=event_day_keys(draft.calendar_id, start, end) if opaque else [],
            location=draft.location,
            attendees=[attendee_fields(a) for a in draft.attendees],
            all_day=dates_of(draft.all_day),
            transparency=draft.transparency.value,
            fingerprint=fingerprint_of(draft) or None,
            created_at=now,
            updated_at=now,
        )

    def to_domain(self) -> CalendarEvent:
        """The event as the port describes it, instants in UTC."""
        return CalendarEvent(
            event_id=self.id,
            calendar_id=self.calendar_id,
            summary=self.summary,
            description=self.description,
            start=stored_instant(self.start),
            end=stored_instant(self.end),
            time_zone=self.time_zone,
            status=self.status,
            idempotency_key=self.idempotency_key,
            owner=self.owner,
            private=dict(self.private),
            location=self.location,
            attendees=tuple(Attendee(**fields) for fields in self.attendees),
            all_day=span_of(self.all_day),
            transparency=Transparency(self.transparency),
            created=stored_instant(self.created_at),
            updated=stored_instant(self.updated_at),
            etag=f'"{self.version}"',
        )

    def matches(self, draft: EventDraft) -> bool:
        """Whether ``draft`` has the fields every stored record has (start, end, summary,
        transparency) of this event: how a record without a fingerprint is compared."""
        return (
            self.owner == draft.owner
            and self.summary == draft.summary
            and stored_instant(self.start) == stored_instant(draft.start)
            and stored_instant(self.end) == stored_instant(draft.end)
            and self.transparency == draft.transparency.value  # whether it takes the time
        )


def attendee_fields(attendee: Attendee) -> dict[str, Any]:
    return {
        "email": attendee.email,
        "display_name": attendee.display_name,
        "optional": attendee.optional,
        "response_status": attendee.response_status,
    }


def dates_of(span: DateSpan | None) -> list[str] | None:
    return None if span is None else [span.start.isoformat(), span.end.isoformat()]


def span_of(dates: list[str] | None) -> DateSpan | None:
    if not dates:
        return None
    return DateSpan(date.fromisoformat(dates[0]), date.fromisoformat(dates[1]))


async def init_local_calendar(client: AsyncMongoClient[Any], database_name: str) -> None:
    """Bind the local calendar's documents to ``database_name``, drop the legacy per-calendar
    key index, create the indexes and give events stored before day keys theirs
    (``backfill_busy_days``)."""
    events = client[database_name][EventDocument.Settings.name]
    with contextlib.suppress(OperationFailure):  # never created, or already dropped
        await events.drop_index(LEGACY_KEY_INDEX)
    await init_beanie(
        database=client[database_name], document_models=[CalendarDocument, EventDocument]
    )
    await backfill_busy_days(EventDocument.get_pymongo_collection())
