"""Opaque page and sync tokens of the local calendar: a keyset cursor on ``(start,
event_id)`` for range listings, on ``(updated_at, event_id)`` for the change feed, and the
feed's resume position. A page token is the cursor sealed and bound to its listing by
``page_tokens.SealedPageTokens`` (the mechanism every backend's page tokens share): a token
the service did not issue for this very listing — forged, altered, of the other kind of
listing or of another listing — is refused, never read as a position. The key is kept in the
calendar's own database (``sealed_page_tokens``), so every replica reads every replica's."""

from __future__ import annotations

import contextlib
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from pymongo.asynchronous.database import AsyncDatabase
from pymongo.errors import DuplicateKeyError

from agenda_kit.calendar.errors import InvalidCalendarRequestError
from calendar_service.infrastructure.page_tokens import (
    NOT_OURS,
    SealedPageTokens,
    decode,
    encode,
    refused,
)
from calendar_service.infrastructure.page_tokens import listing_of as listing_of

SERVICE_KEYS = "service_keys"
"""The collection of the built-in calendar's own secrets (one document each)."""
_PAGE_KEY = {"_id": "page_tokens"}


@dataclass(frozen=True, slots=True)
class Cursor:
    """The last event of a page; the next page starts strictly after it."""

    start: datetime
    event_id: str


async def sealed_page_tokens(database: AsyncDatabase[dict[str, Any]]) -> SealedPageTokens:
    """The sealer of the built-in calendar's page tokens: its key is 32 random bytes kept in
    ``database`` (``service_keys``), written once by whichever replica asks first."""
    keys = database[SERVICE_KEYS]
    stored = await keys.find_one(_PAGE_KEY)
    if stored is None:
        with contextlib.suppress(DuplicateKeyError):  # another replica wrote it first
            await keys.insert_one(_PAGE_KEY | {"key": secrets.token_bytes(32)})
        stored = await keys.find_one(_PAGE_KEY)
    if stored is None:
        raise LookupError("the page-token key was not kept")
    return SealedPageTokens(bytes(stored["key"]))


def encode_token(
    cursor: Cursor, listing: str, pages: SealedPageTokens, *, feed: bool = False
) -> str:
    """The cursor ``[start ISO 8601, event id]``, sealed and bound to ``listing``."""
    position = encode([cursor.start.isoformat(), cursor.event_id])
    return pages.wrap(position, listing, feed=feed)


def decode_token(
    token: str, listing: str, pages: SealedPageTokens, *, feed: bool = False
) -> Cursor:
    """The cursor in ``token``; a token not sealed here, of the other kind of listing or of
    another listing (``listing``) is a bad request naming ``page_token``."""
    position = pages.unwrap(token, listing, feed=feed)
    try:
        value = decode(position)
        if not (isinstance(value, list) and len(value) == 2):
            raise ValueError("not a cursor")
        start_text, event_id = value
        start = datetime.fromisoformat(start_text)
        if start.tzinfo is None or not isinstance(event_id, str):
            raise ValueError("naive start or non-string id")
        start = start.astimezone(UTC)  # out-of-range instants fail here, not in the query
    except NOT_OURS as error:
        raise refused() from error
    return Cursor(start, event_id)


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
