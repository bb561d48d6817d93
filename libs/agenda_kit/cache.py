"""The one cache layer of both services: a bounded TTL/LRU map (``TtlCache``, cachetools
underneath) and write fencing over it (``FencedCache``), both with injectable clocks.

Rules every cache of the product follows (docs/architecture.md, "Caches", lists them all):
- bounded: at most ``max_entries`` values; when full, expired entries go first, then the least
  recently used one, one at a time (never "clear everything");
- a value is fresh for ``ttl`` seconds after ``put`` and never served after that (``ttl`` 0
  disables the cache, ``math.inf`` keeps values until evicted or invalidated);
- fenced: a writer invalidates the tags it changes before and after its write; a load that
  started before either call is returned to its caller but not stored (``read_through``).

Meant for one asyncio event loop: no method awaits while it changes shared state, so coroutines
cannot interleave inside them and no lock is needed (not thread-safe).
"""

from __future__ import annotations

import math
import time
from collections.abc import Awaitable, Callable, Iterable
from typing import Generic, TypeVar

from cachetools import TTLCache

K = TypeVar("K")
V = TypeVar("V")
Clock = Callable[[], float]
Fence = tuple[tuple[str, int], ...]

_MISSING = object()


class TtlCache(Generic[K, V]):
    """At most ``max_entries`` values, each fresh for ``ttl`` seconds after ``put``.

    When full, expired entries go first, then the least recently used one. ``hits`` and
    ``misses`` count ``get`` outcomes. A ``ttl`` of 0 disables caching (every get misses).
    """

    def __init__(self, ttl: float, *, max_entries: int = 1024, clock: Clock = time.monotonic):
        if ttl < 0 or max_entries < 1:
            raise ValueError("ttl must be >= 0 and max_entries >= 1")
        self.ttl = ttl
        self.max_entries = max_entries
        self.clock = clock
        # cachetools serves a value while ``now <= expiry``; ours stop at ``now == put + ttl``.
        lifetime = ttl if math.isinf(ttl) else math.nextafter(ttl, 0.0)
        self._entries: TTLCache[K, V] = TTLCache(max_entries, lifetime, timer=clock)
        self.hits = 0
        self.misses = 0

    def __len__(self) -> int:
        return len(self._entries)

    def get(self, key: K) -> V | None:
        """The fresh value for ``key`` (refreshing its recency), else None."""
        value = self._entries.get(key, _MISSING)
        if value is _MISSING:
            self.misses += 1
            return None
        self.hits += 1
        return value  # type: ignore[return-value]

    def put(self, key: K, value: V) -> None:
        if self.ttl == 0:
            return
        self._entries[key] = value

    def invalidate(self, match: Callable[[K], bool] | str) -> int:
        """Drop the entries whose key satisfies ``match``, or (a ``str``) are ``str`` keys
        starting with that prefix; returns how many were dropped."""
        wanted = _prefix_match(match) if isinstance(match, str) else match
        doomed = [key for key in list(self._entries.keys()) if wanted(key)]
        for key in doomed:
            self._entries.pop(key, None)
        return len(doomed)

    def clear(self) -> None:
        self._entries.clear()

    def pop(self, key: K) -> None:
        """Forget ``key`` (absent: nothing happens)."""
        self._entries.pop(key, None)


def _prefix_match(prefix: str) -> Callable[[object], bool]:
    return lambda key: isinstance(key, str) and key.startswith(prefix)


class FencedCache(Generic[K, V]):
    """A ``TtlCache`` whose keys name the things they read (``tags_of(key)``: calendar ids,
    tenant ids).

    Write fencing: a writer calls ``invalidate(tag)`` before and after its write; that drops
    every entry of the tag and moves its generation, so an answer loaded under a ``fence``
    taken before either call is not stored (``put`` returns False).
    """

    def __init__(
        self,
        ttl: float,
        tags_of: Callable[[K], Iterable[str]],
        *,
        max_entries: int = 1024,
        clock: Clock = time.monotonic,
    ) -> None:
        self._entries: TtlCache[K, V] = TtlCache(ttl, max_entries=max_entries, clock=clock)
        self._tags_of = tags_of
        self._generations: dict[str, int] = {}

    @property
    def entries(self) -> TtlCache[K, V]:
        """The underlying cache (its ``hits``, ``misses``, ``ttl`` and ``clock``)."""
        return self._entries

    def get(self, key: K) -> V | None:
        return self._entries.get(key)

    def fence(self, tags: Iterable[str]) -> Fence:
        """The generations of ``tags`` now; pass it to ``put``."""
        return tuple((tag, self._generations.get(tag, 0)) for tag in tags)

    def put(self, key: K, value: V, fence: Fence) -> bool:
        """Store ``value`` unless a tag of ``fence`` was invalidated since it was taken."""
        if any(self._generations.get(tag, 0) != seen for tag, seen in fence):
            return False
        self._entries.put(key, value)
        return True

    def invalidate(self, tag: str) -> None:
        """Forget every entry of ``tag`` and fence the loads in flight for it."""
        self._generations[tag] = self._generations.get(tag, 0) + 1
        self._entries.invalidate(lambda key: tag in self._tags_of(key))

    async def read_through(
        self, key: K, load: Callable[[], Awaitable[V]], *, fresh: bool = False
    ) -> V:
        """The cached value for ``key`` (unless ``fresh``), else ``load()``, stored unless a
        write to one of the key's tags started or ended meanwhile."""
        cached = None if fresh else self.get(key)
        if cached is not None:
            return cached
        fence = self.fence(self._tags_of(key))
        value = await load()
        self.put(key, value, fence)
        return value
