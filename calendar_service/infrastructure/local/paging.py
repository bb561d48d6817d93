"""Opaque page and sync tokens of the local calendar: a keyset cursor on ``(start,
event_id)`` for range listings, on ``(updated_at, event_id)`` for the change feed (a token
of one kind is refused by the other), and the feed's resume position. A page token names its
listing (``page_tokens.listing_of``: the mechanism every backend's page tokens share): a token
of another listing is refused, as the contract says, never read as a position in this one."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from agenda_kit.calendar.errors import InvalidCalendarRequestError
from calendar_service.infrastructure.page_tokens import NOT_OURS, decode, encode
from calendar_service.infrastructure.page_tokens import listing_of as listing_of


@dataclass(frozen=True, slots=True)
class Cursor:
    """The last event of a page; the next page starts strictly after it."""

    start: datetime
    event_id: str


FEED = "feed"


def encode_token(cursor: Cursor, listing: str, *, feed: bool = False) -> str:
    """URL-safe base64 of ``[start ISO 8601, event id, listing]`` (a feed's: ``["feed",
    …]``)."""
    fields = [cursor.start.isoformat(), cursor.event_id, listing]
    return encode([FEED, *fields] if feed else fields)


def encode_sync_token(since: datetime) -> str:
    """Where a change feed resumes: changes at or after ``since``."""
    return encode({"since": since.isoformat()})


def decode_sync_token(token: str) -> datetime:
    """The position in a sync token this module wrote; anything else is a bad request."""
    try:
        value = decode(token)
        if not isinstance(value, dict):
            raise ValueError("not a sync token")
        since = datetime.fromisoformat(value["since"])
        if since.tzinfo is None:
            raise ValueError("naive position")
        return since.astimezone(UTC)
    except NOT_OURS as error:
        raise InvalidCalendarRequestError("sync_token is not valid", field="sync_token") from error


def decode_token(token: str, listing: str, *, feed: bool = False) -> Cursor:
    """The cursor in ``token``; a token this module did not write, of the other kind of
    listing or of another listing (``listing``) is a bad request."""
    try:
        value = decode(token)
        if not isinstance(value, list):
            raise ValueError("not a page token")
        if feed != (len(value) == 4 and value[0] == FEED):
            raise ValueError("a token of another kind of listing")
        start_text, event_id, named = _fields(value[-3:])
        if named != listing:
            raise ValueError("a token of another listing")
        start = datetime.fromisoformat(start_text)
        if start.tzinfo is None or not isinstance(event_id, str):
            raise ValueError("naive start or non-string id")
        start = start.astimezone(UTC)  # out-of-range instants fail here, not in the query
    except NOT_OURS as error:
        raise InvalidCalendarRequestError("page_token is not valid", field="page_token") from error
    return Cursor(start, event_id)


def _fields(value: Sequence[object]) -> tuple[str, str, str]:
    if len(value) != 3 or not all(isinstance(v, str) for v in value):
        raise ValueError("not a page token's fields")
    start, event_id, listing = value
    return str(start), str(event_id), str(listing)
