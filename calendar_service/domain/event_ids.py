"""Deterministic event ids: one per (calendar, writer, idempotency key)."""

from __future__ import annotations

import base64
import hashlib
import json

EVENT_ID_LENGTH = 52
"""All of sha256 in base32hex (256 bits → 52 characters): far above Google's 5-character
minimum and collision-free in practice."""


def event_id_for(calendar_id: str, owner: str, idempotency_key: str) -> str:
    """base32hex (lowercase ``0-9a-v``, no padding) of sha256 of the calendar, the owner (the
    principal writing) and the key, so that:

    - a retry of the same write names the same event (a retried insert hits the provider's
      unique id instead of creating a second event);
    - two callers using the same key on one calendar name two events: neither can reach,
      replay or learn the id of the other's (no enumeration through keys);
    - ids are valid Google event ids (``[a-v0-9]{5,1024}``) and the same on every backend.
    """
    material = json.dumps([calendar_id, owner, idempotency_key], ensure_ascii=False)
    digest = hashlib.sha256(material.encode("utf-8")).digest()
    return base64.b32hexencode(digest).decode("ascii").rstrip("=").lower()[:EVENT_ID_LENGTH]
