"""What a successful Calendar v3 answer must hold: the one reading of Google's 2xx bodies.

Every ``ApiCall`` names the shape its answer has (``event``, ``events``, ``free_busy``,
``calendar``, ``channel``, ``no_body``), and the transport reads every 2xx body through it. A
body the shape does not accept — cut short, a proxy's HTML page, a JSON array, a field of the
wrong type, an instant that is not RFC 3339 — is the provider failing
(``MalformedAnswerError``: retried like a 5xx, then ``UNAVAILABLE``), never an empty listing,
an absent event, free time or an ``INTERNAL`` error. The shapes ask only for what the mapping
reads (``mapping.py``); fields Google may add are left alone.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from datetime import date, datetime
from typing import Any

from calendar_service.infrastructure.google.failures import MalformedAnswerError

JsonObject = dict[str, Any]
AnswerShape = Callable[[Any], JsonObject]
"""Checks a decoded 2xx body and returns it as a JSON object (``MalformedAnswerError`` if it
is not of the shape)."""

_TEXT_FIELDS = (
    "status",
    "summary",
    "description",
    "location",
    "etag",
    "recurringEventId",
    "created",
    "updated",
    "transparency",
)


def decode(raw: bytes) -> Any:
    """A 2xx body as JSON (an empty body is ``None``)."""
    if not raw.strip():
        return None
    try:
        return json.loads(raw)
    except (UnicodeDecodeError, ValueError) as error:
        raise MalformedAnswerError("the body is not JSON") from error


def no_body(value: Any) -> JsonObject:
    """Answers whose body nothing reads (``events.delete``, ``channels.stop``)."""
    return value if isinstance(value, dict) else {}


def event(value: Any) -> JsonObject:
    """An ``Event`` resource: an id, and (unless cancelled) its start and end."""
    data = _object(value, "event")
    if not isinstance(data.get("id"), str) or not data["id"]:
        raise MalformedAnswerError("an event without an id")
    for name in _TEXT_FIELDS:
        _optional(data, name, str)
    for name in ("start", "end"):
        if name in data:
            _time(data[name], name)
        elif data.get("status") != "cancelled":  # only a deleted event may come bare
            raise MalformedAnswerError(f"an event without {name}")
    _private(data)
    attendees = _optional(data, "attendees", list) or []
    if not all(isinstance(a, dict) and isinstance(a.get("email", ""), str) for a in attendees):
        raise MalformedAnswerError("attendees are not objects")
    return data


def events(value: Any) -> JsonObject:
    """An ``events.list`` page: ``items`` (events), and the optional page and sync tokens."""
    page = _object(value, "event list")
    for item in _optional(page, "items", list) or []:
        event(item)
    _optional(page, "nextPageToken", str)
    _optional(page, "nextSyncToken", str)
    return page


def free_busy(value: Any) -> JsonObject:
    """A ``freeBusy.query`` answer: ``calendars`` by id, each with ``busy`` intervals or
    ``errors``."""
    answer = _object(value, "free/busy answer")
    calendars = answer.get("calendars")
    if not isinstance(calendars, dict):
        raise MalformedAnswerError("a free/busy answer without calendars")
    for entry in calendars.values():
        if not isinstance(entry, dict):
            raise MalformedAnswerError("a calendar's free/busy is not an object")
        errors = _optional(entry, "errors", list) or []
        if not all(isinstance(error, dict) for error in errors):
            raise MalformedAnswerError("a calendar's free/busy errors are not objects")
        for interval in _optional(entry, "busy", list) or []:
            if not isinstance(interval, dict):
                raise MalformedAnswerError("a busy interval is not an object")
            _instant(interval.get("start"), "busy.start")
            _instant(interval.get("end"), "busy.end")
    return answer


def calendar(value: Any) -> JsonObject:
    """A ``Calendar`` resource (``calendars.get``): its optional ``timeZone``."""
    data = _object(value, "calendar")
    _optional(data, "timeZone", str)
    return data


def channel(value: Any) -> JsonObject:
    """An ``api#channel`` resource (``events.watch``)."""
    return _object(value, "channel")


def _object(value: Any, what: str) -> JsonObject:
    if not isinstance(value, dict):
        raise MalformedAnswerError(f"the {what} is not a JSON object")
    return value


def _optional(data: Mapping[str, Any], name: str, kind: type) -> Any:
    value = data.get(name)
    if name in data and not isinstance(value, kind):
        raise MalformedAnswerError(f"{name} is not a {kind.__name__}")
    return value


def _time(value: Any, name: str) -> None:
    """``start``/``end``: a ``dateTime`` with an offset, or an all-day ``date``."""
    if not isinstance(value, dict):
        raise MalformedAnswerError(f"{name} is not an object")
    if "dateTime" in value:
        _instant(value["dateTime"], f"{name}.dateTime")
    elif "date" in value:
        if not isinstance(value["date"], str):
            raise MalformedAnswerError(f"{name}.date is not a date")
        try:
            date.fromisoformat(value["date"])
        except ValueError as error:
            raise MalformedAnswerError(f"{name}.date is not a date") from error
    else:
        raise MalformedAnswerError(f"{name} has neither dateTime nor date")
    _optional(value, "timeZone", str)


def _instant(value: Any, name: str) -> None:
    if not isinstance(value, str):
        raise MalformedAnswerError(f"{name} is not an instant")
    try:
        instant = datetime.fromisoformat(value)
    except ValueError as error:
        raise MalformedAnswerError(f"{name} is not an instant") from error
    if instant.tzinfo is None:
        raise MalformedAnswerError(f"{name} has no offset")


def _private(data: Mapping[str, Any]) -> None:
    extended = _optional(data, "extendedProperties", dict) or {}
    private = _optional(extended, "private", dict) or {}
    if not all(isinstance(v, str) for v in private.values()):
        raise MalformedAnswerError("private extended properties are not texts")
