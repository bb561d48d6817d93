"""Opaque page and sync tokens, one mechanism for every backend (``SealedPageTokens``): URL-safe
base64 of a small JSON value that holds a position in a listing and names the listing
(``listing_of``: a digest of the calendar, range, filters and owner it was listed with),
sealed with an HMAC. A caller can neither forge nor alter one, and a token of another listing
is refused, never read as a position in this one. The Google backend's position is Google's
own page token (nothing the service did not issue ever reaches Google); the built-in
calendar's is a keyset cursor (``local.paging``). A change feed's sync token is sealed the
same way (``wrap_sync``), bound to the calendar and the owner whose feed it resumes
(``sync_listing``): Google's own sync token, or the built-in calendar's position, never
leaves or enters the service bare."""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
from datetime import UTC, datetime

from agenda_kit.calendar.errors import InvalidCalendarRequestError

NOT_OURS = (binascii.Error, ValueError, TypeError, KeyError, OverflowError, RecursionError)
"""What decoding a token this service did not write may raise (a JSON nested thousands deep
raises ``RecursionError``)."""
_MAC_BYTES = 16


def encode(value: object) -> str:
    raw = json.dumps(value).encode("utf-8")
    return base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=")


def decode(token: str) -> object:
    return json.loads(base64.urlsafe_b64decode(token + "=" * (-len(token) % 4)))


def listing_of(*parts: object) -> str:
    """A short digest of what a listing was asked with (its page tokens carry it)."""
    text = json.dumps([_plain(part) for part in parts], sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _plain(part: object) -> object:
    if isinstance(part, datetime):
        return part.astimezone(UTC).isoformat()
    if isinstance(part, dict):
        return sorted(part.items())
    return part


def refused(field: str = "page_token") -> InvalidCalendarRequestError:
    return InvalidCalendarRequestError(f"{field} is not valid", field=field)


def sync_listing(calendar_id: str, owner: str | None) -> str:
    """The feed a sync token resumes: one calendar, as one owner (None: every owner) sees it."""
    return listing_of("sync", calendar_id, owner)


class SealedPageTokens:
    """Tokens wrapping a position (a provider's page token, a cursor), bound to a listing and
    sealed with ``key`` (every replica sharing the key accepts every replica's tokens)."""

    def __init__(self, key: bytes) -> None:
        self._key = key

    def wrap(self, position: str, listing: str, *, feed: bool = False) -> str:
        return self._seal("feed" if feed else "range", position, listing)

    def unwrap(self, token: str, listing: str, *, feed: bool = False) -> str:
        """The position inside ``token``; a token not sealed here, of the other kind of
        listing or of another listing is ``INVALID_REQUEST`` naming ``page_token``."""
        return self._open(token, "feed" if feed else "range", listing, "page_token")

    def wrap_sync(self, position: str, listing: str) -> str:
        """A feed's ``next_sync_token`` (``listing``: ``sync_listing``)."""
        return self._seal("sync", position, listing)

    def unwrap_sync(self, token: str, listing: str) -> str:
        """The position inside a sync token; one not sealed here (garbage, altered, a page
        token) or of another calendar's or owner's feed is ``INVALID_REQUEST`` naming
        ``sync_token``, refused before any provider request."""
        return self._open(token, "sync", listing, "sync_token")

    def _seal(self, kind: str, position: str, listing: str) -> str:
        body = encode([kind, position, listing])
        return f"{body}.{self._mac(body)}"

    def _open(self, token: str, kind: str, listing: str, field: str) -> str:
        body, dot, mac = token.rpartition(".")
        expected = self._mac(body).encode("ascii")
        if not dot or not hmac.compare_digest(mac.encode("utf-8"), expected):
            raise refused(field)
        try:
            value = decode(body)
        except NOT_OURS as error:
            raise refused(field) from error
        if not (isinstance(value, list) and len(value) == 3 and value[0] == kind):
            raise refused(field)
        position, named = value[1], value[2]
        if named != listing or not isinstance(position, str) or not position:
            raise refused(field)
        return position

    def _mac(self, body: str) -> str:
        digest = hmac.new(self._key, body.encode("utf-8"), hashlib.sha256).digest()[:_MAC_BYTES]
        return base64.urlsafe_b64encode(digest).decode("ascii").rstrip("=")
