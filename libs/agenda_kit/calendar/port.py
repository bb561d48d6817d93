"""``ICalendarAdapter``: the calendar port (docs/architecture.md#the-calendar-port,
docs/calendar-service.md).

All instants are timezone-aware; adapters return them in UTC. Ranges are half-open
``[start, end)``.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from datetime import datetime

from agenda_kit.calendar.values import (
    Attendee,
    CalendarEvent,
    ChangeQuery,
    ConflictPolicy,
    DateSpan,
    DeletedEvent,
    EventChanges,
    EventDraft,
    EventPage,
    EventTime,
    FreeBusy,
    FreeBusyError,
    Interval,
    SendUpdates,
    SlotRules,
    Transparency,
    WeeklyHours,
)

__all__ = [
    "Attendee",
    "CalendarEvent",
    "ChangeQuery",
    "ConflictPolicy",
    "DateSpan",
    "DeletedEvent",
    "EventChanges",
    "EventDraft",
    "EventPage",
    "EventTime",
    "ForwardingCalendarAdapter",
    "FreeBusy",
    "FreeBusyError",
    "ICalendarAdapter",
    "Interval",
    "SendUpdates",
    "SlotRules",
    "Transparency",
    "WeeklyHours",
]


class ICalendarAdapter(ABC):
    """A professional's calendar: where availability is read and appointments are written.

    Business rules every implementation keeps:
    - ``create_event`` is idempotent on ``idempotency_key``: a retry after a lost response
      returns the event created the first time and never creates a second one;
    - ``cancel_event`` of an event that is already gone succeeds (returns False);
    - ``move_event`` and ``update_event`` keep the event's id; moving it to where it already
      is succeeds;
    - writes are create-if-free unless the draft's (or change's) ``conflict_policy`` allows
      an overlap: an opaque event is written only if its time is free, else
      ``SlotTakenError`` (the calendar service keeps this guarantee for every client;
      a raw backend behind it only writes);
    - a write with an ``etag`` happens only if the event still has it (``EtagMismatchError``);
    - reads are cached by default; ``fresh=True`` bypasses every cache and every shared
      in-flight request on the client and the server side (use it to re-check before a write);
    - failures are ``agenda_kit.calendar.errors`` exceptions, never vendor exceptions.
    """

    @abstractmethod
    async def get_free_slots(
        self,
        calendar_id: str,
        start_date: datetime,
        end_date: datetime,
        duration_minutes: int,
        rules: SlotRules | None = None,
        *,
        fresh: bool = False,
    ) -> list[datetime]:
        """Start instants of free ``duration_minutes`` slots in ``[start_date, end_date)``;
        ``fresh=True`` reads the backend now, past every cache."""

    async def create_event(
        self,
        calendar_id: str,
        summary: str,
        description: str,
        start_time: datetime,
        end_time: datetime,
        *,
        idempotency_key: str,
        time_zone: str = "UTC",
        private: Mapping[str, str] | None = None,
    ) -> str:
        """Create the event (idempotently) and return its provider id (the original signature,
        served by ``insert_event``); ``private`` holds opaque references, never personal
        data."""
        draft = EventDraft(
            calendar_id=calendar_id,
            summary=summary,
            description=description,
            start=start_time,
            end=end_time,
            idempotency_key=idempotency_key,
            time_zone=time_zone,
            private=dict(private or {}),
        )
        event, _created = await self.insert_event(draft)
        return event.event_id

    @abstractmethod
    async def insert_event(self, draft: EventDraft) -> tuple[CalendarEvent, bool]:
        """Create the event idempotently; returns the stored event and whether it is new."""

    @abstractmethod
    async def query_free_busy(
        self,
        calendar_ids: Sequence[str],
        start: datetime,
        end: datetime,
        *,
        fresh: bool = False,
    ) -> list[FreeBusy]:
        """Busy intervals of each calendar, in the order asked; ``fresh=True`` reads the
        backend now, past every cache."""

    @abstractmethod
    async def get_event(self, calendar_id: str, event_id: str) -> CalendarEvent:
        """One event; ``EventNotFoundError`` when absent."""

    @abstractmethod
    async def cancel_event(
        self,
        calendar_id: str,
        event_id: str,
        *,
        etag: str | None = None,
        send_updates: SendUpdates = SendUpdates.NONE,
    ) -> bool:
        """Cancel the event; False when it was already cancelled or gone."""

    @abstractmethod
    async def move_event(
        self, calendar_id: str, event_id: str, start: datetime, end: datetime
    ) -> CalendarEvent:
        """Move the event to ``[start, end)`` keeping its id (Google ``events.patch``) and
        return it; ``EventNotFoundError`` when absent or cancelled. Idempotent: moving it to
        where it already is succeeds."""

    @abstractmethod
    async def update_event(
        self, calendar_id: str, event_id: str, changes: EventChanges
    ) -> CalendarEvent:
        """Apply ``changes`` keeping the id and return the whole event;
        ``EventNotFoundError`` when absent or cancelled."""

    @abstractmethod
    async def list_events(
        self,
        calendar_id: str,
        start: datetime,
        end: datetime,
        *,
        page_size: int = 100,
        page_token: str | None = None,
        include_cancelled: bool = False,
        private: Mapping[str, str] | None = None,
        owner: str | None = None,
    ) -> EventPage:
        """Events overlapping ``[start, end)``, ordered by start, one page at a time;
        ``private``: only those whose private properties hold every entry; ``owner``: only
        those that owner wrote (a page, and its token, then names no other owner's event)."""

    @abstractmethod
    async def list_changes(self, query: ChangeQuery) -> EventPage:
        """The change feed: events changed since ``query``'s position, cancelled ones
        included, one page at a time; the last page carries ``next_sync_token``. A deletion
        the provider no longer describes is in the page's ``deleted`` (id only)."""


class ForwardingCalendarAdapter(ICalendarAdapter):
    """A port decorator's base: every method forwards to ``inner``; a decorator (a cache, a
    counter) overrides only the methods it changes."""

    def __init__(self, inner: ICalendarAdapter) -> None:
        self._inner = inner

    async def get_free_slots(
        self,
        calendar_id: str,
        start_date: datetime,
        end_date: datetime,
        duration_minutes: int,
        rules: SlotRules | None = None,
        *,
        fresh: bool = False,
    ) -> list[datetime]:
        return await self._inner.get_free_slots(
            calendar_id, start_date, end_date, duration_minutes, rules, fresh=fresh
        )

    async def insert_event(self, draft: EventDraft) -> tuple[CalendarEvent, bool]:
        return await self._inner.insert_event(draft)

    async def query_free_busy(
        self,
        calendar_ids: Sequence[str],
        start: datetime,
        end: datetime,
        *,
        fresh: bool = False,
    ) -> list[FreeBusy]:
        return await self._inner.query_free_busy(calendar_ids, start, end, fresh=fresh)

    async def get_event(self, calendar_id: str, event_id: str) -> CalendarEvent:
        return await self._inner.get_event(calendar_id, event_id)

    async def cancel_event(
        self,
        calendar_id: str,
        event_id: str,
        *,
        etag: str | None = None,
        send_updates: SendUpdates = SendUpdates.NONE,
    ) -> bool:
        return await self._inner.cancel_event(
            calendar_id, event_id, etag=etag, send_updates=send_updates
        )

    async def move_event(
        self, calendar_id: str, event_id: str, start: datetime, end: datetime
    ) -> CalendarEvent:
        return await self._inner.move_event(calendar_id, event_id, start, end)

    async def update_event(
        self, calendar_id: str, event_id: str, changes: EventChanges
    ) -> CalendarEvent:
        return await self._inner.update_event(calendar_id, event_id, changes)

    async def list_events(
        self,
        calendar_id: str,
        start: datetime,
        end: datetime,
        *,
        page_size: int = 100,
        page_token: str | None = None,
        include_cancelled: bool = False,
        private: Mapping[str, str] | None = None,
        owner: str | None = None,
    ) -> EventPage:
        return await self._inner.list_events(
            calendar_id,
            start,
            end,
            page_size=page_size,
            page_token=page_token,
            include_cancelled=include_cancelled,
            private=private,
            owner=owner,
        )

    async def list_changes(self, query: ChangeQuery) -> EventPage:
        return await self._inner.list_changes(query)
