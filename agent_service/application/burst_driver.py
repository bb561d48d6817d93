"""Running a customer's lane: one turn per burst until the lane is empty (rules in ``bursts``).

``BurstDriver.drive`` is called by whichever delivery holds the lane; the outcome of every
message it answers is stored under that message's id (reply, "answered by", or a retryable
failure), and the deliveries waiting in this process are woken at once (``Waiters``); those
of other replicas find it when they next look.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import Enum

import structlog

from agent_service.application.bursts import (
    MAX_SUPERSEDES,
    Completed,
    LaneKey,
    QueuedMessage,
    behind,
    in_arrival_order,
    newcomers,
    next_batch,
    supersedable,
)
from agent_service.application.engine import ProgressEvent, ProgressSink
from agent_service.application.repositories import Repositories
from agent_service.application.turn_runner import TurnRunner, incoming_of
from agent_service.domain.catalog import Tenant
from agent_service.domain.conversations import TurnFailure, TurnResult
from agent_service.domain.errors import RetryableTurnError, StorageUnavailableError

log = structlog.get_logger("agenda.conversation")
MessageKey = tuple[object, str, str]
"""(tenant id, channel, message id)."""


class _Ended(Enum):
    """How a turn left the lane it was run in."""

    GIVEN_UP = "given_up"
    """The usual turn: given up in the write that stored the result."""
    FAILED = "failed"
    """Failed unexpectedly: to be given up for another delivery to take over."""


Outcome = TurnResult | TurnFailure | BaseException
"""What a message came to: its stored result or retryable failure, or the error that
released its claim."""


@dataclass
class Waiters:
    """The deliveries of this process waiting for a message's outcome (``expect``ed): woken
    when it is stored, and handed it (no read needed); an error that released the message's
    claim is handed to them as it was. Outcomes nobody here expects are not kept."""

    _events: dict[MessageKey, asyncio.Event] = field(default_factory=dict)
    _outcomes: dict[MessageKey, Outcome] = field(default_factory=dict)
    _expecting: dict[MessageKey, int] = field(default_factory=dict)

    def expect(self, key: MessageKey) -> None:
        self._expecting[key] = self._expecting.get(key, 0) + 1
        self._events.setdefault(key, asyncio.Event())

    def forget(self, key: MessageKey) -> None:
        left = self._expecting.pop(key, 1) - 1
        if left:
            self._expecting[key] = left
            return
        self._events.pop(key, None)
        self._outcomes.pop(key, None)

    async def wait(self, key: MessageKey, seconds: float) -> None:
        """Until ``key``'s outcome is handed over or ``seconds`` passed (then look in the
        store)."""
        event = self._events.get(key)
        if event is None or key in self._outcomes:
            return
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(seconds):
                await event.wait()

    def deliver(self, outcomes: Sequence[tuple[MessageKey, Outcome]]) -> None:
        for key, outcome in outcomes:
            event = self._events.get(key)
            if event is not None:
                self._outcomes[key] = outcome
                event.set()

    def outcome(self, key: MessageKey) -> Outcome | None:
        """The outcome handed over for ``key``, if any."""
        return self._outcomes.get(key)


class BurstDriver:
    """Runs the turns of a lane this delivery holds, until nothing of it is waiting."""

    def __init__(
        self,
        repos: Repositories,
        runner: TurnRunner,
        waiters: Waiters,
        *,
        renew_every: float,
    ) -> None:
        self._repos = repos
        self._runner = runner
        self._waiters = waiters
        self._renew_every = renew_every

    async def drive(
        self,
        lane: LaneKey,
        own: QueuedMessage,
        tenant: Tenant,
        progress: ProgressSink | None,
        *,
        read_first: bool,
    ) -> None:
        """Answer the lane's bursts one turn at a time, then give the lane up (on an error:
        give it up for another delivery to take over). ``read_first``: the lane may hold
        older messages (it was taken over); else this delivery's message is all it holds."""
        holder = own.message_id
        lanes = self._repos.lanes
        renewing = asyncio.ensure_future(self._keep_holding(lane, holder))
        try:
            queue = await lanes.waiting(lane) if read_first else (own,)
            while True:
                if queue:
                    queue, ended = await self._answer(lane, holder, queue, tenant, progress)
                    if ended is _Ended.FAILED:  # given up: a waiting delivery takes it over
                        await lanes.release(lane, holder)
                        return
                    if ended is _Ended.GIVEN_UP:  # the usual turn gave it up as it stored
                        return
                    continue
                if await lanes.settle(lane, holder):
                    return
                queue = await lanes.waiting(lane)
        except BaseException:
            with contextlib.suppress(StorageUnavailableError):  # else its lease expires
                await asyncio.shield(lanes.release(lane, holder))
            raise
        finally:
            renewing.cancel()

    async def _answer(
        self,
        lane: LaneKey,
        holder: str,
        queue: Sequence[QueuedMessage],
        tenant: Tenant,
        progress: ProgressSink | None,
    ) -> tuple[tuple[QueuedMessage, ...], _Ended | None]:
        """One burst's turn and its stored outcome; what is known to wait after it, and
        whether the lane is given up: the usual turn gave it up as it stored its result, or
        the turn failed unexpectedly (then this delivery stops holding the lane: its own
        claim may be gone)."""
        reordered = False
        while True:
            batch = next_batch(queue)
            keys = [(lane.tenant_id, lane.channel, m.message_id) for m in batch]
            try:
                done = await self._turn(lane, holder, queue, batch, tenant, progress, reordered)
            except RetryableTurnError as error:
                failure = TurnFailure(
                    reason=error.reason,
                    message=str(error),
                    retry_after_seconds=error.retry_after_seconds,
                    cause=error.cause,
                )
                log.info("turn_failed", reason=error.reason, messages=len(batch))
                for key in keys:
                    await self._repos.turns.fail(lane.tenant_id, lane.channel, key[2], failure)
                self._waiters.deliver([(key, error) for key in keys])
                return await self._repos.lanes.waiting(lane), None
            except Exception as error:  # noqa: BLE001 - not swallowed: handed to its waiters
                for key in keys:  # a redelivery runs them again
                    await self._repos.turns.release(lane.tenant_id, lane.channel, key[2])
                self._waiters.deliver([(key, error) for key in keys])
                return (), _Ended.FAILED
            if isinstance(done, _Behind):  # older messages wait: the turn answers them first
                log.info("turn_reordered", waiting=len(done.queue))
                queue, reordered = done.queue, True
                continue
            answered, known, given_up = done
            return _rest(known, answered), _Ended.GIVEN_UP if given_up else None

    async def _turn(
        self,
        lane: LaneKey,
        holder: str,
        queue: Sequence[QueuedMessage],
        batch: tuple[QueuedMessage, ...],
        tenant: Tenant,
        progress: ProgressSink | None,
        reordered: bool,
    ) -> tuple[tuple[QueuedMessage, ...], Sequence[QueuedMessage], bool] | _Behind:
        """Run and store the burst's turn, started again with the messages that arrived
        meanwhile while it changed nothing (``bursts``); the messages it answered, what
        was known to wait when it was stored, and whether storing it gave the lane up. When
        the turn's read shows older messages of the lane waiting than the burst's (the lane
        was taken while they waited: ``_Behind``), nothing runs: the lane as it is now,
        whose head the turn answers instead (read once per burst)."""
        lanes = self._repos.lanes
        turn = await self._runner.prepare(tenant, incoming_of(lane.tenant_id, lane.channel, batch))
        if not reordered and behind(turn.waiting, batch):
            return _Behind(await lanes.waiting(lane))
        if turn.with_human:
            self._delivered(lane, await self._runner.commit_human(turn, batch))
            return batch, queue, False
        known = queue
        for attempt in range(MAX_SUPERSEDES + 1):
            sink = TextGate(progress, own=[m.message_id for m in batch] == [holder])
            output = await self._runner.run(turn, batch, sink)
            if _alone(holder, batch, known):
                (_, result), *_ = self._runner.results(turn, batch, output)
                completed = await lanes.complete_alone(lane, holder, result)  # the usual turn
                if completed is not Completed.NEWS:
                    self._delivered(lane, [(holder, result)])
                    await self._runner.save(turn, batch, output)
                    return batch, (), completed is Completed.GIVEN_UP
                await lanes.arrivals(lane, holder)
            elif not await lanes.arrivals(lane, holder):
                break
            known = await lanes.waiting(lane)
            later = newcomers(known, batch)
            if not later or not supersedable(output) or sink.streamed or attempt == MAX_SUPERSEDES:
                break
            log.info("turn_superseded", answered=len(batch), arrived=len(later))
            batch = in_arrival_order(known, (*batch, *later))
        self._delivered(lane, await self._runner.commit(turn, batch, output))
        return batch, known, False

    def _delivered(self, lane: LaneKey, results: Sequence[tuple[str, TurnResult]]) -> None:
        self._waiters.deliver(
            [((lane.tenant_id, lane.channel, message_id), result) for message_id, result in results]
        )

    async def _keep_holding(self, lane: LaneKey, holder: str) -> None:
        while True:
            await asyncio.sleep(self._renew_every)
            try:
                if not await self._repos.lanes.renew(lane, holder):
                    log.warning("lane_lost", channel=lane.channel)
                    return
            except StorageUnavailableError as error:  # try again at the next beat
                log.warning("lane_renewal_failed", error=str(error))


@dataclass(frozen=True, slots=True)
class _Behind:
    """The lane's waiting messages, older ones among them than a burst about to be answered."""

    queue: tuple[QueuedMessage, ...]


def _alone(holder: str, batch: Sequence[QueuedMessage], known: Sequence[QueuedMessage]) -> bool:
    """The usual turn: the holder's own message, and nothing else known to wait."""
    return len(batch) == 1 == len(known) and batch[0].message_id == holder


def _rest(
    queue: Sequence[QueuedMessage], answered: Sequence[QueuedMessage]
) -> tuple[QueuedMessage, ...]:
    done = {m.message_id for m in answered}
    return tuple(m for m in queue if m.message_id not in done)


@dataclass
class TextGate:
    """The progress sink of one turn: its reply text reaches the delivery's caller only when
    the turn answers that delivery's own message alone (a burst's reply is the last
    message's; a later burst of the lane is someone else's); a turn that streamed text is
    not started again (``streamed``: messages arriving meanwhile get the next turn)."""

    progress: ProgressSink | None
    own: bool
    streamed: bool = False

    @property
    def takes_text(self) -> bool:
        """Whether text sent here reaches a caller (``engine.takes_text``)."""
        return self.progress is not None and self.own

    async def __call__(self, event: ProgressEvent) -> None:
        if self.progress is None or (event.text and not self.own):
            return
        self.streamed = self.streamed or bool(event.text)
        await self.progress(event)
