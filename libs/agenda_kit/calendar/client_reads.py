"""The calendar client's read cache: free slots and free/busy, fenced by this client's writes.

Reads are cached for ``ttl`` seconds keyed on the full request; a create/cancel/move on a
calendar drops that calendar's cached reads before and after the write, and a read that
raced such a write is not cached (``agenda_kit.cache.FencedCache``). A ``fresh`` read
skips the cache (its answer then refreshes it).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import TypeVar

from google.protobuf.message import Message

from agenda_kit.cache import FencedCache
from agenda_kit.calendar.port import FreeBusy
from agenda_kit.metrics import count_cache

V = TypeVar("V")

SLOTS_CACHE = "calendar_client_free_slots"
BUSY_CACHE = "calendar_client_free_busy"


@dataclass(frozen=True, slots=True)
class ReadKey:
    """A cached read: the method, the calendars it reads (for invalidation) and the request."""

    method: str
    calendar_ids: frozenset[str]
    request: bytes

    @classmethod
    def of(cls, method: str, calendar_ids: Iterable[str], request: Message) -> ReadKey:
        return cls(method, frozenset(calendar_ids), request.SerializeToString(deterministic=True))


def _calendars(key: ReadKey) -> frozenset[str]:
    return key.calendar_ids


class CachedReads:
    """The two caches of the client and the write fence around them."""

    def __init__(self, ttl: float) -> None:
        self.slots: FencedCache[ReadKey, tuple[datetime, ...]] = FencedCache(ttl, _calendars)
        self.busy: FencedCache[ReadKey, tuple[FreeBusy, ...]] = FencedCache(ttl, _calendars)

    @property
    def hits(self) -> int:
        return self.slots.entries.hits + self.busy.entries.hits

    @property
    def misses(self) -> int:
        return self.slots.entries.misses + self.busy.entries.misses

    async def read_through(
        self,
        cache: FencedCache[ReadKey, V],
        name: str,
        key: ReadKey,
        load: Callable[[], Awaitable[V]],
        *,
        fresh: bool = False,
    ) -> V:
        """An unexpired cached answer (unless ``fresh``), else ``load()``; not stored if a
        write of this client to one of its calendars started or ended meanwhile."""
        if not fresh:
            cached = cache.get(key)
            if cached is not None:
                count_cache(name, hits=1)
                return cached
            count_cache(name, misses=1)
        return await cache.read_through(key, load, fresh=True)

    @asynccontextmanager
    async def writing(self, calendar_id: str) -> AsyncIterator[None]:
        """Drop the calendar's cached reads before and after a write (whatever its outcome)."""
        self._invalidate(calendar_id)
        try:
            yield
        finally:
            self._invalidate(calendar_id)

    def _invalidate(self, calendar_id: str) -> None:
        self.slots.invalidate(calendar_id)
        self.busy.invalidate(calendar_id)
