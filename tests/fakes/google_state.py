"""In-memory calendars and events of the Google Calendar emulator (Calendar v3 semantics).

Strict where Google is: an event body may only hold fields of the Calendar v3 ``Event``
resource a client may write (anything else is 400, as Google's "Unknown name" refusal);
``start``/``end`` carry either ``dateTime`` (+ ``timeZone``) or an all-day ``date`` (end
exclusive); ``transparency`` is ``opaque`` or ``transparent``; an ``If-Match`` etag that is
stale is 412 ``conditionNotMet``; a service account without a delegated subject may not
invite attendees (403 ``forbiddenForServiceAccounts``); a private extended property whose
key is over 44 characters is silently dropped and a value over 1024 characters silently cut,
as Google's extended-properties guide says (``dropped_properties`` counts them, so suites can
assert the client never lost one). ``schema_violations`` counts every request refused for its
shape, so suites can assert the client never sent one.
"""

from __future__ import annotations

import itertools
import re
import uuid
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from tests.fakes.google_errors import EmulatorError
from tests.process_clock import services_now

EVENT_ID = re.compile(r"[a-v0-9]{5,1024}")
MAX_PROPERTY_KEY = 44
"""Google drops a private or shared extended property with a longer key, silently."""
MAX_PROPERTY_VALUE = 1024
"""Google cuts a longer value, silently."""
MAX_FREEBUSY_RANGE = timedelta(days=62)
MAX_FREEBUSY_CALENDARS = 50
WRITABLE = frozenset(
    {
        "id",
        "summary",
        "description",
        "location",
        "start",
        "end",
        "attendees",
        "transparency",
        "extendedProperties",
        "status",
        "recurringEventId",
        "visibility",
        "colorId",
        "reminders",
    }
)
"""``Event`` fields a client may send (a subset of the resource; the rest is read only)."""
TIME_FIELDS = frozenset({"dateTime", "date", "timeZone"})
ATTENDEE_FIELDS = frozenset({"email", "displayName", "optional", "responseStatus", "comment"})
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


def _zone(name: str) -> ZoneInfo:
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError) as exc:
        raise EmulatorError(400, "invalid", f"Invalid time zone definition: {name}") from exc


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
    changed: int = 0
    """The state's change counter when this event last changed (sync tokens)."""

    @property
    def cancelled(self) -> bool:
        return bool(self.data.get("status") == "cancelled")

    @property
    def busy(self) -> bool:
        return not self.cancelled and self.data.get("transparency") != "transparent"


@dataclass
class EmulatorState:
    """Calendars by id; with ``allow_any_calendar`` unknown ids spring into existence."""

    allow_any_calendar: bool = False
    calendars: dict[str, dict[str, StoredEvent]] = field(default_factory=dict)
    zones: dict[str, str] = field(default_factory=dict)
    listeners: list[Callable[[str], None]] = field(default_factory=list)
    """Called with a calendar id after each change to its events (push notifications)."""
    schema_violations: Counter[str] = field(default_factory=Counter)
    """Requests refused for their shape, by what was wrong."""
    dropped_properties: Counter[str] = field(default_factory=Counter)
    """Extended properties Google would lose silently ("key" dropped, "value" cut)."""
    clock: Callable[[], datetime] = services_now
    """Stamps ``updated``/``created`` as Google does; the one real clock of the tests
    (``tests/process_clock``), injectable."""
    private_filter_any: bool = False
    """Repeated ``privateExtendedProperty`` constraints OR'ed, as Google's extended-properties
    guide says ("an event only needs to match one"); False: all must match, as its
    ``events.list`` reference says. Which one Google does, clients must not depend on."""
    bare_deletions: bool = True
    """A deleted event in an incremental listing (``syncToken``/``updatedMin``) is a bare
    stub: kind, etag, id and status only, as Google's Event reference allows ("deleted
    events are only guaranteed to have the id field populated"); ``events.get`` still
    answers it whole ("the get method always returns them"). False: the whole resource."""
    _etags: itertools.count[int] = field(default_factory=lambda: itertools.count(1))
    changes: int = 0
    sync_generation: int = 0
    """Sync tokens name the generation they were issued in; a token of an earlier one is
    expired (410 ``fullSyncRequired``)."""

    def add_calendar(self, calendar_id: str, time_zone: str = "UTC") -> None:
        self.calendars.setdefault(calendar_id, {})
        self.zones.setdefault(calendar_id, time_zone)

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

    def refuse(self, what: str, message: str) -> EmulatorError:
        """A 400 for the request's shape, counted as a schema violation."""
        self.schema_violations[what] += 1
        return EmulatorError(400, "invalid", message)

    def insert(self, calendar_id: str, body: Json, *, may_invite: bool = True) -> Json:
        events = self.calendar(calendar_id)
        self._check_body(body, may_invite=may_invite)
        body = self._kept_properties(body)
        event_id = body.get("id") or uuid.uuid4().hex
        if not isinstance(event_id, str) or not EVENT_ID.fullmatch(event_id):
            raise self.refuse("id", "Invalid resource id value.")
        if event_id in events:
            raise EmulatorError(409, "duplicate")
        now = self.clock()
        data = {k: v for k, v in body.items() if k in WRITABLE and k not in ("start", "end")}
        data |= {
            "kind": "calendar#event",
            "id": event_id,
            "status": body.get("status", "confirmed"),
            "created": stamp(now),
            "htmlLink": f"https://www.google.com/calendar/event?eid={event_id}",
            "iCalUID": f"{event_id}@google.com",
            "extendedProperties": body.get("extendedProperties", {}),
        }
        data["attendees"] = _answered(body.get("attendees"))
        if not data["attendees"]:
            del data["attendees"]
        stored = StoredEvent(calendar_id, data, now, now)
        self._set_times(stored, body)
        events[event_id] = stored
        return self._touch(stored, now)

    def get(self, calendar_id: str, event_id: str) -> StoredEvent:
        stored = self.calendar(calendar_id).get(event_id)
        if stored is None:
            raise EmulatorError(404, "notFound")
        return stored

    def delete(self, calendar_id: str, event_id: str, if_match: str | None = None) -> None:
        stored = self.get(calendar_id, event_id)
        if stored.cancelled:
            raise EmulatorError(410, "deleted")
        self._precondition(stored, if_match)
        stored.data["status"] = "cancelled"
        self._touch(stored, self.clock())

    def patch(
        self,
        calendar_id: str,
        event_id: str,
        body: Json,
        *,
        if_match: str | None = None,
        may_invite: bool = True,
    ) -> Json:
        """``events.patch``: the fields given replace the stored ones (``start``/``end`` as whole
        objects); a deleted event answers 410 unless the patch restores its status."""
        stored = self.get(calendar_id, event_id)
        if stored.cancelled and body.get("status", "cancelled") == "cancelled":
            raise EmulatorError(410, "deleted")
        self._check_body(body, may_invite=may_invite, partial=True)
        body = self._kept_properties(body)
        self._precondition(stored, if_match)
        for key in ("summary", "description", "location", "status", "transparency"):
            if key in body:
                stored.data[key] = body[key]
        if "extendedProperties" in body:
            stored.data["extendedProperties"] = body["extendedProperties"]
        if "attendees" in body:
            stored.data["attendees"] = _answered(body["attendees"])
        if "start" in body or "end" in body:
            merged = {"start": stored.data["start"], "end": stored.data["end"]} | body
            self._set_times(stored, merged)
        return self._touch(stored, self.clock())

    def _kept_properties(self, body: Json) -> Json:
        """The body as Google keeps it: extended properties with keys over 44 characters
        dropped, values over 1024 cut (no error: the guide says "silently")."""
        extended = body.get("extendedProperties")
        if not isinstance(extended, dict):
            return body
        kept: Json = {}
        for kind, properties in extended.items():
            if not isinstance(properties, dict):
                kept[kind] = properties
                continue
            kept[kind] = {}
            for key, value in properties.items():
                if len(key) > MAX_PROPERTY_KEY:
                    self.dropped_properties["key"] += 1
                    continue
                if isinstance(value, str) and len(value) > MAX_PROPERTY_VALUE:
                    self.dropped_properties["value"] += 1
                    value = value[:MAX_PROPERTY_VALUE]
                kept[kind][key] = value
        return body | {"extendedProperties": kept}

    def _precondition(self, stored: StoredEvent, if_match: str | None) -> None:
        if if_match is not None and if_match != "*" and if_match != stored.data.get("etag"):
            raise EmulatorError(412, "conditionNotMet", "Precondition Failed")

    def _check_body(self, body: Json, *, may_invite: bool, partial: bool = False) -> None:
        unknown = sorted(set(body) - WRITABLE)
        if unknown:
            raise self.refuse(
                "unknownField", f'Invalid JSON payload received. Unknown name "{unknown[0]}"'
            )
        if not partial and ("start" not in body or "end" not in body):
            raise EmulatorError(400, "required", "Missing end time.")
        for name in ("start", "end"):
            if name in body:
                self._check_time(name, body[name])
        if "transparency" in body and body["transparency"] not in ("opaque", "transparent"):
            raise self.refuse("transparency", "Invalid value for transparency.")
        for text in ("summary", "description", "location"):
            if text in body and not isinstance(body[text], str):
                raise self.refuse(text, f"Invalid value for {text}.")
        attendees = body.get("attendees")
        if attendees is not None:
            self._check_attendees(attendees)
            if attendees and not may_invite:
                raise EmulatorError(
                    403,
                    "forbiddenForServiceAccounts",
                    "Service accounts cannot invite attendees without Domain-Wide Delegation "
                    "of Authority.",
                )
        private = (body.get("extendedProperties") or {}).get("private", {})
        if not isinstance(private, dict) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in private.items()
        ):
            raise self.refuse("extendedProperties", "Invalid extended properties.")

    def _check_time(self, name: str, value: Any) -> None:
        if not isinstance(value, dict) or set(value) - TIME_FIELDS:
            raise self.refuse("time", f"Invalid {name}.")
        if ("date" in value) == ("dateTime" in value):
            raise self.refuse("time", f"{name} needs exactly one of date and dateTime.")
        if "date" in value:
            try:
                date.fromisoformat(value["date"])
            except (TypeError, ValueError) as exc:
                raise self.refuse("time", f"Invalid {name} date.") from exc
        if "timeZone" in value:
            _zone(value["timeZone"])

    def _check_attendees(self, attendees: Any) -> None:
        if not isinstance(attendees, list):
            raise self.refuse("attendees", "Invalid attendees.")
        for attendee in attendees:
            if not isinstance(attendee, dict) or set(attendee) - ATTENDEE_FIELDS:
                raise self.refuse("attendees", "Invalid attendee.")
            if "@" not in str(attendee.get("email", "")):
                raise EmulatorError(400, "invalid", "Invalid attendee email.")

    def _instant(self, calendar_id: str, value: Json, name: str) -> datetime:
        if "date" in value:
            zone = _zone(self.zones.get(calendar_id, "UTC"))
            day = date.fromisoformat(value["date"])
            return datetime.combine(day, time(0), zone).astimezone(UTC)
        return parse_time(value.get("dateTime"), name)

    def _set_times(self, stored: StoredEvent, body: Json) -> None:
        start_value, end_value = body.get("start") or {}, body.get("end") or {}
        if ("date" in start_value) != ("date" in end_value):
            raise self.refuse("time", "start and end must both be dates or both times.")
        start = self._instant(stored.calendar_id, start_value, "start time")
        end = self._instant(stored.calendar_id, end_value, "end time")
        if end <= start:
            raise EmulatorError(400, "timeRangeEmpty", "The specified time range is empty.")
        stored.start, stored.end = start, end
        for name, value, instant in (("start", start_value, start), ("end", end_value, end)):
            if "date" in value:
                stored.data[name] = {"date": value["date"]}
                continue
            zone = str(value.get("timeZone") or "UTC")
            stored.data[name] = {"dateTime": _in_zone(instant, zone), "timeZone": zone}

    def _touch(self, stored: StoredEvent, now: datetime) -> Json:
        self.changes += 1
        stored.changed = self.changes
        stored.data["updated"] = stamp(now)
        stored.data["etag"] = f'"{next(self._etags)}"'
        for listener in self.listeners:
            listener(stored.calendar_id)
        return stored.data

    def expire_sync_tokens(self) -> None:
        """Every sync token issued so far becomes invalid (Google's 410 fullSyncRequired)."""
        self.sync_generation += 1


def _answered(attendees: Any) -> list[Json]:
    return [{"responseStatus": "needsAction"} | dict(a) for a in attendees or ()]
