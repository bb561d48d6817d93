"""Calendar v3 JSON ⇄ ``agenda_kit.calendar.port`` values."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, date, datetime, time
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from agenda_kit.calendar.port import (
    Attendee,
    CalendarEvent,
    DateSpan,
    EventChanges,
    EventDraft,
    EventTime,
    FreeBusyError,
    Interval,
    Transparency,
)
from calendar_service.application.idempotency import fingerprint_of

JsonObject = dict[str, Any]
IDEMPOTENCY_PROPERTY = "idempotencyKey"
OWNER_PROPERTY = "agendaOwner"
FINGERPRINT_PROPERTY = "requestFingerprint"
"""The fingerprint of the request that created the event (``application.idempotency``)."""
_SERVICE_PROPERTIES = frozenset({IDEMPOTENCY_PROPERTY, OWNER_PROPERTY, FINGERPRINT_PROPERTY})


def rfc3339(instant: datetime) -> str:
    """An aware instant as RFC 3339 in UTC."""
    return instant.astimezone(UTC).isoformat().replace("+00:00", "Z")


def parse_instant(text: str) -> datetime:
    """An RFC 3339 timestamp as an aware UTC datetime."""
    return datetime.fromisoformat(text).astimezone(UTC)


def event_body(draft: EventDraft, event_id: str) -> JsonObject:
    """The ``events.insert`` body; the idempotency key, the owner and the caller's opaque
    references ride in private extended properties, with the request's fingerprint (what a
    replay of the key is compared with). Empty optional fields are left out."""
    private = service_private(
        draft.private, draft.idempotency_key, draft.owner, fingerprint_of(draft)
    )
    body: JsonObject = {
        "id": event_id,
        "summary": draft.summary,
        "description": draft.description,
        **times_body(draft.start, draft.end, draft.time_zone, draft.all_day),
        "extendedProperties": {"private": private},
    }
    if draft.location:
        body["location"] = draft.location
    if draft.attendees:
        body["attendees"] = [attendee_json(a) for a in draft.attendees]
    if draft.transparency is Transparency.TRANSPARENT:
        body["transparency"] = "transparent"
    return body


def service_private(
    private: Mapping[str, str], key: str | None, owner: str, fingerprint: str | None = None
) -> dict[str, str]:
    """The caller's references plus the service's own (key, owner, request fingerprint)."""
    merged = dict(private)
    if key is not None:
        merged[IDEMPOTENCY_PROPERTY] = key
    if owner:
        merged[OWNER_PROPERTY] = owner
    if fingerprint:
        merged[FINGERPRINT_PROPERTY] = fingerprint
    return merged


def times_body(
    start: datetime, end: datetime, time_zone: str, all_day: DateSpan | None
) -> JsonObject:
    """``start``/``end``: dates for an all-day event (end exclusive), else instants."""
    if all_day is not None:
        return {
            "start": {"date": all_day.start.isoformat()},
            "end": {"date": all_day.end.isoformat()},
        }
    return {
        "start": {"dateTime": rfc3339(start), "timeZone": time_zone},
        "end": {"dateTime": rfc3339(end), "timeZone": time_zone},
    }


def attendee_json(attendee: Attendee) -> JsonObject:
    body: JsonObject = {"email": attendee.email}
    if attendee.display_name:
        body["displayName"] = attendee.display_name
    if attendee.optional:
        body["optional"] = True
    return body


def patch_body(
    changes: EventChanges, current: CalendarEvent, time_zone: str, fingerprint: str | None = None
) -> JsonObject:
    """The ``events.patch`` body of ``changes`` (``private`` keeps the service's own
    properties of ``current``, and the ``fingerprint`` it was created with)."""
    body: JsonObject = {}
    for name, value in (
        ("summary", changes.summary),
        ("description", changes.description),
        ("location", changes.location),
    ):
        if value is not None:
            body[name] = value
    if changes.time is not None:
        body |= timing_body(changes.time, time_zone)
    if changes.attendees is not None:
        body["attendees"] = [attendee_json(a) for a in changes.attendees]
    if changes.transparency is not None:
        body["transparency"] = changes.transparency.value
    if changes.private is not None:
        owner_key = current.idempotency_key
        body["extendedProperties"] = {
            "private": service_private(changes.private, owner_key, current.owner, fingerprint)
        }
    return body


def timing_body(time: EventTime, time_zone: str) -> JsonObject:
    return times_body(time.start, time.end, time.time_zone or time_zone, time.all_day)


def stored_key(data: Mapping[str, Any]) -> str | None:
    """The idempotency key an event was written with, if any."""
    private = data.get("extendedProperties", {}).get("private", {})
    key = private.get(IDEMPOTENCY_PROPERTY)
    return key if isinstance(key, str) else None


def kept_fingerprint(data: Mapping[str, Any]) -> str | None:
    """The fingerprint of the request an event was created with, if it has one."""
    kept = _private(data).get(FINGERPRINT_PROPERTY)
    return kept if isinstance(kept, str) else None


def is_all_day(data: Mapping[str, Any]) -> bool:
    return "date" in (data.get("start") or {})


def event_from_json(
    calendar_id: str, data: Mapping[str, Any], zone: str = "UTC"
) -> CalendarEvent | None:
    """The port's event, or None for a bare cancelled stub without times. ``zone`` is the
    calendar's own: an all-day event's dates are its local midnights there."""
    start, end = data.get("start"), data.get("end")
    if not start or not end:
        return None
    all_day = None
    if "date" in start and "date" in end:
        all_day = DateSpan(date.fromisoformat(start["date"]), date.fromisoformat(end["date"]))
    private = _private(data)
    return CalendarEvent(
        event_id=str(data["id"]),
        calendar_id=calendar_id,
        summary=str(data.get("summary", "")),
        description=str(data.get("description", "")),
        start=_when(start, zone),
        end=_when(end, zone),
        time_zone=str(start.get("timeZone") or (zone if all_day else "UTC")),
        status=str(data.get("status", "confirmed")),
        idempotency_key=stored_key(data),
        owner=str(private.get(OWNER_PROPERTY, "")),
        private={str(k): str(v) for k, v in private.items() if k not in _SERVICE_PROPERTIES},
        location=str(data.get("location", "")),
        attendees=tuple(_attendee(a) for a in data.get("attendees") or () if "email" in a),
        all_day=all_day,
        transparency=(
            Transparency.TRANSPARENT
            if data.get("transparency") == "transparent"
            else Transparency.OPAQUE
        ),
        recurring_event_id=str(data.get("recurringEventId", "")),
        created=_stamp(data.get("created")),
        updated=_stamp(data.get("updated")),
        etag=str(data.get("etag", "")),
    )


def _attendee(data: Mapping[str, Any]) -> Attendee:
    return Attendee(
        email=str(data["email"]),
        display_name=str(data.get("displayName", "")),
        optional=bool(data.get("optional", False)),
        response_status=str(data.get("responseStatus", "needsAction")),
    )


def _stamp(text: Any) -> datetime | None:
    if not isinstance(text, str):
        return None
    try:
        return parse_instant(text)
    except ValueError:
        return None


def _private(data: Mapping[str, Any]) -> Mapping[str, Any]:
    private = (data.get("extendedProperties") or {}).get("private") or {}
    return private if isinstance(private, Mapping) else {}


def _when(value: Mapping[str, Any], zone: str) -> datetime:
    if "dateTime" in value:
        return parse_instant(str(value["dateTime"]))
    day = date.fromisoformat(str(value["date"]))
    return datetime.combine(day, time(0), tzinfo=_zone(zone)).astimezone(UTC)


def _zone(name: str) -> ZoneInfo:
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")


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
    """Whether a stored event has the fields every record has of ``draft``: same key, owner,
    summary, start and end (compared to the second, the precision Google keeps) and
    transparency. How an event without a request fingerprint is compared on a replay."""
    return (
        event.idempotency_key == draft.idempotency_key
        and event.owner == draft.owner
        and event.summary == draft.summary
        and _to_second(event.start) == _to_second(draft.start)
        and _to_second(event.end) == _to_second(draft.end)
        and event.transparency is draft.transparency
    )


def _to_second(instant: datetime) -> datetime:
    return instant.astimezone(UTC).replace(microsecond=0)
