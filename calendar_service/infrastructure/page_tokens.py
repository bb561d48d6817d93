"""Opaque page tokens, one mechanism for every backend (``SealedPageTokens``): URL-safe
base64 of a small JSON value that holds a position in a listing and names the listing
(``listing_of``: a digest of the calendar, range, filters and owner it was listed with),
sealed with an HMAC. A caller can neither forge nor alter one, and a token of another listing
is refused, never read as a position in this one. The Google backend's position is Google's
own page token (nothing the service did not issue ever reaches Google); the built-in
calendar's is a keyset cursor (``local.paging``)."""

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


class SealedPageTokens:
    """Tokens wrapping a position (a provider's page token, a cursor), bound to a listing and
    sealed with ``key`` (every replica sharing the key accepts every replica's tokens)."""

    def __init__(self, key: bytes) -> None:
        self._key = key

    def wrap(self, position: str, listing: str, *, feed: bool = False) -> str:
        body = encode(["feed" if feed else "range", position, listing])
        return f"{body}.{self._mac(body)}"

    def unwrap(self, token: str, listing: str, *, feed: bool = False) -> str:
        """The position inside ``token``; a token not sealed here, of the other kind of
        listing or of another listing is ``INVALID_REQUEST`` naming ``page_token``."""
        body, dot, mac = token.rpartition(".")
        expected = self._mac(body).encode("ascii")
        if not dot or not hmac.compare_digest(mac.encode("utf-8"), expected):
            raise refused()
        try:
            value = decode(body)
        except NOT_OURS as error:
            raise refused() from error
        kind = "feed" if feed else "range"
        if not (isinstance(value, list) and len(value) == 3 and value[0] == kind):
            raise refused()
        position, named = value[1], value[2]
        if named != listing or not isinstance(position, str) or not position:
            raise refused()
        return position

    def _mac(self, body: str) -> str:
        digest = hmac.new(self._key, body.encode("utf-8"), hashlib.sha256).digest()[:_MAC_BYTES]
        return base64.urlsafe_b64encode(digest).decode("ascii").rstrip("=")
