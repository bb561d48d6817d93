"""Deterministic Google event ids derived from idempotency keys."""

from __future__ import annotations

import base64
import hashlib

EVENT_ID_LENGTH = 52
"""All of sha256 in base32hex (256 bits → 52 characters): far above Google's 5-char minimum
and collision-free in practice, so one key can only ever name one event."""


def event_id_for(idempotency_key: str) -> str:
    """base32hex (lowercase ``0-9a-v``, no padding) of sha256 of the key.

    The same key always yields the same id, so a retried insert after a lost response hits
    409 instead of creating a second event.
    """
    digest = hashlib.sha256(idempotency_key.encode("utf-8")).digest()
    encoded = base64.b32hexencode(digest).decode("ascii").rstrip("=").lower()
    return encoded[:EVENT_ID_LENGTH]
