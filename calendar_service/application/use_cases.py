"""The calendar service's use cases: each checks the business limits, then asks the calendar."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime

from agenda_kit.calendar.errors import EventNotFoundError
from agenda_kit.calendar.port import CalendarEvent, EventDraft, EventPage, FreeBusy, SlotRules
from calendar_service.application.busy_time import BusyTimeCalendarAdapter
from calendar_service.application.slot_versions import SlotsVersion
from calendar_service.domain import validation as rules
from calendar_service.domain.slots import SlotResult

RESERVED_PROPERTIES = frozenset({"idempotencyKey", "agendaOwner"})
MAX_PROPERTIES = 20


@dataclass(frozen=True, slots=True)
class Caller:
    """Who asks about events: the owner name it writes under, and whether it may see (and,
    with a write grant, cancel) events of other owners."""

    name: str
    all_owners: bool = False

    def sees(self, event: CalendarEvent) -> bool:
        """Own events always; others' (and owner-less ones) only with ``all_owners``."""
        return self.all_owners or (bool(event.owner) and event.owner == self.name)


def _hidden(calendar_id: str, event_id: str) -> EventNotFoundError:
    """Another owner's event looks exactly like a missing one (no enumeration)."""
    return EventNotFoundError(f"event {event_id!r} not found in {calendar_id!r}")


def check_private(properties: dict[str, str]) -> None:
    """Opaque references: a few short entries, none of the service's own keys."""
    rules.check_count("private_properties", len(properties), lowest=0, highest=MAX_PROPERTIES)
    for key, value in properties.items():
        rules.check_text("private_properties", key, longest=64)
        rules.check_text("private_properties", value, longest=256, required=False)
        if key in RESERVED_PROPERTIES:
            raise rules.InvalidRequestError("private_properties", f"{key!r} is reserved")


@dataclass(frozen=True, slots=True, kw_only=True)
class FreeSlotsQuery:
    """Which slots a caller wants: calendar, range, duration and cutting rules."""

    calendar_id: str
    start: datetime
    end: datetime
    duration_minutes: int
    rules: SlotRules
    fresh: bool = False


class GetFreeSlots:
    """Free slots of one calendar; the slot engine validates grid, buffers and notice.
    A ``fresh`` query reads busy time past the free/busy cache."""

    def __init__(self, calendar: BusyTimeCalendarAdapter) -> None:
        self._calendar = calendar

    async def execute(self, query: FreeSlotsQuery) -> SlotResult:
        result, _ = await self.execute_versioned(query)
        return result

    async def execute_versioned(self, query: FreeSlotsQuery) -> tuple[SlotResult, SlotsVersion]:
        """The slots and what they were computed from: a caller may keep a reply built from
        them and reuse it while ``is_current(version)`` (same query, unchanged busy time)."""
        rules.check_text("calendar_id", query.calendar_id, longest=rules.MAX_ID)
        return await self._calendar.find_slots_versioned(
            query.calendar_id,
            query.start,
            query.end,
            query.duration_minutes,
            query.rules,
            fresh=query.fresh,
        )

    def is_current(self, version: SlotsVersion) -> bool:
        """Whether an answer of ``version`` is still exactly the answer now."""
        return self._calendar.is_current(version)


class QueryFreeBusy:
    """Busy time of up to ``MAX_CALENDARS_PER_QUERY`` calendars over at most 93 days;
    ``fresh`` reads past the free/busy cache."""

    def __init__(self, calendar: BusyTimeCalendarAdapter) -> None:
        self._calendar = calendar

    async def execute(
        self, calendar_ids: list[str], start: datetime, end: datetime, *, fresh: bool = False
    ) -> list[FreeBusy]:
        rules.check_count(
            "calendar_ids", len(calendar_ids), lowest=1, highest=rules.MAX_CALENDARS_PER_QUERY
        )
        for calendar_id in calendar_ids:
            rules.check_text("calendar_ids", calendar_id, longest=rules.MAX_ID)
        rules.check_range("range", start, end, rules.MAX_QUERY_RANGE)
        return await self._calendar.query_free_busy(calendar_ids, start, end, fresh=fresh)


class CreateEvent:
    """Create an event once per idempotency key; returns the event and whether it is new.

    The draft's owner is the calling principal; the same key used by another owner is an
    ``IdempotencyConflictError`` (never the other owner's event)."""

    def __init__(self, calendar: BusyTimeCalendarAdapter) -> None:
        self._calendar = calendar

    async def execute(self, draft: EventDraft) -> tuple[CalendarEvent, bool]:
        rules.check_text("calendar_id", draft.calendar_id, longest=rules.MAX_ID)
        rules.check_text("summary", draft.summary, longest=rules.MAX_SUMMARY)
        rules.check_text(
            "description", draft.description, longest=rules.MAX_DESCRIPTION, required=False
        )
        rules.check_text(
            "idempotency_key", draft.idempotency_key, longest=rules.MAX_IDEMPOTENCY_KEY
        )
        rules.check_range("time", draft.start, draft.end, rules.MAX_EVENT_LENGTH)
        rules.check_time_zone("time_zone", draft.time_zone)
        check_private(draft.private)
        return await self._calendar.insert_event(draft)


class GetEvent:
    """One event of one calendar, if the caller may see it (else not found)."""

    def __init__(self, calendar: BusyTimeCalendarAdapter) -> None:
        self._calendar = calendar

    async def execute(self, calendar_id: str, event_id: str, caller: Caller) -> CalendarEvent:
        rules.check_text("calendar_id", calendar_id, longest=rules.MAX_ID)
        rules.check_text("event_id", event_id, longest=rules.MAX_ID)
        event = await self._calendar.get_event(calendar_id, event_id)
        if not caller.sees(event):
            raise _hidden(calendar_id, event_id)
        return event


class CancelEvent:
    """Cancel an event the caller may see; an event already gone is not an error (returns
    False). Another owner's event is answered exactly as an id that was never created on
    that calendar (the backend's own answer for one), so nothing tells the two apart."""

    def __init__(self, calendar: BusyTimeCalendarAdapter) -> None:
        self._calendar = calendar

    async def execute(self, calendar_id: str, event_id: str, caller: Caller) -> bool:
        rules.check_text("calendar_id", calendar_id, longest=rules.MAX_ID)
        rules.check_text("event_id", event_id, longest=rules.MAX_ID)
        try:
            event: CalendarEvent | None = await self._calendar.get_event(calendar_id, event_id)
        except EventNotFoundError:
            event = None  # absent: the backend's cancel says what that means
        if event is not None and not caller.sees(event):
            event_id = secrets.token_hex(16)  # never created (base32hex-valid for Google)
        return await self._calendar.cancel_event(calendar_id, event_id)


@dataclass(frozen=True, slots=True, kw_only=True)
class EventMove:
    """Where an existing event must go; ``time_zone`` of None keeps the event's zone."""

    calendar_id: str
    event_id: str
    start: datetime
    end: datetime
    time_zone: str | None = None


class MoveEvent:
    """Move an event the caller may see to a new time keeping its id; an absent or cancelled
    event (or another owner's) is ``EventNotFoundError``; moving it where it already is
    succeeds (idempotent)."""

    def __init__(self, calendar: BusyTimeCalendarAdapter) -> None:
        self._calendar = calendar

    async def execute(self, move: EventMove, caller: Caller) -> CalendarEvent:
        rules.check_text("calendar_id", move.calendar_id, longest=rules.MAX_ID)
        rules.check_text("event_id", move.event_id, longest=rules.MAX_ID)
        rules.check_range("time", move.start, move.end, rules.MAX_EVENT_LENGTH)
        if move.time_zone is not None:
            rules.check_time_zone("time_zone", move.time_zone)
        if not caller.sees(await self._calendar.get_event(move.calendar_id, move.event_id)):
            raise _hidden(move.calendar_id, move.event_id)
        return await self._calendar.move_event(
            move.calendar_id, move.event_id, move.start, move.end, time_zone=move.time_zone
        )


@dataclass(frozen=True, slots=True, kw_only=True)
class EventListing:
    """Which page of events overlapping ``[start, end)`` a caller wants."""

    calendar_id: str
    start: datetime
    end: datetime
    page_size: int
    page_token: str | None
    include_cancelled: bool


class ListEvents:
    """Events overlapping a range of at most a year, one page (≤ 1000) at a time; only those
    the caller may see (so a page can hold fewer than ``page_size``)."""

    def __init__(self, calendar: BusyTimeCalendarAdapter) -> None:
        self._calendar = calendar

    async def execute(self, listing: EventListing, caller: Caller) -> EventPage:
        rules.check_text("calendar_id", listing.calendar_id, longest=rules.MAX_ID)
        rules.check_range("range", listing.start, listing.end, rules.MAX_LIST_RANGE)
        rules.check_count("page_size", listing.page_size, lowest=1, highest=1000)
        page = await self._calendar.list_events(
            listing.calendar_id,
            listing.start,
            listing.end,
            page_size=listing.page_size,
            page_token=listing.page_token,
            include_cancelled=listing.include_cancelled,
        )
        visible = tuple(event for event in page.events if caller.sees(event))
        return EventPage(events=visible, next_page_token=page.next_page_token)
