"""Pages of a list (AIP-158) that the application orders itself, and page tokens bound to the
request they were made for.

Rules:
- a page is at most ``size`` items in the list's order, after the item the token names (by
  its id, so items added meanwhile never shift a page; when that item itself was removed
  meanwhile, after the position it had); an empty next token means the last page; a token is
  short whatever the items (ids, not names);
- a token is opaque to clients and only valid with the parameters it was made for (the
  ``scope``: tenant and filters): another scope is ``InvalidInputError("page_token")``. It
  grants nothing: every read is scoped by the caller's tenant anyway;
- ``bind``/``unbind`` give the same guarantee to tokens a store made (its own cursor inside).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
from collections.abc import Sequence
from typing import Protocol, TypeVar
from uuid import UUID

from agent_service.domain.errors import InvalidInputError


class Identified(Protocol):
    @property
    def id(self) -> UUID: ...


T = TypeVar("T", bound=Identified)
SortKey = tuple[str, ...]
_FIELD = "page_token"


def scope_of(*parameters: object) -> str:
    """A short digest of the request parameters a token belongs to."""
    return hashlib.sha256(json.dumps([str(p) for p in parameters]).encode()).hexdigest()[:16]


def page(
    items: Sequence[T], size: int, token: str | None, scope: str
) -> tuple[list[T], str | None]:
    """One page of ``items`` (in their order) after ``token``; and the next token."""
    start = 0
    if token:
        last_id, position = _decode(token, scope, parts=2)
        ids = [str(item.id) for item in items]
        start = ids.index(last_id) + 1 if last_id in ids else _position(position)
    chosen = list(items[start : start + size])
    if start + size >= len(items):
        return chosen, None
    return chosen, _encode((str(chosen[-1].id), str(start + size)), scope)


def bind(token: str | None, scope: str) -> str | None:
    """A store's own token, bound to ``scope``."""
    return None if token is None else _encode((token,), scope)


def unbind(token: str | None, scope: str) -> str | None:
    """The store's token inside a bound one (``InvalidInputError`` for another scope)."""
    if not token:
        return None
    (inner,) = _decode(token, scope, parts=1)
    return inner


def _position(text: str) -> int:
    """The position a token holds: ASCII digits only ("²" and "٣" are digits to
    ``str.isdigit`` and no number to ``int``)."""
    if not (text.isascii() and text.isdigit()):
        raise InvalidInputError(_FIELD, "is not a valid page token")
    return int(text)


def _encode(key: SortKey, scope: str) -> str:
    raw = json.dumps({"k": list(key), "s": scope}, separators=(",", ":")).encode()
    return base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=")


def _decode(token: str, scope: str, parts: int | None = None) -> SortKey:
    try:
        raw = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
        body = json.loads(raw)
        key = tuple(str(part) for part in body["k"])
        made_for = body["s"]
    except (binascii.Error, ValueError, TypeError, KeyError) as error:
        raise InvalidInputError(_FIELD, "is not a valid page token") from error
    if made_for != scope:
        raise InvalidInputError(_FIELD, "was made for other request parameters")
    if not key or (parts is not None and len(key) != parts):
        raise InvalidInputError(_FIELD, "is not a valid page token")
    return key
