"""A short-lived free/busy cache in front of a calendar, invalidated by this service's writes."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Sequence
from datetime import datetime

from agenda_kit.calendar.port import (
    CalendarEvent,
    EventDraft,
    ForwardingCalendarAdapter,
    FreeBusy,
)
from agenda_kit.metrics import count_cache
from agenda_kit.resilience import Fence, FencedCache
from calendar_service.application.busy_time import BusyTimeCalendarAdapter
from calendar_service.application.slot_versions import SlotsVersion

CACHE_NAME = "calendar_freebusy"
EntryKey = tuple[str, datetime, datetime]
"""One cached answer: (calendar, start, end)."""
FlightKey = tuple[datetime, datetime, Fence]
"""One shared load: its range and the calendars' write generations when it started."""


class CachingCalendarAdapter(BusyTimeCalendarAdapter, ForwardingCalendarAdapter):
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
        super().__init__(inner)
        self._backend = inner
        self.cache: FencedCache[EntryKey, FreeBusy] = FencedCache(
            ttl_seconds, _calendar_of, max_entries=max_entries, clock=clock
        )
        self._flights: dict[FlightKey, asyncio.Future[dict[str, FreeBusy]]] = {}
        self.coalesced = 0

    @property
    def hits(self) -> int:
        return self.cache.entries.hits

    @property
    def misses(self) -> int:
        return self.cache.entries.misses

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
            found = {cid: self.cache.get((cid, start, end)) for cid in unique}
            missing = [cid for cid, hit in found.items() if hit is None]
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
        key: FlightKey = (start, end, self.cache.fence(calendar_ids))
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
        fences = {cid: self.cache.fence([cid]) for cid in calendar_ids}
        answers = await self._backend.query_free_busy(calendar_ids, start, end, fresh=fresh)
        for answer in answers:
            if answer.error is None:
                key = (answer.calendar_id, start, end)
                self.cache.put(key, answer, fences[answer.calendar_id])
        return {answer.calendar_id: answer for answer in answers}

    async def insert_event(self, draft: EventDraft) -> tuple[CalendarEvent, bool]:
        self.invalidate(draft.calendar_id)
        try:
            return await self._backend.insert_event(draft)
        finally:
            self.invalidate(draft.calendar_id)

    async def cancel_event(self, calendar_id: str, event_id: str) -> bool:
        self.invalidate(calendar_id)
        try:
            return await self._backend.cancel_event(calendar_id, event_id)
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
            return await self._backend.move_event(
                calendar_id, event_id, start, end, time_zone=time_zone
            )
        finally:
            self.invalidate(calendar_id)

    def is_current(self, version: SlotsVersion) -> bool:
        """Whether a free-slot answer of ``version`` is still the answer now: the free/busy
        answer it read is still the cached one (no write to that calendar, no fresh read, no
        expiry since: each replaces or drops it) and the clock has not moved past it. Counts
        as the free/busy cache hit the recomputation would have been."""
        if self.cache.get(version.busy_key) is not version.busy:
            return False
        if not version.holds_at(self.clock()):
            return False
        count_cache(CACHE_NAME, hits=1)
        return True

    def invalidate(self, calendar_id: str) -> None:
        """Forget every cached answer for ``calendar_id`` and fence in-flight reads."""
        self.cache.invalidate(calendar_id)


def _calendar_of(key: EntryKey) -> tuple[str]:
    return (key[0],)


def _required(answer: FreeBusy | None) -> FreeBusy:
    if answer is None:
        raise LookupError("the calendar backend left out a requested calendar")
    return answer
