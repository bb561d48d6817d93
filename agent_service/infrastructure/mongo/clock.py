"""``DatabaseClock``: the database server's time, so every replica uses one clock.

Leases of message claims, the reconciler's grace and ``next_attempt_at`` and the outbox's
``deliver_at`` are all written and compared in this clock: a replica whose own clock is minutes
off neither fails another replica's in-flight booking nor steals a live claim (issue 11 §8).
The server's time comes from ``hello.localTime``; the offset to the local clock is measured
with one round trip and reused for ``refresh`` (clocks drift slowly; a step is seen then).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from pymongo import AsyncMongoClient

LocalClock = Callable[[], datetime]


def utc_now() -> datetime:
    return datetime.now(UTC)


class DatabaseClock:
    def __init__(
        self,
        client: AsyncMongoClient[Any],
        local: LocalClock = utc_now,
        *,
        refresh: timedelta = timedelta(seconds=10),
    ) -> None:
        self._client = client
        self._local = local
        self._refresh = refresh
        self._offset: timedelta | None = None
        self._measured_at: datetime | None = None

    async def now(self) -> datetime:
        """The database's current time (UTC)."""
        local = self._local()
        if (
            self._offset is None
            or self._measured_at is None
            or abs(local - self._measured_at) >= self._refresh
        ):
            await self._measure()
            local = self._local()
        assert self._offset is not None
        return local + self._offset

    async def _measure(self) -> None:
        before = self._local()
        reply = await self._client.admin.command("hello")
        after = self._local()
        server = reply["localTime"]
        if server.tzinfo is None:
            server = server.replace(tzinfo=UTC)
        self._offset = server - (before + (after - before) / 2)
        self._measured_at = after
