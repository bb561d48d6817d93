"""The calendar service's read use cases (writes: ``event_writes``): each checks the
business limits, then asks the calendar, showing a caller only what it may see."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime

from agenda_kit.calendar.errors import EventNotFoundError
from agenda_kit.calendar.port import CalendarEvent, ChangeQuery, EventPage, FreeBusy, SlotRules
from agenda_kit.calendar.validation import check_calendar_id
from calendar_service.application.busy_time import BusyTimeCalendarAdapter
from calendar_service.application.event_checks import check_id, check_private
from calendar_service.application.slot_versions import SlotsVersion
from calendar_service.domain import validation as rules
from calendar_service.domain.slots import SlotResult


@dataclass(frozen=True, slots=True)
class Caller:
    """Who asks about events: the owner name it writes under, and whether it may see (and,
    with a write grant, cancel) events of other owners."""

    name: str
    all_owners: bool = False

    def sees(self, event: CalendarEvent) -> bool:
        """Own events always; others' (and owner-less ones) only with ``all_owners``."""
        return self.all_owners or (bool(event.owner) and event.owner == self.name)


def hidden() -> EventNotFoundError:
    """Another owner's event looks exactly like a missing one (no enumeration); the answer
    names no id."""
    return EventNotFoundError()


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
        check_calendar_id(query.calendar_id)
        rules.check_count(
            "weekly_hours", len(query.rules.weekly_hours), lowest=0, highest=rules.MAX_WEEKLY_HOURS
        )
        rules.check_count("windows", len(query.rules.windows), lowest=0, highest=rules.MAX_WINDOWS)
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
        for index, calendar_id in enumerate(calendar_ids):
            check_calendar_id(calendar_id, f"calendar_ids[{index}]")
        rules.check_range("range", start, end, rules.MAX_QUERY_RANGE)
        return await self._calendar.query_free_busy(calendar_ids, start, end, fresh=fresh)


class GetEvent:
    """One event of one calendar, if the caller may see it (else not found, like an
    absent one)."""

    def __init__(self, calendar: BusyTimeCalendarAdapter) -> None:
        self._calendar = calendar

    async def execute(self, calendar_id: str, event_id: str, caller: Caller) -> CalendarEvent:
        check_calendar_id(calendar_id)
        check_id("event_id", event_id)
        event = await self._calendar.get_event(calendar_id, event_id)
        if not caller.sees(event):
            raise hidden()
        return event


@dataclass(frozen=True, slots=True, kw_only=True)
class EventListing:
    """Which page of events a caller wants: those overlapping ``[start, end)`` or, with
    ``updated_since``/``sync_token``, the change feed (``start``/``end`` then optional)."""

    calendar_id: str
    start: datetime | None
    end: datetime | None
    page_size: int
    page_token: str | None
    include_cancelled: bool
    private: dict[str, str] = field(default_factory=dict)
    updated_since: datetime | None = None
    sync_token: str | None = None

    @property
    def is_feed(self) -> bool:
        return self.updated_since is not None or self.sync_token is not None


class ListEvents:
    """Events overlapping a range of at most a year, or the changes since a feed position,
    one page (≤ 1000) at a time; only those the caller may see. The backend lists only the
    caller's own unless it sees all owners, so a page token names no other owner's event or
    change (on Google a sync token's feed takes no filter, and its tokens name nothing: the
    page is filtered here, and may hold fewer than ``page_size``). A feed's deletion the
    provider no longer describes (``EventPage.deleted``, id only) names no owner, so only a
    caller who sees all owners receives it."""

    def __init__(self, calendar: BusyTimeCalendarAdapter) -> None:
        self._calendar = calendar

    async def execute(self, listing: EventListing, caller: Caller) -> EventPage:
        _check_listing(listing)
        owner = None if caller.all_owners else caller.name  # tokens name only theirs
        if listing.is_feed:
            page = await self._calendar.list_changes(replace(_change_query(listing), owner=owner))
        else:
            assert listing.start is not None and listing.end is not None
            page = await self._calendar.list_events(
                listing.calendar_id,
                listing.start,
                listing.end,
                page_size=listing.page_size,
                page_token=listing.page_token,
                include_cancelled=listing.include_cancelled,
                private=listing.private or None,
                owner=owner,
            )
        visible = tuple(
            event
            for event in page.events
            if caller.sees(event) and _holds_every(event, listing.private)
        )
        return EventPage(
            events=visible,
            next_page_token=page.next_page_token,
            next_sync_token=page.next_sync_token,
            # a deletion known by id only names no owner: only a caller who sees them all
            deleted=page.deleted if caller.all_owners else (),
        )


def _holds_every(event: CalendarEvent, wanted: Mapping[str, str]) -> bool:
    """Whether ``event``'s private properties hold every entry of the filter. Checked here on
    every page, whatever the backend did with the filter: Google's extended-properties guide
    says repeated constraints are OR'ed (its reference says all must match)."""
    return all(event.private.get(key) == value for key, value in wanted.items())


def _check_listing(listing: EventListing) -> None:
    check_calendar_id(listing.calendar_id)
    rules.check_count("page_size", listing.page_size, lowest=1, highest=1000)
    check_private("private_property_filter", listing.private, most=rules.MAX_PROPERTY_FILTER)
    for name, token in (("page_token", listing.page_token), ("sync_token", listing.sync_token)):
        if token is not None:
            rules.check_text(name, token, longest=rules.MAX_TOKEN)
    if listing.sync_token is not None:
        if listing.start is not None or listing.updated_since is not None or listing.private:
            raise rules.InvalidRequestError(
                "sync_token", "must not be combined with a range, updated_since or a filter"
            )
        return
    if listing.start is None or listing.end is None:
        if listing.updated_since is None:
            raise rules.InvalidRequestError("range", "start and end are required")
        return
    rules.check_range("range", listing.start, listing.end, rules.MAX_LIST_RANGE)


def _change_query(listing: EventListing) -> ChangeQuery:
    return ChangeQuery(
        calendar_id=listing.calendar_id,
        updated_since=listing.updated_since,
        sync_token=listing.sync_token,
        start=listing.start,
        end=listing.end,
        private=dict(listing.private),
        page_size=listing.page_size,
        page_token=listing.page_token,
    )
