"""Calendar v3 JSON ⇄ ``agenda_kit.calendar.port`` values."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime, time
from typing import Any

from agenda_kit.calendar.port import CalendarEvent, EventDraft, FreeBusyError, Interval

JsonObject = dict[str, Any]
IDEMPOTENCY_PROPERTY = "idempotencyKey"
OWNER_PROPERTY = "agendaOwner"
_SERVICE_PROPERTIES = frozenset({IDEMPOTENCY_PROPERTY, OWNER_PROPERTY})


def rfc3339(instant: datetime) -> str:
    """An aware instant as RFC 3339 in UTC."""
    return instant.astimezone(UTC).isoformat().replace("+00:00", "Z")


def parse_instant(text: str) -> datetime:
    """An RFC 3339 timestamp as an aware UTC datetime."""
    return datetime.fromisoformat(text).astimezone(UTC)


def event_body(draft: EventDraft, event_id: str) -> JsonObject:
    """The ``events.insert`` body; the idempotency key, the owner and the caller's opaque
    references ride in private extended properties."""
    private = {**draft.private, IDEMPOTENCY_PROPERTY: draft.idempotency_key}
    if draft.owner:
        private[OWNER_PROPERTY] = draft.owner
    return {
        "id": event_id,
        "summary": draft.summary,
        "description": draft.description,
        "start": {"dateTime": rfc3339(draft.start), "timeZone": draft.time_zone},
        "end": {"dateTime": rfc3339(draft.end), "timeZone": draft.time_zone},
        "extendedProperties": {"private": private},
    }


def move_body(start: datetime, end: datetime, time_zone: str) -> JsonObject:
    """The ``events.patch`` body that moves an event (start and end only)."""
    return {
        "start": {"dateTime": rfc3339(start), "timeZone": time_zone},
        "end": {"dateTime": rfc3339(end), "timeZone": time_zone},
    }


def stored_key(data: Mapping[str, Any]) -> str | None:
    """The idempotency key an event was written with, if any."""
    private = data.get("extendedProperties", {}).get("private", {})
    key = private.get(IDEMPOTENCY_PROPERTY)
    return key if isinstance(key, str) else None


def event_from_json(calendar_id: str, data: Mapping[str, Any]) -> CalendarEvent | None:
    """The port's event, or None for a bare cancelled stub without times."""
    start, end = data.get("start"), data.get("end")
    if not start or not end:
        return None
    return CalendarEvent(
        event_id=str(data["id"]),
        calendar_id=calendar_id,
        summary=str(data.get("summary", "")),
        description=str(data.get("description", "")),
        start=_when(start),
        end=_when(end),
        time_zone=str(start.get("timeZone", "UTC")),
        status=str(data.get("status", "confirmed")),
        idempotency_key=stored_key(data),
        owner=str(_private(data).get(OWNER_PROPERTY, "")),
        private={str(k): str(v) for k, v in _private(data).items() if k not in _SERVICE_PROPERTIES},
    )


def _private(data: Mapping[str, Any]) -> Mapping[str, Any]:
    private = (data.get("extendedProperties") or {}).get("private") or {}
    return private if isinstance(private, Mapping) else {}


def _when(value: Mapping[str, Any]) -> datetime:
    if "dateTime" in value:
        return parse_instant(str(value["dateTime"]))
    day = datetime.fromisoformat(str(value["date"])).date()
    return datetime.combine(day, time(0), tzinfo=UTC)


def busy_from_json(entries: list[Any]) -> list[Interval]:
    """``busy`` entries of one calendar as intervals (empty ones dropped)."""
    intervals = []
    for entry in entries:
        start, end = parse_instant(entry["start"]), parse_instant(entry["end"])
        if end > start:
            intervals.append(Interval(start, end))
    return intervals


_FREE_BUSY_REASONS = {"notFound": FreeBusyError.NOT_FOUND, "forbidden": FreeBusyError.FORBIDDEN}


def calendar_error(entry: Mapping[str, Any]) -> FreeBusyError | None:
    """The port's reading of a freeBusy answer's first per-calendar error, if any: Google's
    ``notFound``/``forbidden`` by name, any other reason (``backendError``, …) UNAVAILABLE."""
    errors = entry.get("errors") or []
    if not errors:
        return None
    return _FREE_BUSY_REASONS.get(str(errors[0].get("reason", "")), FreeBusyError.UNAVAILABLE)


def replays(event: CalendarEvent, draft: EventDraft) -> bool:
    """Whether a stored event is what ``draft`` asks for: same key, summary, start and end
    (compared to the second, the precision Google keeps)."""
    return (
        event.idempotency_key == draft.idempotency_key
        and event.owner == draft.owner
        and event.summary == draft.summary
        and _to_second(event.start) == _to_second(draft.start)
        and _to_second(event.end) == _to_second(draft.end)
    )


def _to_second(instant: datetime) -> datetime:
    return instant.astimezone(UTC).replace(microsecond=0)
