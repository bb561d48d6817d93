"""Reading Google HTTP answers: JSON bodies and the ``{"error": {...}}`` envelope."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
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
    status: int, payload: dict[str, Any], retry_after: float | None = None
) -> GoogleApiError:
    """Google's error envelope as a ``GoogleApiError`` (reason and domain of the first
    entry; ``retry_after``: the ``Retry-After`` header's seconds, ``retry_seconds``)."""
    seconds = retry_after
    error = payload.get("error")
    if not isinstance(error, dict):
        return GoogleApiError(status, "unknown", str(error or ""), retry_after=seconds)
    entries = error.get("errors") or [{}]
    first = entries[0] if isinstance(entries[0], dict) else {}
    reason = str(first.get("reason") or error.get("status") or "unknown")
    domain = str(first.get("domain") or "")
    message = str(error.get("message", ""))
    return GoogleApiError(status, reason, message, domain=domain, retry_after=seconds)


def retry_seconds(header: str | None, answered_at: str | None = None) -> float | None:
    """A ``Retry-After`` header's seconds (RFC 9110 §10.2.3): delta-seconds, or an HTTP date
    counted from the answer's own ``Date`` header ``answered_at`` (the server's clock, so the
    two clocks' skew does not count; from now when it has none), a date already past being
    0. A header that is neither, or a wait of a day or more: None."""
    if not header:
        return None
    text = header.strip()
    try:
        seconds = float(text)
    except ValueError:
        until = _http_date(text)
        if until is None:
            return None
        since = _http_date(answered_at or "") or datetime.now(UTC)
        seconds = max(0.0, (until - since).total_seconds())
    return seconds if 0 <= seconds < 86_400 else None


def _http_date(text: str) -> datetime | None:
    try:
        moment = parsedate_to_datetime(text)
    except (TypeError, ValueError, IndexError):
        return None
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)
