"""Opaque keyset page tokens: the sort key and id of the last item of the previous page."""

from __future__ import annotations

import base64
import binascii
import json
from dataclasses import dataclass
from datetime import UTC, datetime
from uuid import UUID

from agent_service.domain.errors import InvalidInputError

MAX_PAGE_SIZE = 500


@dataclass(frozen=True, slots=True)
class Cursor:
    """The next page starts strictly after (``key``, ``id``); ``key`` is None when items are
    ordered by id alone."""

    key: datetime | None
    id: UUID


def check_page_size(page_size: int) -> None:
    if not 1 <= page_size <= MAX_PAGE_SIZE:
        raise InvalidInputError("page_size", f"must be between 1 and {MAX_PAGE_SIZE}")


def encode_token(cursor: Cursor) -> str:
    """URL-safe base64 of ``[key ISO 8601 or null, id]``."""
    key = None if cursor.key is None else cursor.key.isoformat()
    raw = json.dumps([key, str(cursor.id)]).encode()
    return base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=")


def decode_token(token: str, *, keyed: bool) -> Cursor:
    """The cursor in ``token``; anything this module did not write is ``InvalidInputError``."""
    try:
        raw = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
        key_text, id_text = json.loads(raw)
        key = None if key_text is None else datetime.fromisoformat(key_text)
        if key is not None and key.tzinfo is not None:
            key = key.astimezone(UTC)  # out-of-range instants fail here, not in the query
        cursor = Cursor(key, UUID(id_text))
    except (binascii.Error, ValueError, TypeError, AttributeError, OverflowError) as error:
        raise InvalidInputError("page_token", "is not a valid page token") from error
    if keyed != (cursor.key is not None) or (cursor.key is not None and cursor.key.tzinfo is None):
        raise InvalidInputError("page_token", "is not a valid page token")
    return cursor
