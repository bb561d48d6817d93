"""The calendar service's use cases: each checks the business limits, then asks the calendar."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from agenda_kit.calendar.port import CalendarEvent, EventDraft, EventPage, FreeBusy, SlotRules
from calendar_service.application.busy_time import BusyTimeCalendarAdapter
from calendar_service.domain import validation as rules
from calendar_service.domain.slots import SlotResult


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
        rules.check_text("calendar_id", query.calendar_id, longest=rules.MAX_ID)
        return await self._calendar.find_slots(
            query.calendar_id,
            query.start,
            query.end,
            query.duration_minutes,
            query.rules,
            fresh=query.fresh,
        )


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
    """Create an event once per idempotency key; returns the event and whether it is new."""

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
        return await self._calendar.insert_event(draft)


class GetEvent:
    """One event of one calendar."""

    def __init__(self, calendar: BusyTimeCalendarAdapter) -> None:
        self._calendar = calendar

    async def execute(self, calendar_id: str, event_id: str) -> CalendarEvent:
        rules.check_text("calendar_id", calendar_id, longest=rules.MAX_ID)
        rules.check_text("event_id", event_id, longest=rules.MAX_ID)
        return await self._calendar.get_event(calendar_id, event_id)


class CancelEvent:
    """Cancel an event; an event already gone is not an error (returns False)."""

    def __init__(self, calendar: BusyTimeCalendarAdapter) -> None:
        self._calendar = calendar

    async def execute(self, calendar_id: str, event_id: str) -> bool:
        rules.check_text("calendar_id", calendar_id, longest=rules.MAX_ID)
        rules.check_text("event_id", event_id, longest=rules.MAX_ID)
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
    """Move an event to a new time keeping its id; an absent or cancelled event is
    ``EventNotFoundError``; moving it where it already is succeeds (idempotent)."""

    def __init__(self, calendar: BusyTimeCalendarAdapter) -> None:
        self._calendar = calendar

    async def execute(self, move: EventMove) -> CalendarEvent:
        rules.check_text("calendar_id", move.calendar_id, longest=rules.MAX_ID)
        rules.check_text("event_id", move.event_id, longest=rules.MAX_ID)
        rules.check_range("time", move.start, move.end, rules.MAX_EVENT_LENGTH)
        if move.time_zone is not None:
            rules.check_time_zone("time_zone", move.time_zone)
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
    """Events overlapping a range of at most a year, one page (≤ 1000) at a time."""

    def __init__(self, calendar: BusyTimeCalendarAdapter) -> None:
        self._calendar = calendar

    async def execute(self, listing: EventListing) -> EventPage:
        rules.check_text("calendar_id", listing.calendar_id, longest=rules.MAX_ID)
        rules.check_range("range", listing.start, listing.end, rules.MAX_LIST_RANGE)
        rules.check_count("page_size", listing.page_size, lowest=1, highest=1000)
        return await self._calendar.list_events(
            listing.calendar_id,
            listing.start,
            listing.end,
            page_size=listing.page_size,
            page_token=listing.page_token,
            include_cancelled=listing.include_cancelled,
        )
