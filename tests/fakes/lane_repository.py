"""An in-memory ``LaneRepository`` on the claims of an ``InMemoryTurnRepository``, with the
rules of ``infrastructure/mongo/claim_lanes``: every method is atomic (no await inside),
leases in the turn repository's clock."""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING

from agent_service.application.bursts import Completed, Joined, LaneKey, QueuedMessage
from agent_service.domain.conversations import TurnResult

if TYPE_CHECKING:
    from tests.fakes.agent_repositories import InMemoryTurnRepository, _Claim

_ARRIVALS = itertools.count(1)


class InMemoryLanes:
    def __init__(self, turns: InMemoryTurnRepository) -> None:
        self.turns = turns

    def _claim(self, lane: LaneKey, message_id: str) -> _Claim | None:
        return self.turns.claims.get((lane.tenant_id, lane.channel, message_id))

    def _of(self, lane: LaneKey) -> list[_Claim]:
        name = _name(lane)
        return [
            c
            for (t, _, _), c in self.turns.claims.items()
            if t == lane.tenant_id and c.lane == name
        ]

    def _holder(self, lane: LaneKey) -> _Claim | None:
        return next((c for c in self._of(lane) if c.running_until is not None), None)

    async def claim(self, lane: LaneKey, message: QueuedMessage, digest: str) -> Joined:
        key = (lane.tenant_id, lane.channel, message.message_id)
        if not await self.turns.claim(*key, digest, lane.customer):
            return Joined.TAKEN
        self._enter(lane, message)
        return Joined.HOLDING if self._tell_or_hold(lane, message.message_id) else Joined.QUEUED

    async def join(self, lane: LaneKey, message: QueuedMessage) -> bool:
        self._enter(lane, message)
        return self._hold(lane, message.message_id) or self._tell_or_hold(lane, message.message_id)

    def _enter(self, lane: LaneKey, message: QueuedMessage) -> None:
        claim = self._claim(lane, message.message_id)
        assert claim is not None
        claim.lane, claim.queued = _name(lane), message
        claim.arrived = claim.arrived or next(_ARRIVALS)

    def _tell_or_hold(self, lane: LaneKey, message_id: str) -> bool:
        holder = self._holder(lane)
        if holder is not None:
            holder.newcomers = True
            return False
        return self._hold(lane, message_id)

    def _hold(self, lane: LaneKey, message_id: str) -> bool:
        claim = self._claim(lane, message_id)
        if claim is None or not claim.open or claim.lane != _name(lane):
            return False
        holder = self._holder(lane)
        if holder is not None and holder is not claim:
            return False
        claim.running_until = self.turns.clock() + self.turns.lease
        return True

    async def acquire(self, lane: LaneKey, message_id: str) -> bool:
        holder = self._holder(lane)
        until = None if holder is None else holder.running_until
        if holder is not None and until is not None and until < self.turns.clock():
            holder.running_until, holder.newcomers = None, False
        return self._hold(lane, message_id)

    async def waiting(self, lane: LaneKey) -> tuple[QueuedMessage, ...]:
        open_ = sorted((c for c in self._of(lane) if c.open and c.queued), key=lambda c: c.arrived)
        return tuple(c.queued for c in open_ if c.queued is not None)

    def _held(self, lane: LaneKey, holder: str) -> _Claim | None:
        claim = self._claim(lane, holder)
        return claim if claim is not None and claim.running_until is not None else None

    async def arrivals(self, lane: LaneKey, holder: str) -> bool:
        claim = self._claim(lane, holder)
        told = claim is not None and claim.newcomers
        if claim is not None:
            claim.newcomers = False
        return told

    async def complete_alone(self, lane: LaneKey, holder: str, result: TurnResult) -> Completed:
        """Keeps the lane (this store's turn context is read without the lane's saving turn)."""
        claim = self._claim(lane, holder)
        if claim is None or claim.newcomers:
            return Completed.NEWS
        await self.turns.complete(lane.tenant_id, lane.channel, holder, result)
        return Completed.HELD

    async def renew(self, lane: LaneKey, holder: str) -> bool:
        claim = self._held(lane, holder)
        if claim is not None:
            claim.running_until = self.turns.clock() + self.turns.lease
        return claim is not None

    async def settle(self, lane: LaneKey, holder: str) -> bool:
        claim = self._held(lane, holder)
        if claim is None:
            return True
        if claim.newcomers:
            claim.newcomers = False
            return False
        claim.running_until = None
        return True

    async def release(self, lane: LaneKey, holder: str) -> None:
        claim = self._held(lane, holder)
        if claim is not None:
            claim.running_until, claim.newcomers = None, False


def _name(lane: LaneKey) -> str:
    return f"{lane.channel}/{lane.customer}"
