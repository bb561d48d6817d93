"""A hand-written fake calendar backend: events in a dict, same rules as the real adapters."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import datetime

from agenda_kit.calendar.errors import (
    CalendarError,
    CalendarNotFoundError,
    EventNotFoundError,
    IdempotencyConflictError,
    InvalidCalendarRequestError,
)
from agenda_kit.calendar.port import (
    CalendarEvent,
    EventDraft,
    EventPage,
    FreeBusy,
    FreeBusyError,
    Interval,
)
from calendar_service.application.busy_time import BusyTimeCalendarAdapter


class InMemoryCalendar(BusyTimeCalendarAdapter):
    """Events per calendar in memory; ``fail_with`` makes every call raise that error."""

    def __init__(self, clock: Callable[[], datetime] | None = None) -> None:
        if clock is not None:
            self.clock = clock
        self.events: dict[str, CalendarEvent] = {}
        self.free_busy_calls = 0
        self.fresh_free_busy_calls = 0
        self.fail_with: CalendarError | None = None

    def _check(self) -> None:
        if self.fail_with is not None:
            raise self.fail_with

    async def query_free_busy(
        self,
        calendar_ids: Sequence[str],
        start: datetime,
        end: datetime,
        *,
        fresh: bool = False,
    ) -> list[FreeBusy]:
        self._check()
        self.free_busy_calls += 1
        self.fresh_free_busy_calls += fresh
        return [self._busy(calendar_id, start, end) for calendar_id in calendar_ids]

    def _busy(self, calendar_id: str, start: datetime, end: datetime) -> FreeBusy:
        if calendar_id.startswith("missing"):
            return FreeBusy(calendar_id=calendar_id, error=FreeBusyError.NOT_FOUND)
        spans = sorted(
            (max(e.start, start), min(e.end, end))
            for e in self.events.values()
            if e.calendar_id == calendar_id
            and e.status != "cancelled"
            and e.start < end
            and e.end > start
        )
        return FreeBusy(calendar_id=calendar_id, busy=tuple(Interval(s, e) for s, e in spans))

    async def insert_event(self, draft: EventDraft) -> tuple[CalendarEvent, bool]:
        self._check()
        event_id = hashlib.sha256(
            f"{draft.calendar_id}\0{draft.idempotency_key}".encode()
        ).hexdigest()[:26]
        existing = self.events.get(event_id)
        if existing is not None:
            if (existing.start, existing.end, existing.owner) != (
                draft.start,
                draft.end,
                draft.owner,
            ):
                raise IdempotencyConflictError("idempotency key reused for another event")
            return existing, False
        event = CalendarEvent(
            event_id=event_id,
            calendar_id=draft.calendar_id,
            summary=draft.summary,
            description=draft.description,
            start=draft.start,
            end=draft.end,
            time_zone=draft.time_zone,
            idempotency_key=draft.idempotency_key,
            owner=draft.owner,
            private=dict(draft.private),
        )
        self.events[event_id] = event
        return event, True

    async def get_event(self, calendar_id: str, event_id: str) -> CalendarEvent:
        self._check()
        if calendar_id.startswith("missing"):  # as in free/busy: an unknown calendar
            raise CalendarNotFoundError(f"calendar {calendar_id!r} not found")
        event = self.events.get(event_id)
        if event is None or event.calendar_id != calendar_id:
            raise EventNotFoundError(f"event {event_id!r} not found")
        return event

    async def cancel_event(self, calendar_id: str, event_id: str) -> bool:
        event = await self.get_event(calendar_id, event_id)
        if event.status == "cancelled":
            return False
        self.events[event_id] = replace(event, status="cancelled")
        return True

    async def move_event(
        self,
        calendar_id: str,
        event_id: str,
        start: datetime,
        end: datetime,
        *,
        time_zone: str | None = None,
    ) -> CalendarEvent:
        """Same id, new times; a cancelled or unknown event is ``EventNotFoundError``."""
        event = await self.get_event(calendar_id, event_id)
        if event.status == "cancelled":
            raise EventNotFoundError(f"event {event_id!r} is cancelled")
        if end <= start:
            raise InvalidCalendarRequestError("end must be after start")
        moved = replace(event, start=start, end=end, time_zone=time_zone or event.time_zone)
        self.events[event_id] = moved
        return moved

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
        self._check()
        matching = sorted(
            (
                e
                for e in self.events.values()
                if e.calendar_id == calendar_id
                and e.start < end
                and e.end > start
                and (include_cancelled or e.status != "cancelled")
            ),
            key=lambda e: (e.start, e.event_id),
        )
        try:
            offset = int(page_token or 0)
        except ValueError as error:
            raise InvalidCalendarRequestError("invalid page token") from error
        page = matching[offset : offset + page_size]
        more = offset + page_size < len(matching)
        return EventPage(
            events=tuple(page), next_page_token=str(offset + page_size) if more else None
        )
