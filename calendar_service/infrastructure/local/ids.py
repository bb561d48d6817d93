"""Deterministic local event ids derived from (calendar, idempotency key)."""

from __future__ import annotations

import base64
import hashlib
import json


def event_id_for(calendar_id: str, idempotency_key: str) -> str:
    """base32hex (lowercase ``0-9a-v``, 52 characters) of sha256 of the calendar and the key.

    The same key in the same calendar always names the same event, so a retried insert hits
    the unique ``_id`` instead of creating a second event; the same key in another calendar
    names another event. The ids look like the Google adapter's.
    """
    material = json.dumps([calendar_id, idempotency_key], ensure_ascii=False).encode("utf-8")
    digest = hashlib.sha256(material).digest()
    return base64.b32hexencode(digest).decode("ascii").rstrip("=").lower()
