"""Opaque page tokens for ``list_events``: a keyset cursor on ``(start, event_id)``."""

from __future__ import annotations

import base64
import binascii
import json
from dataclasses import dataclass
from datetime import UTC, datetime

from agenda_kit.calendar.errors import InvalidCalendarRequestError


@dataclass(frozen=True, slots=True)
class Cursor:
    """The last event of a page; the next page starts strictly after it."""

    start: datetime
    event_id: str


def encode_token(cursor: Cursor) -> str:
    """URL-safe base64 of ``[start ISO 8601, event id]``."""
    raw = json.dumps([cursor.start.isoformat(), cursor.event_id]).encode("utf-8")
    return base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=")


def decode_token(token: str) -> Cursor:
    """The cursor in ``token``; a token this module did not write is a bad request."""
    try:
        raw = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
        start_text, event_id = json.loads(raw)
        start = datetime.fromisoformat(start_text)
        if start.tzinfo is None or not isinstance(event_id, str):
            raise ValueError("naive start or non-string id")
        start = start.astimezone(UTC)  # out-of-range instants fail here, not in the query
    except (binascii.Error, ValueError, TypeError, OverflowError) as error:
        raise InvalidCalendarRequestError("page_token is not valid") from error
    return Cursor(start, event_id)
