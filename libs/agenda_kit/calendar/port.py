"""``ICalendarAdapter``: the calendar port (docs/architecture.md#the-calendar-port).

All instants are timezone-aware; adapters return them in UTC. Ranges are half-open
``[start, end)``.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, time


@dataclass(frozen=True, slots=True)
class Interval:
    """A half-open interval ``[start, end)`` of aware instants."""

    start: datetime
    end: datetime

    def __post_init__(self) -> None:
        if self.start.tzinfo is None or self.end.tzinfo is None:
            raise ValueError("interval bounds must be timezone-aware")
        if self.end <= self.start:
            raise ValueError("interval end must be after its start")


@dataclass(frozen=True, slots=True, kw_only=True)
class WeeklyHours:
    """A recurring local window: ``day_of_week`` (1 = Monday … 7 = Sunday) from ``start`` to
    ``end`` local time; ``end`` of ``None`` means midnight at the end of that day."""

    day_of_week: int
    start: time
    end: time | None


@dataclass(frozen=True, slots=True, kw_only=True)
class SlotRules:
    """How free slots are cut: availability, grid, buffers and notice.

    With no ``weekly_hours`` and no ``windows`` the whole requested range is available.
    ``step_minutes`` of ``None`` means the duration when it divides 1440, else 15.
    """

    time_zone: str = "UTC"
    weekly_hours: tuple[WeeklyHours, ...] = ()
    windows: tuple[Interval, ...] = ()
    step_minutes: int | None = None
    buffer_before_minutes: int = 0
    buffer_after_minutes: int = 0
    minimum_notice_minutes: int = 0
    max_results: int = 500


@dataclass(frozen=True, slots=True, kw_only=True)
class FreeBusy:
    """Busy time of one calendar; ``error`` names why it could not be read (busy is then empty)."""

    calendar_id: str
    busy: tuple[Interval, ...] = ()
    error: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class EventDraft:
    """What a caller asks to be written."""

    calendar_id: str
    summary: str
    description: str
    start: datetime
    end: datetime
    idempotency_key: str
    time_zone: str = "UTC"
    owner: str = ""
    """The principal writing it (set by the calendar service, never by its callers)."""
    private: dict[str, str] = field(default_factory=dict)
    """Opaque references (Google ``extendedProperties.private``), never personal data."""


@dataclass(frozen=True, slots=True, kw_only=True)
class CalendarEvent:
    """An event as stored by the provider."""

    event_id: str
    calendar_id: str
    summary: str
    description: str
    start: datetime
    end: datetime
    time_zone: str = "UTC"
    status: str = "confirmed"
    idempotency_key: str | None = None
    owner: str = ""
    """The principal that wrote it; empty for events written outside the service."""
    private: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True, slots=True, kw_only=True)
class EventPage:
    """One page of events ordered by start; ``next_page_token`` is None on the last page."""

    events: tuple[CalendarEvent, ...] = field(default_factory=tuple)
    next_page_token: str | None = None


class ICalendarAdapter(ABC):
    """A professional's calendar: where availability is read and appointments are written.

    Business rules every implementation keeps:
    - ``create_event`` is idempotent on ``idempotency_key``: a retry after a lost response
      returns the event created the first time and never creates a second one;
    - ``cancel_event`` of an event that is already gone succeeds (returns False);
    - ``move_event`` keeps the event's id; moving it to where it already is succeeds;
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
    async def cancel_event(self, calendar_id: str, event_id: str) -> bool:
        """Cancel the event; False when it was already cancelled or gone."""

    @abstractmethod
    async def move_event(
        self, calendar_id: str, event_id: str, start: datetime, end: datetime
    ) -> CalendarEvent:
        """Move the event to ``[start, end)`` keeping its id (Google ``events.patch``) and
        return it; ``EventNotFoundError`` when absent or cancelled. Idempotent: moving it to
        where it already is succeeds."""

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
    ) -> EventPage:
        """Events overlapping ``[start, end)``, ordered by start, one page at a time."""
