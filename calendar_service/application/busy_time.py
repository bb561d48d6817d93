"""Calendars that know only busy time: free slots are computed here, once, for every backend."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from agenda_kit.calendar.port import CalendarEvent, ICalendarAdapter, SlotRules
from calendar_service.application.free_busy_errors import raise_for_free_busy_error
from calendar_service.application.slot_mapping import to_slot_query
from calendar_service.domain.slots import SlotResult, Span, find_free_slots


class BusyTimeCalendarAdapter(ICalendarAdapter, ABC):
    """An ``ICalendarAdapter`` whose provider answers free/busy and writes events.

    Business rule: a free slot is what the domain slot engine says is free given the
    provider's busy time (``create_event`` comes from the port, over ``insert_event``).
    Subclasses implement ``query_free_busy``, ``insert_event``, ``get_event``,
    ``cancel_event``, ``move_event`` and ``list_events``. ``clock`` is "now" for the minimum
    notice (tests replace it).
    """

    clock: Callable[[], datetime] = staticmethod(lambda: datetime.now(UTC))

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
        result = await self.find_slots(
            calendar_id, start_date, end_date, duration_minutes, rules, fresh=fresh
        )
        return list(result.starts)

    async def find_slots(
        self,
        calendar_id: str,
        start: datetime,
        end: datetime,
        duration_minutes: int,
        rules: SlotRules | None = None,
        *,
        now: datetime | None = None,
        fresh: bool = False,
    ) -> SlotResult:
        """Free slots with the truncation flag; validates the query before any provider call.
        ``fresh=True`` reads busy time past every cache."""
        rules = rules or SlotRules()
        query = to_slot_query(start, end, duration_minutes, rules)
        # Busy time just outside the range still matters through the buffers.
        before = timedelta(minutes=rules.buffer_before_minutes)
        after = timedelta(minutes=rules.buffer_after_minutes)
        (free_busy,) = await self.query_free_busy(
            [calendar_id], start - before, end + after, fresh=fresh
        )
        raise_for_free_busy_error(free_busy)
        busy = [Span(interval.start, interval.end) for interval in free_busy.busy]
        return find_free_slots(query, busy, now or self.clock())

    @abstractmethod
    async def move_event(
        self,
        calendar_id: str,
        event_id: str,
        start: datetime,
        end: datetime,
        *,
        time_zone: str | None = None,
    ) -> CalendarEvent:
        """The port's ``move_event``; ``time_zone`` of None keeps the event's zone."""
