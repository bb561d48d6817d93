"""Reading Google HTTP answers: JSON bodies and the ``{"error": {...}}`` envelope."""

from __future__ import annotations

import json
from typing import Any

import aiohttp

from calendar_service.infrastructure.google.failures import GoogleApiError


async def read_json(response: aiohttp.ClientResponse) -> dict[str, Any]:
    """The body as a JSON object; an empty or non-JSON body reads as ``{}``."""
    raw = await response.read()
    if not raw:
        return {}
    try:
        payload = json.loads(raw)
    except (UnicodeDecodeError, json.JSONDecodeError):
        return {}
    return payload if isinstance(payload, dict) else {}


def api_error(status: int, payload: dict[str, Any]) -> GoogleApiError:
    """Google's error envelope as a ``GoogleApiError`` (reason of the first entry)."""
    error = payload.get("error")
    if not isinstance(error, dict):
        return GoogleApiError(status, "unknown", str(error or ""))
    entries = error.get("errors") or [{}]
    reason = str(entries[0].get("reason") or error.get("status") or "unknown")
    return GoogleApiError(status, reason, str(error.get("message", "")))
