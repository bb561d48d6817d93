"""Calendars that know only busy time: free slots are computed here, once, for every backend."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from agenda_kit.calendar.port import (
    CalendarEvent,
    EventChanges,
    EventDraft,
    EventTime,
    FreeBusy,
    ICalendarAdapter,
    SlotRules,
)
from calendar_service.application.free_busy_errors import raise_for_free_busy_error
from calendar_service.application.slot_mapping import to_slot_query
from calendar_service.application.slot_versions import (
    BusyKey,
    SharedAnswers,
    SlotsVersion,
    version_of,
)
from calendar_service.domain.event_ids import event_id_for
from calendar_service.domain.slot_intervals import to_micros
from calendar_service.domain.slots import SlotQuery, SlotResult, free_slots_of


class BusyTimeCalendarAdapter(ICalendarAdapter, ABC):
    """An ``ICalendarAdapter`` whose provider answers free/busy and writes events.

    Business rule: a free slot is what the domain slot engine says is free given the
    provider's busy time (``create_event`` comes from the port, over ``insert_event``).
    Subclasses implement ``query_free_busy``, ``insert_event``, ``get_event``,
    ``cancel_event``, ``update_event`` (``move_event`` is an update of the time),
    ``list_events``, ``list_changes`` and ``calendar_time_zone``. ``clock`` is "now" for
    the minimum notice (tests replace it).

    A backend only writes: create-if-free is the service's (``guard.SlotGuard``), over any
    backend. Event ids of writes through the service are ``event_id_for(calendar, owner,
    key)`` on every backend.
    """

    clock: Callable[[], datetime] = staticmethod(lambda: datetime.now(UTC))
    answers: SharedAnswers | None = None
    """Where a subclass keeps slot answers to reuse for unchanged busy time (None: never)."""

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
        result, _ = await self.find_slots_versioned(
            calendar_id, start, end, duration_minutes, rules, now=now, fresh=fresh
        )
        return result

    async def find_slots_versioned(
        self,
        calendar_id: str,
        start: datetime,
        end: datetime,
        duration_minutes: int,
        rules: SlotRules | None = None,
        *,
        now: datetime | None = None,
        fresh: bool = False,
    ) -> tuple[SlotResult, SlotsVersion]:
        """``find_slots`` and what its answer was computed from (see ``is_current``)."""
        rules = rules or SlotRules()
        query = to_slot_query(start, end, duration_minutes, rules)
        # Busy time just outside the range still matters through the buffers.
        before = timedelta(minutes=rules.buffer_before_minutes)
        after = timedelta(minutes=rules.buffer_after_minutes)
        busy_key: BusyKey = (calendar_id, start - before, end + after)
        (free_busy,) = await self.query_free_busy(
            [calendar_id], busy_key[1], busy_key[2], fresh=fresh
        )
        raise_for_free_busy_error(free_busy)
        return self.slots_from(
            busy_key, query, free_busy, now or self.clock(), rules.minimum_notice_minutes
        )

    def slots_from(
        self,
        busy_key: BusyKey,
        query: SlotQuery,
        free_busy: FreeBusy,
        now: datetime,
        notice_minutes: int,
    ) -> tuple[SlotResult, SlotsVersion]:
        """The slots of ``query`` given ``free_busy`` (read under ``busy_key``) at ``now``:
        with ``answers``, the one computed before from the same busy time while it
        ``holds_at(now)`` (then it is exactly this answer; see ``SharedAnswers``)."""
        if self.answers is not None:
            kept = self.answers.get(busy_key, query, free_busy, now)
            if kept is not None:
                return kept
        busy = [(to_micros(interval.start), to_micros(interval.end)) for interval in free_busy.busy]
        result = free_slots_of(query, busy, now)
        answer = result, version_of(busy_key, free_busy, result, now, notice_minutes)
        return answer if self.answers is None else self.answers.put(busy_key, query, answer)

    def is_current(self, version: SlotsVersion) -> bool:
        """Whether an answer of ``version`` is still the answer now. Without a free/busy
        cache to tell that its busy time is unchanged: never."""
        return False

    async def move_event(
        self,
        calendar_id: str,
        event_id: str,
        start: datetime,
        end: datetime,
        *,
        time_zone: str | None = None,
    ) -> CalendarEvent:
        """The port's ``move_event``: an update of the time; ``time_zone`` of None keeps
        the event's zone."""
        time = EventTime(start=start, end=end, time_zone=time_zone)
        return await self.update_event(calendar_id, event_id, EventChanges(time=time))

    def event_id_for(self, calendar_id: str, owner: str, idempotency_key: str) -> str:
        """The id a write of ``owner`` with ``idempotency_key`` gives its event."""
        return event_id_for(calendar_id, owner, idempotency_key)

    @abstractmethod
    async def refuse_reused_key(self, draft: EventDraft) -> None:
        """Raise ``IdempotencyConflictError`` if ``draft``'s key already names an event of
        another request (live or cancelled); nothing when the key is unused or ``draft``
        repeats its request."""

    @abstractmethod
    async def calendar_time_zone(self, calendar_id: str) -> str | None:
        """The calendar's own IANA zone (all-day events are its local dates), or None when
        the backend does not know one (then the request's zone is used)."""
