"""A short-lived free/busy cache in front of a calendar, invalidated by this service's writes."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Sequence
from datetime import datetime

from agenda_kit.calendar.port import CalendarEvent, EventDraft, EventPage, FreeBusy
from agenda_kit.metrics import count_cache
from calendar_service.application.busy_time import BusyTimeCalendarAdapter

CACHE_NAME = "calendar_freebusy"
RangeKey = tuple[datetime, datetime]
FlightKey = tuple[tuple[str, ...], datetime, datetime, tuple[int, ...]]


class CachingCalendarAdapter(BusyTimeCalendarAdapter):
    """Caches free/busy per (calendar, range) for ``ttl_seconds``.

    Business rules: a write through this adapter (create, cancel or move) drops every cached
    answer for that calendar at once, so the service never offers a slot it just filled;
    an answer fetched while a write to the same calendar was in flight is not cached;
    per-calendar errors are never cached. Writes made elsewhere show up within the TTL,
    except to a ``fresh`` read, which always asks the backend (and refreshes the cache).

    Singleflight: identical cache misses in flight at the same time (same calendars, range
    and write generation) share one backend call; a read that starts after a write to one of
    its calendars never joins a flight that started before it, and a ``fresh`` read never
    joins one. A caller that is cancelled leaves the flight running for the others. The
    shared call runs with the first caller's deadline.
    """

    def __init__(
        self,
        inner: BusyTimeCalendarAdapter,
        ttl_seconds: float = 15.0,
        *,
        max_entries: int = 10_000,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._inner = inner
        self._ttl = ttl_seconds
        self._max_entries = max_entries
        self._clock = clock
        self._entries: dict[str, dict[RangeKey, tuple[float, FreeBusy]]] = {}
        self._size = 0
        self._generation: dict[str, int] = {}
        self._flights: dict[FlightKey, asyncio.Future[dict[str, FreeBusy]]] = {}
        self.hits = 0
        self.misses = 0
        self.coalesced = 0

    async def query_free_busy(
        self,
        calendar_ids: Sequence[str],
        start: datetime,
        end: datetime,
        *,
        fresh: bool = False,
    ) -> list[FreeBusy]:
        unique = list(dict.fromkeys(calendar_ids))
        if fresh:
            found: dict[str, FreeBusy | None] = dict.fromkeys(unique)
            missing = unique
        else:
            found = {cid: self._unexpired(cid, (start, end)) for cid in unique}
            missing = [cid for cid, hit in found.items() if hit is None]
            self.hits += len(found) - len(missing)
            self.misses += len(missing)
            count_cache(CACHE_NAME, hits=len(found) - len(missing), misses=len(missing))
        if missing and fresh:
            found.update(await self._load(missing, start, end, fresh=True))
        elif missing:
            found.update(await self._shared_load(missing, start, end))
        return [_required(found[cid]) for cid in calendar_ids]

    async def _shared_load(
        self, calendar_ids: list[str], start: datetime, end: datetime
    ) -> dict[str, FreeBusy]:
        """``_load`` once for every identical miss in flight (see the class docstring)."""
        generations = tuple(self._generation.get(cid, 0) for cid in calendar_ids)
        key: FlightKey = (tuple(calendar_ids), start, end, generations)
        flight = self._flights.get(key)
        if flight is None:
            flight = asyncio.ensure_future(self._load(calendar_ids, start, end, fresh=False))
            self._flights[key] = flight
            flight.add_done_callback(lambda done: self._landed(key, done))
        else:
            self.coalesced += 1
        return await asyncio.shield(flight)

    def _landed(self, key: FlightKey, flight: asyncio.Future[dict[str, FreeBusy]]) -> None:
        if self._flights.get(key) is flight:
            del self._flights[key]
        if not flight.cancelled():
            flight.exception()  # retrieved: nobody may be left to await it

    async def _load(
        self, calendar_ids: list[str], start: datetime, end: datetime, *, fresh: bool
    ) -> dict[str, FreeBusy]:
        """Ask the backend; keep each error-free answer no write to its calendar raced."""
        generations = {cid: self._generation.get(cid, 0) for cid in calendar_ids}
        answers = await self._inner.query_free_busy(calendar_ids, start, end, fresh=fresh)
        for answer in answers:
            if answer.error is None and generations[answer.calendar_id] == (
                self._generation.get(answer.calendar_id, 0)
            ):
                self._store(answer.calendar_id, (start, end), answer)
        return {answer.calendar_id: answer for answer in answers}

    async def insert_event(self, draft: EventDraft) -> tuple[CalendarEvent, bool]:
        self.invalidate(draft.calendar_id)
        try:
            return await self._inner.insert_event(draft)
        finally:
            self.invalidate(draft.calendar_id)

    async def cancel_event(self, calendar_id: str, event_id: str) -> bool:
        self.invalidate(calendar_id)
        try:
            return await self._inner.cancel_event(calendar_id, event_id)
        finally:
            self.invalidate(calendar_id)

    async def move_event(
        self,
        calendar_id: str,
        event_id: str,
        start: datetime,
        end: datetime,
        *,
        time_zone: str | None = None,
    ) -> CalendarEvent:
        self.invalidate(calendar_id)
        try:
            return await self._inner.move_event(
                calendar_id, event_id, start, end, time_zone=time_zone
            )
        finally:
            self.invalidate(calendar_id)

    async def get_event(self, calendar_id: str, event_id: str) -> CalendarEvent:
        return await self._inner.get_event(calendar_id, event_id)

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
        return await self._inner.list_events(
            calendar_id,
            start,
            end,
            page_size=page_size,
            page_token=page_token,
            include_cancelled=include_cancelled,
        )

    def invalidate(self, calendar_id: str) -> None:
        """Forget every cached answer for ``calendar_id`` and fence in-flight reads."""
        self._generation[calendar_id] = self._generation.get(calendar_id, 0) + 1
        self._size -= len(self._entries.pop(calendar_id, {}))

    def _unexpired(self, calendar_id: str, key: RangeKey) -> FreeBusy | None:
        entry = self._entries.get(calendar_id, {}).get(key)
        if entry is None:
            return None
        stored_at, answer = entry
        if self._clock() - stored_at > self._ttl:
            del self._entries[calendar_id][key]
            self._size -= 1
            return None
        return answer

    def _store(self, calendar_id: str, key: RangeKey, answer: FreeBusy) -> None:
        if self._size >= self._max_entries:
            self._entries.clear()
            self._size = 0
        ranges = self._entries.setdefault(calendar_id, {})
        self._size += key not in ranges
        ranges[key] = (self._clock(), answer)


def _required(answer: FreeBusy | None) -> FreeBusy:
    if answer is None:
        raise LookupError("the calendar backend left out a requested calendar")
    return answer
