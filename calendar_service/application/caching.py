# Over 300 lines: one cache adapter; its reads, fenced writes and push feed share one store.
"""A short-lived free/busy cache in front of a calendar, kept in step with this service's
writes. Busy time is stored per (calendar, UTC day) (``busy_blocks``) and fetched a week at a
time, so one backend call answers the later days and ranges a customer asks about."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from datetime import UTC, datetime, timedelta

from agenda_kit.calendar.port import (
    CalendarEvent,
    EventChanges,
    EventDraft,
    ForwardingCalendarAdapter,
    FreeBusy,
    Interval,
    SendUpdates,
)
from agenda_kit.metrics import count_cache
from agenda_kit.resilience import Fence
from calendar_service.application.busy_blocks import DAY, BusyBlocks, clipped, midnight
from calendar_service.application.busy_time import BusyTimeCalendarAdapter
from calendar_service.application.change_feed import ChangeFeed
from calendar_service.application.slot_versions import SharedAnswers, SlotsVersion

CACHE_NAME = "calendar_freebusy"
OWN_PUSH_GRACE = 30.0
"""Seconds a push caused by our own write is expected after the write began."""
FlightKey = tuple[tuple[str, ...], datetime, datetime, Fence]
"""One shared load: its calendars, window and their write generations when it started."""
Window = tuple[datetime, datetime]
_TICK = timedelta(microseconds=1)


class CachingCalendarAdapter(BusyTimeCalendarAdapter, ForwardingCalendarAdapter):
    """Caches free/busy per (calendar, UTC day) for ``ttl_seconds``.

    A miss asks the backend once for every missing calendar over whole UTC days: from the
    first day asked through at least ``prefetch_days`` days (one call; Google's freeBusy
    takes many calendars and ranges up to 60 days), and keeps each day.

    With a ``feed`` (push notifications of changes made anywhere), a calendar it follows is
    kept up to ``followed_ttl_seconds`` (never past what the feed assures) and dropped when
    a change is pushed; the first answer of a calendar asks the feed to follow it. Staleness
    bound: past the plain TTL its busy time is used only while a notification of its channel
    arrived within the last plain TTL; a channel that went silent (a lost notification, a
    dead channel) leaves it stale no longer than without push.

    Business rules: a write through this adapter (create, cancel or move) takes that
    calendar's cached days out while it runs; a create that left a busy event puts them back
    with the event's time added (free/busy is a union of events, so that is exact), any other
    write leaves them out, so the service never offers a slot it just filled; an answer
    fetched while a write to the same calendar was in flight is not cached; per-calendar
    errors are never cached. Writes made elsewhere show up within the TTL, except to a
    ``fresh`` read, which always asks the backend (and refreshes the cache).

    Singleflight: identical cache misses in flight at the same time (same calendars, window
    and write generation) share one backend call; a read that starts after a write to one of
    its calendars never joins a flight that started before it, and a ``fresh`` read never
    joins one. A caller that is cancelled leaves the flight running for the others. The
    shared call runs with the first caller's deadline. Free-slot questions that got the same
    busy time (one flight, the same cached days, or a later read of unchanged busy time)
    share one slot computation while it ``holds_at`` their clock (``SharedAnswers``): with
    the cache off, identical questions in flight at once read MongoDB once and compute once.
    """

    def __init__(
        self,
        inner: BusyTimeCalendarAdapter,
        ttl_seconds: float = 15.0,
        *,
        prefetch_days: int = 7,
        max_entries: int = 20_000,
        clock: Callable[[], float] = time.monotonic,
        feed: ChangeFeed | None = None,
        followed_ttl_seconds: float = 300.0,
    ) -> None:
        super().__init__(inner)
        self._backend = inner
        self.feed = feed
        self.followed_ttl = followed_ttl_seconds
        self._expected: dict[str, list[float]] = {}  # own writes' pushes to come, by deadline
        self.prefetch = timedelta(days=max(prefetch_days, 1))
        self.blocks = BusyBlocks(
            ttl_seconds, max_blocks=max_entries, clock=clock, confirmed=self._confirmed
        )
        self._flights: dict[FlightKey, asyncio.Future[dict[str, FreeBusy]]] = {}
        self.answers = SharedAnswers()
        self.coalesced = 0
        self.hits = 0
        self.misses = 0

    async def query_free_busy(
        self,
        calendar_ids: Sequence[str],
        start: datetime,
        end: datetime,
        *,
        fresh: bool = False,
    ) -> list[FreeBusy]:
        window = self._window(start, end)
        if window is None:  # not a range the cache can widen: the backend says what it is
            return await self._backend.query_free_busy(calendar_ids, start, end, fresh=fresh)
        unique = list(dict.fromkeys(calendar_ids))
        found: dict[str, FreeBusy | None] = dict.fromkeys(unique)
        if not fresh:
            if self.blocks.ttl > 0:  # else nothing is ever kept
                found.update((cid, self.blocks.answer(cid, start, end)) for cid in unique)
            missing = [cid for cid, hit in found.items() if hit is None]
            self.hits += len(unique) - len(missing)
            self.misses += len(missing)
            count_cache(CACHE_NAME, hits=len(unique) - len(missing), misses=len(missing))
        missing = [cid for cid, hit in found.items() if hit is None]
        if missing:
            loaded = await (
                self._load(missing, window, fresh=True)
                if fresh
                else self._shared_load(missing, window)
            )
            for cid in missing:
                found[cid] = self._answer(loaded.get(cid), (start, end), window, fresh=fresh)
        return [_required(found[cid]) for cid in calendar_ids]

    def _answer(
        self, loaded: FreeBusy | None, asked: Window, window: Window, *, fresh: bool
    ) -> FreeBusy | None:
        """A loaded window's answer for the range ``asked``: the cached one when it was kept
        (the same object later hits return), else the loaded answer itself when the window
        is that range (every caller of a flight gets the same object), else the window's
        answer cut to the range."""
        if loaded is None or loaded.error is not None:
            return loaded
        if not fresh and self.blocks.ttl > 0:
            kept = self.blocks.answer(loaded.calendar_id, *asked)
            if kept is not None:
                return kept
        if asked == window:
            return loaded
        return FreeBusy(calendar_id=loaded.calendar_id, busy=clipped(loaded.busy, *asked))

    def _window(self, start: datetime, end: datetime) -> Window | None:
        """Whole UTC days from ``start``'s through ``end``'s, at least ``prefetch`` long
        (the range itself when the cache is off)."""
        if start.tzinfo is None or end.tzinfo is None or end <= start:
            return None
        if self.blocks.ttl == 0:  # nothing is kept: a wider read would be wasted
            return start, end
        try:
            low = midnight(start.astimezone(UTC).date())
            high = midnight((end - _TICK).astimezone(UTC).date()) + DAY
            return low, max(high, low + self.prefetch)
        except OverflowError:
            return None

    async def _shared_load(self, calendar_ids: list[str], window: Window) -> dict[str, FreeBusy]:
        """``_load`` once for every identical miss in flight (see the class docstring)."""
        key: FlightKey = (tuple(calendar_ids), *window, self.blocks.fence(calendar_ids))
        flight = self._flights.get(key)
        if flight is None:
            flight = asyncio.ensure_future(self._load(calendar_ids, window, fresh=False))
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
        self, calendar_ids: list[str], window: Window, *, fresh: bool
    ) -> dict[str, FreeBusy]:
        """Ask the backend; keep each error-free answer no write to its calendar raced (and
        no pushed change: the feed invalidates), for longer while its changes are pushed."""
        fence = self.blocks.fence(calendar_ids)
        ttls = {cid: self._ttl(cid) for cid in calendar_ids}
        answers = await self._backend.query_free_busy(calendar_ids, *window, fresh=fresh)
        for answer in answers:
            if self.blocks.store(answer, *window, fence, ttl=ttls.get(answer.calendar_id)):
                self._follow(answer.calendar_id)
        return {answer.calendar_id: answer for answer in answers}

    def _ttl(self, calendar_id: str) -> float | None:
        """The TTL of an answer loaded from now: ``followed_ttl`` while the feed is sure to
        push a change for that long, else the cache's own (None)."""
        if self.feed is None or self.blocks.ttl == 0:
            return None
        assured = min(self.feed.assured_seconds(calendar_id), self.followed_ttl)
        return assured if assured > self.blocks.ttl else None

    def _confirmed(self, calendar_id: str) -> bool:
        return self.feed is not None and self.feed.heard_within(calendar_id, self.blocks.ttl)

    def _follow(self, calendar_id: str) -> None:
        if self.feed is not None and self._ttl(calendar_id) is None:
            self.feed.follow(calendar_id)

    async def insert_event(self, draft: EventDraft) -> tuple[CalendarEvent, bool]:
        taken = self.blocks.take(draft.calendar_id)
        try:
            async with self._own_write(draft.calendar_id):
                event, created = await self._backend.insert_event(draft)
        except BaseException:
            self.invalidate(draft.calendar_id)
            raise
        if not event.is_busy or event.calendar_id != draft.calendar_id:
            self.invalidate(draft.calendar_id)
        else:
            self.blocks.restore(taken, Interval(event.start, event.end))
        return event, created

    async def cancel_event(
        self,
        calendar_id: str,
        event_id: str,
        *,
        etag: str | None = None,
        send_updates: SendUpdates = SendUpdates.NONE,
    ) -> bool:
        self.invalidate(calendar_id)
        try:
            async with self._own_write(calendar_id):
                return await self._backend.cancel_event(
                    calendar_id, event_id, etag=etag, send_updates=send_updates
                )
        finally:
            self.invalidate(calendar_id)

    async def update_event(
        self, calendar_id: str, event_id: str, changes: EventChanges
    ) -> CalendarEvent:
        self.invalidate(calendar_id)
        try:
            async with self._own_write(calendar_id):
                return await self._backend.update_event(calendar_id, event_id, changes)
        finally:
            self.invalidate(calendar_id)

    def event_id_for(self, calendar_id: str, owner: str, idempotency_key: str) -> str:
        return self._backend.event_id_for(calendar_id, owner, idempotency_key)

    async def refuse_reused_key(self, draft: EventDraft) -> None:
        await self._backend.refuse_reused_key(draft)

    async def calendar_time_zone(self, calendar_id: str) -> str | None:
        return await self._backend.calendar_time_zone(calendar_id)

    def is_current(self, version: SlotsVersion) -> bool:
        """Whether a free-slot answer of ``version`` is still the answer now: the free/busy
        answer it read is still the cached one (no write to that calendar, no fresh read, no
        expiry since: each replaces or drops it) and the clock has not moved past it. Counts
        as the free/busy cache hit the recomputation would have been."""
        if self.blocks.answer(*version.busy_key) is not version.busy:
            return False
        if not version.holds_at(self.clock()):
            return False
        count_cache(CACHE_NAME, hits=1)
        return True

    def invalidate(self, calendar_id: str) -> None:
        """Forget every cached answer for ``calendar_id`` and fence in-flight reads."""
        self.blocks.invalidate(calendar_id)

    def pushed_change(self, calendar_id: str) -> None:
        """The feed says the calendar changed. A push our own write causes (expected since
        the write began, for ``OWN_PUSH_GRACE`` seconds) is already in the cache: it is
        consumed; any other drops the calendar's cached busy time. Google does not say who
        changed what, so a change made elsewhere whose push Google merged with ours is
        missed like a dropped push: until the followed TTL ends (or a fresh read)."""
        now = time.monotonic()
        pending = [deadline for deadline in self._expected.get(calendar_id, []) if deadline > now]
        if pending:
            self._expected[calendar_id] = pending[1:]
            return
        self._expected.pop(calendar_id, None)
        self.invalidate(calendar_id)

    @asynccontextmanager
    async def _own_write(self, calendar_id: str) -> AsyncIterator[None]:
        """Expect one push for a write through the service (it may come before the write's
        answer); a write that failed may not have happened: expect nothing from it."""
        if self.feed is None:
            yield
            return
        now = time.monotonic()
        expected = [deadline for deadline in self._expected.get(calendar_id, []) if deadline > now]
        self._expected[calendar_id] = expected
        deadline = now + OWN_PUSH_GRACE
        expected.append(deadline)
        try:
            yield
        except BaseException:
            pending = self._expected.get(calendar_id, [])  # a push may have replaced the list
            if deadline in pending:
                pending.remove(deadline)
            raise


def _required(answer: FreeBusy | None) -> FreeBusy:
    if answer is None:
        raise LookupError("the calendar backend left out a requested calendar")
    return answer
