"""A confirmed pending action executes at most once, whatever delivers the confirmation.

Four "sim" to one proposal (or a tap and a typed yes, on two replicas) all decide "confirmed";
only the first to **claim** the action's key runs it. The others wait for its stored outcome
and answer with it ("already booked"), so no second attempt ever meets the first one's hold
and no FAILED record is left. A claim is a lease: when its holder dies before storing the
outcome, a later confirmation takes it over and runs the action again — under the same
request key (the pending action's id), so the booking saga resumes the same appointment
instead of making another. Which hold mechanism sits underneath does not matter.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Protocol
from uuid import UUID

from agent_service.domain.conversations import TurnAction

Clock = Callable[[], datetime]


class PendingExecutionRepository(Protocol):
    """Claims and outcomes of pending-action executions, per tenant and key."""

    async def claim(self, tenant_id: UUID, key: str, lease: timedelta) -> bool:
        """True for the first claim of ``key``, or when an earlier claim's lease (measured
        on the store's own clock) expired without an outcome."""
        ...

    async def complete(self, tenant_id: UUID, key: str, actions: tuple[TurnAction, ...]) -> None:
        """Store the outcome of ``key`` (it answers every later confirmation)."""
        ...

    async def outcome(self, tenant_id: UUID, key: str) -> tuple[TurnAction, ...] | None:
        """The stored outcome, or None while it runs (or was never claimed)."""
        ...

    async def release(self, tenant_id: UUID, key: str) -> None:
        """Forget a claim whose execution failed before any outcome (a retry may run)."""
        ...


class InProcessExecutions:
    """The repository for one process (in-memory storage): a dict under the event loop."""

    def __init__(self, clock: Clock) -> None:
        self._clock = clock
        self._claims: dict[tuple[UUID, str], datetime] = {}
        self._outcomes: dict[tuple[UUID, str], tuple[TurnAction, ...]] = {}

    async def claim(self, tenant_id: UUID, key: str, lease: timedelta) -> bool:
        slot, now = (tenant_id, key), self._clock()
        if slot in self._outcomes:
            return False
        held = self._claims.get(slot)
        if held is not None and held >= now:
            return False
        self._claims[slot] = now + lease
        return True

    async def complete(self, tenant_id: UUID, key: str, actions: tuple[TurnAction, ...]) -> None:
        self._outcomes[(tenant_id, key)] = actions

    async def outcome(self, tenant_id: UUID, key: str) -> tuple[TurnAction, ...] | None:
        return self._outcomes.get((tenant_id, key))

    async def release(self, tenant_id: UUID, key: str) -> None:
        if (tenant_id, key) not in self._outcomes:
            self._claims.pop((tenant_id, key), None)


@dataclass(frozen=True, slots=True)
class Execution:
    """``first``: this call ran the action; else ``actions`` is the earlier run's outcome
    (``settled`` False when it is still running after the wait: nothing is known yet)."""

    actions: tuple[TurnAction, ...]
    first: bool
    settled: bool = True


class OnceOnly:
    """Runs the work of a key at most once (see the module's rules)."""

    def __init__(
        self,
        store: PendingExecutionRepository,
        *,
        lease_seconds: float = 60.0,
        wait_seconds: float = 20.0,
        poll_seconds: float = 0.05,
    ) -> None:
        self._store = store
        self._lease = timedelta(seconds=lease_seconds)
        self._wait = wait_seconds
        self._poll = poll_seconds

    async def run(
        self, tenant_id: UUID, key: str, work: Callable[[], Awaitable[tuple[TurnAction, ...]]]
    ) -> Execution:
        if await self._store.claim(tenant_id, key, self._lease):
            return Execution(await self._first(tenant_id, key, work), first=True)
        loop = asyncio.get_running_loop()
        give_up = loop.time() + self._wait
        while True:
            stored = await self._store.outcome(tenant_id, key)
            if stored is not None:
                return Execution(stored, first=False)
            if loop.time() >= give_up:
                return Execution((), first=False, settled=False)
            if await self._store.claim(tenant_id, key, self._lease):
                return Execution(await self._first(tenant_id, key, work), first=True)
            await asyncio.sleep(self._poll)

    async def outcome(self, tenant_id: UUID, key: str) -> tuple[TurnAction, ...] | None:
        """The stored outcome of ``key``, or None (never run, or still running)."""
        return await self._store.outcome(tenant_id, key)

    async def _first(
        self, tenant_id: UUID, key: str, work: Callable[[], Awaitable[tuple[TurnAction, ...]]]
    ) -> tuple[TurnAction, ...]:
        try:
            actions = await work()
        except BaseException:
            await self._store.release(tenant_id, key)
            raise
        await self._store.complete(tenant_id, key, actions)
        return actions
