"""Reading Google HTTP answers: JSON bodies and the ``{"error": {...}}`` envelope."""

from __future__ import annotations

import json
from typing import Any

from calendar_service.infrastructure.google.failures import GoogleApiError


def error_json(raw: bytes) -> dict[str, Any]:
    """An error answer's body as a JSON object; an empty or non-JSON body (a front end's HTML
    502) reads as ``{}``: the status classifies it. Successful answers are read strictly
    (``answers``)."""
    if not raw:
        return {}
    try:
        payload = json.loads(raw)
    except (UnicodeDecodeError, json.JSONDecodeError):
        return {}
    return payload if isinstance(payload, dict) else {}


def api_error(
    status: int, payload: dict[str, Any], retry_after: str | None = None
) -> GoogleApiError:
    """Google's error envelope as a ``GoogleApiError`` (reason and domain of the first
    entry; ``retry_after``: the ``Retry-After`` header, seconds)."""
    seconds = retry_seconds(retry_after)
    error = payload.get("error")
    if not isinstance(error, dict):
        return GoogleApiError(status, "unknown", str(error or ""), retry_after=seconds)
    entries = error.get("errors") or [{}]
    first = entries[0] if isinstance(entries[0], dict) else {}
    reason = str(first.get("reason") or error.get("status") or "unknown")
    domain = str(first.get("domain") or "")
    message = str(error.get("message", ""))
    return GoogleApiError(status, reason, message, domain=domain, retry_after=seconds)


def retry_seconds(header: str | None) -> float | None:
    """A ``Retry-After`` of delta-seconds (an HTTP date or nonsense: None)."""
    if not header:
        return None
    try:
        seconds = float(header.strip())
    except ValueError:
        return None
    return seconds if 0 <= seconds < 86_400 else None
