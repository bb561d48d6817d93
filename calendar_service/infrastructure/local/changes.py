"""Updates and the change feed of the local calendar: pure functions of documents."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from agenda_kit.calendar.port import ChangeQuery, EventChanges, EventPage, Transparency
from calendar_service.infrastructure.local.day_keys import event_day_keys
from calendar_service.infrastructure.local.documents import (
    EventDocument,
    attendee_fields,
    dates_of,
    stored_instant,
)
from calendar_service.infrastructure.local.paging import (
    Cursor,
    decode_sync_token,
    decode_token,
    encode_sync_token,
    encode_token,
    listing_of,
)
from calendar_service.infrastructure.local.queries import check_event_range
from calendar_service.infrastructure.page_tokens import SealedPageTokens, sync_listing

FEED_OVERLAP = timedelta(seconds=5)
"""A sync token resumes this long before the newest change it saw: a write whose
``updated_at`` was stamped before a listing but committed after it is listed next time
(changes may repeat; apply them by event id and update time)."""
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def change_set(stored: EventDocument, changes: EventChanges, now: datetime) -> dict[str, Any]:
    """The ``$set`` of an update: the changed fields, and day keys that follow the event's
    time and transparency."""
    updates: dict[str, Any] = {"updated_at": now}
    for name, value in (
        ("summary", changes.summary),
        ("description", changes.description),
        ("location", changes.location),
        ("private", changes.private),
    ):
        if value is not None:
            updates[name] = value
    if changes.attendees is not None:
        updates["attendees"] = [attendee_fields(a) for a in changes.attendees]
    start, end = stored.start, stored.end
    if changes.time is not None:
        check_event_range(changes.time.start, changes.time.end)
        start, end = stored_instant(changes.time.start), stored_instant(changes.time.end)
        updates |= {"start": start, "end": end, "all_day": dates_of(changes.time.all_day)}
        if changes.time.time_zone is not None:
            updates["time_zone"] = changes.time.time_zone
    transparency = changes.transparency or Transparency(stored.transparency)
    updates["transparency"] = transparency.value
    opaque = transparency is Transparency.OPAQUE
    updates["busy_days"] = event_day_keys(stored.calendar_id, start, end) if opaque else []
    return updates


def feed_query(query: ChangeQuery, pages: SealedPageTokens) -> tuple[dict[str, Any], datetime]:
    """The MongoDB filter of a feed listing, and the position it starts from (a page token
    unsealed by ``pages``)."""
    if query.sync_token is not None:
        listing = sync_listing(query.calendar_id, query.owner)
        since = decode_sync_token(pages.unwrap_sync(query.sync_token, listing))
    else:
        since = (query.updated_since or _EPOCH).astimezone(UTC)
    wanted: dict[str, Any] = {"calendar_id": query.calendar_id, "updated_at": {"$gte": since}}
    if query.start is not None and query.end is not None:
        wanted |= {"start": {"$lt": query.end}, "end": {"$gt": query.start}}
    wanted |= {f"private.{key}": value for key, value in query.private.items()}
    if query.owner is not None:
        wanted["owner"] = query.owner
    if query.page_token is not None:
        cursor = decode_token(query.page_token, feed_listing(query), pages, feed=True)
        wanted["$or"] = [
            {"updated_at": {"$gt": cursor.start}},
            {"updated_at": cursor.start, "_id": {"$gt": cursor.event_id}},
        ]
    return wanted, since


def feed_listing(query: ChangeQuery) -> str:
    """What a feed listing was asked with, but its position (its page tokens name it)."""
    return listing_of(query.calendar_id, query.start, query.end, query.private, query.owner)


def feed_page(
    documents: list[EventDocument],
    page_size: int,
    since: datetime,
    query: ChangeQuery,
    pages: SealedPageTokens,
) -> EventPage:
    """The first ``page_size`` changes; a page token after the last when there are more,
    else the sync token to resume from."""
    page = documents[:page_size]
    events = tuple(document.to_domain() for document in page)
    if len(documents) > page_size:
        last = page[-1]
        cursor = Cursor(stored_instant(last.updated_at), last.id)
        token = encode_token(cursor, feed_listing(query), pages, feed=True)
        return EventPage(events=events, next_page_token=token)
    newest = max((stored_instant(d.updated_at) for d in page), default=None)
    resume = since if newest is None else max(since, newest - FEED_OVERLAP)
    listing = sync_listing(query.calendar_id, query.owner)
    return EventPage(
        events=events, next_sync_token=pages.wrap_sync(encode_sync_token(resume), listing)
    )
