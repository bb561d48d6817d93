"""In-memory calendars and events of the Google Calendar emulator (Calendar v3 semantics)."""

from __future__ import annotations

import itertools
import re
import uuid
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from tests.fakes.google_errors import EmulatorError

EVENT_ID = re.compile(r"[a-v0-9]{5,1024}")
MAX_FREEBUSY_RANGE = timedelta(days=62)
MAX_FREEBUSY_CALENDARS = 50
Json = dict[str, Any]


def parse_time(text: Any, name: str) -> datetime:
    if not isinstance(text, str):
        raise EmulatorError(400, "required", f"Missing {name}.")
    try:
        value = datetime.fromisoformat(text)
    except ValueError as exc:
        raise EmulatorError(400, "invalid", f"Bad {name}: {text}") from exc
    if value.tzinfo is None:
        raise EmulatorError(400, "invalid", f"Bad {name}: {text} has no offset")
    return value.astimezone(UTC)


def stamp(instant: datetime) -> str:
    return instant.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _in_zone(instant: datetime, zone: str) -> str:
    try:
        return instant.astimezone(ZoneInfo(zone)).isoformat()
    except (ZoneInfoNotFoundError, ValueError):
        return stamp(instant)


@dataclass
class StoredEvent:
    calendar_id: str
    data: Json
    start: datetime
    end: datetime

    @property
    def cancelled(self) -> bool:
        return bool(self.data.get("status") == "cancelled")


@dataclass
class EmulatorState:
    """Calendars by id; with ``allow_any_calendar`` unknown ids spring into existence."""

    allow_any_calendar: bool = False
    calendars: dict[str, dict[str, StoredEvent]] = field(default_factory=dict)
    listeners: list[Callable[[str], None]] = field(default_factory=list)
    """Called with a calendar id after each change to its events (push notifications)."""
    _etags: itertools.count[int] = field(default_factory=lambda: itertools.count(1))

    def add_calendar(self, calendar_id: str) -> None:
        self.calendars.setdefault(calendar_id, {})

    def calendar(self, calendar_id: str) -> dict[str, StoredEvent]:
        if calendar_id not in self.calendars and self.allow_any_calendar:
            self.add_calendar(calendar_id)
        if calendar_id not in self.calendars:
            raise EmulatorError(404, "notFound")
        return self.calendars[calendar_id]

    def events(self, calendar_id: str | None = None) -> list[StoredEvent]:
        """Every stored event (cancelled included), of one calendar or all."""
        ids = [calendar_id] if calendar_id is not None else list(self.calendars)
        return [event for cid in ids for event in self.calendars.get(cid, {}).values()]

    def events_per_key(self) -> Counter[str | None]:
        """How many events carry each ``extendedProperties.private.idempotencyKey``."""
        private = (e.data.get("extendedProperties", {}).get("private", {}) for e in self.events())
        return Counter(props.get("idempotencyKey") for props in private)

    def insert(self, calendar_id: str, body: Json) -> Json:
        events = self.calendar(calendar_id)
        event_id = body.get("id") or uuid.uuid4().hex
        if not isinstance(event_id, str) or not EVENT_ID.fullmatch(event_id):
            raise EmulatorError(400, "invalid", "Invalid resource id value.")
        if event_id in events:
            raise EmulatorError(409, "duplicate")
        start, end = self._times(body)
        now = datetime.now(UTC)
        data = {k: v for k, v in body.items() if k in ("summary", "description")}
        data |= {
            "kind": "calendar#event",
            "id": event_id,
            "status": "confirmed",
            "created": stamp(now),
            "htmlLink": f"https://www.google.com/calendar/event?eid={event_id}",
            "iCalUID": f"{event_id}@google.com",
            "extendedProperties": body.get("extendedProperties", {}),
        }
        stored = StoredEvent(calendar_id, data, start, end)
        self._set_times(stored, body, start, end)
        events[event_id] = stored
        return self._touch(stored, now)

    def get(self, calendar_id: str, event_id: str) -> StoredEvent:
        stored = self.calendar(calendar_id).get(event_id)
        if stored is None:
            raise EmulatorError(404, "notFound")
        return stored

    def delete(self, calendar_id: str, event_id: str) -> None:
        stored = self.get(calendar_id, event_id)
        if stored.cancelled:
            raise EmulatorError(410, "deleted")
        stored.data["status"] = "cancelled"
        self._touch(stored, datetime.now(UTC))

    def patch(self, calendar_id: str, event_id: str, body: Json) -> Json:
        """``events.patch``: the fields given replace the stored ones (``start``/``end`` as whole
        objects); a deleted event answers 410 unless the patch restores its status."""
        stored = self.get(calendar_id, event_id)
        if stored.cancelled and body.get("status", "cancelled") == "cancelled":
            raise EmulatorError(410, "deleted")
        for key in ("summary", "description", "status", "extendedProperties"):
            if key in body:
                stored.data[key] = body[key]
        if "start" in body or "end" in body:
            merged = {"start": stored.data["start"], "end": stored.data["end"]} | body
            start, end = self._times(merged)
            self._set_times(stored, merged, start, end)
        return self._touch(stored, datetime.now(UTC))

    def _times(self, body: Json) -> tuple[datetime, datetime]:
        start = parse_time((body.get("start") or {}).get("dateTime"), "start time")
        end = parse_time((body.get("end") or {}).get("dateTime"), "end time")
        if end <= start:
            raise EmulatorError(400, "timeRangeEmpty", "The specified time range is empty.")
        return start, end

    def _set_times(self, stored: StoredEvent, body: Json, start: datetime, end: datetime) -> None:
        stored.start, stored.end = start, end
        for name, instant in (("start", start), ("end", end)):
            zone = str((body.get(name) or {}).get("timeZone") or "UTC")
            stored.data[name] = {"dateTime": _in_zone(instant, zone), "timeZone": zone}

    def _touch(self, stored: StoredEvent, now: datetime) -> Json:
        stored.data["updated"] = stamp(now)
        stored.data["etag"] = f'"{next(self._etags)}"'
        for listener in self.listeners:
            listener(stored.calendar_id)
        return stored.data
