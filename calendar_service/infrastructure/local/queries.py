"""MongoDB filters, pages and busy time of the local calendar: pure functions of documents."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from beanie.odm.enums import SortDirection
from bson.codec_options import CodecOptions, DatetimeConversion

from agenda_kit.calendar.errors import InvalidCalendarRequestError
from agenda_kit.calendar.port import EventPage, Interval
from calendar_service.domain.slot_intervals import EPOCH, clip, merge, to_micros
from calendar_service.domain.validation import MAX_EVENT_LENGTH
from calendar_service.infrastructure.local.day_keys import read_keys
from calendar_service.infrastructure.local.documents import CONFIRMED, EventDocument
from calendar_service.infrastructure.local.paging import Cursor, encode_token
from calendar_service.infrastructure.page_tokens import SealedPageTokens

BY_START = [("start", SortDirection.ASCENDING), ("_id", SortDirection.ASCENDING)]
"""The order of ``list_events`` and of its keyset cursor."""
BY_CHANGE = [("updated_at", SortDirection.ASCENDING), ("_id", SortDirection.ASCENDING)]
"""The order of the change feed and of its keyset cursor."""


def check_range(start: datetime, end: datetime) -> None:
    """``[start, end)`` must be made of aware instants and be non-empty."""
    if start.tzinfo is None or end.tzinfo is None:
        raise InvalidCalendarRequestError("start and end must be timezone-aware")
    if end <= start:
        raise InvalidCalendarRequestError("end must be after start")


def check_event_range(start: datetime, end: datetime) -> None:
    """An event's ``[start, end)``: ``check_range`` and at most ``MAX_EVENT_LENGTH`` (the
    service's own limit, so ``busy_days`` never holds more than 32 keys)."""
    check_range(start, end)
    if end - start > MAX_EVENT_LENGTH:
        raise InvalidCalendarRequestError(
            f"an event must not be longer than {MAX_EVENT_LENGTH.days} days"
        )


def busy_filter(
    calendar_ids: list[str], start: datetime, end: datetime, *, max_keys: int
) -> dict[str, Any]:
    """The events of ``calendar_ids`` overlapping ``[start, end)``, or a few more that share
    a UTC day with it (``busy_of`` clips them away): by day keys, an index lookup (keep
    ``is_busy`` ones); by the overlap filter (confirmed only) when that takes more than
    ``max_keys`` keys."""
    keys = read_keys(calendar_ids, start, end)
    if len(keys) <= max_keys:  # status is checked on the documents (``is_busy``): a filter
        return {"busy_days": {"$in": keys}}  # on it too makes SecantusDB scan the collection
    return {
        "calendar_id": {"$in": calendar_ids},
        "status": CONFIRMED,
        "transparency": {"$ne": "transparent"},
    } | overlapping(start, end)


def overlapping(start: datetime, end: datetime) -> dict[str, Any]:
    """Events overlapping ``[start, end)`` (touching at a bound does not overlap)."""
    return {"start": {"$lt": end}, "end": {"$gt": start}}


def after(cursor: Cursor) -> list[dict[str, Any]]:
    """Events after ``cursor`` in (start, id) order."""
    return [
        {"start": {"$gt": cursor.start}},
        {"start": cursor.start, "_id": {"$gt": cursor.event_id}},
    ]


def page_of(
    documents: list[EventDocument], page_size: int, listing: str, pages: SealedPageTokens
) -> EventPage:
    """The first ``page_size`` documents; a token after the last when ``documents`` has more
    (sealed by ``pages``, naming ``listing``: the listing it continues)."""
    events = tuple(document.to_domain() for document in documents[:page_size])
    if len(documents) <= page_size:
        return EventPage(events=events)
    last = events[-1]
    cursor = Cursor(last.start, last.event_id)
    return EventPage(events=events, next_page_token=encode_token(cursor, listing, pages))


BUSY_FIELDS = {"_id": 0, "calendar_id": 1, "start": 1, "end": 1, "status": 1, "transparency": 1}
"""The projection of a free/busy read: what ``busy_of`` needs."""
BUSY_CODEC: CodecOptions[dict[str, Any]] = CodecOptions(
    datetime_conversion=DatetimeConversion.DATETIME_MS
)
"""Dates of a free/busy read decoded as ``DatetimeMS`` (BSON's own integer milliseconds)."""


def is_busy(document: dict[str, Any]) -> bool:
    """A confirmed opaque event. A keyed read can return a cancelled one: this build's cancel
    empties its keys, but an older build's (during a rolling upgrade) changed only the
    status."""
    status: str = document.get("status", CONFIRMED)
    return status == CONFIRMED and document.get("transparency") != "transparent"


def busy_of(
    documents: list[dict[str, Any]], start: datetime, end: datetime
) -> tuple[Interval, ...]:
    """Busy time of one calendar's events (raw documents read with ``BUSY_CODEC``): clipped
    to ``[start, end)``, merged, sorted."""
    spans = ((int(document["start"]) * 1000, int(document["end"]) * 1000) for document in documents)
    merged = merge(clip(spans, (to_micros(start), to_micros(end))))
    return tuple(Interval(_from_micros(low), _from_micros(high)) for low, high in merged)


def _from_micros(micros: int) -> datetime:
    return EPOCH + timedelta(microseconds=micros)
