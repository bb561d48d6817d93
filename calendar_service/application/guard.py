# Over 300 lines: one policy (create-if-free); its writes, refusals and the sweep share rules.
"""Create-if-free: the booking guarantee of the calendar service, for every client.

An opaque write under ``ConflictPolicy.REJECT`` (the default) happens only if its time is
free (docs/calendar-service.md#conflict-policy):

1. hold: its time is taken in the service's own database (``HoldStore``: per-day ledgers
   written conditionally, so of concurrent writers of overlapping times exactly one gets
   it, across replicas); a range another event holds is checked against the provider first
   — an event since cancelled, moved or deleted (by anyone, in Google too) gives its time
   back, a write whose lease passed is settled by what the provider says, and only a live
   overlap or a write still in flight refuses (``SlotTakenError``, ``heldBy`` "event" or
   "write");
2. check: the calendar's busy time is read FRESH from the provider, so events written
   directly in Google (which hold nothing) are honoured; a create whose own event already
   exists (a retry of the same key) is a replay, never a conflict;
3. write, then settle: the holds stay while the event lives at its time. A write refused
   for certain releases the units it took; an ambiguous one (provider unavailable) keeps
   them "writing" until the sweeper (``sweep``) learns from the provider whether the event
   exists. A check that fails (even with the provider unreachable) wrote nothing: its
   units are released at once. Steps 1–3 run shielded from the caller's cancellation.

A key already used for another request is answered as such before the time is: a create
the hold or the check refuses asks the backend whether its key names an event of another
request (``refuse_reused_key``), and that refusal (``IDEMPOTENCY_KEY_REUSED``) comes first.

Transparent events take no time and ``ALLOW_OVERLAP`` writes skip the check; both leave no
holds. A move or update holds its new time next to its old one until the write answers, and
the check ignores the event's own time. Cancels release the event's holds.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Awaitable, Callable, Coroutine
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, TypeVar

import structlog

from agenda_kit.calendar.errors import (
    CalendarError,
    CalendarNotFoundError,
    CalendarUnavailableError,
    EventNotFoundError,
    SlotTakenError,
)
from agenda_kit.calendar.port import (
    CalendarEvent,
    ConflictPolicy,
    EventDraft,
    Interval,
    Transparency,
)
from calendar_service.application.busy_time import BusyTimeCalendarAdapter
from calendar_service.application.free_busy_errors import raise_for_free_busy_error
from calendar_service.application.holds import Hold, HoldRequest, HoldStore

log = structlog.get_logger("agenda.calendar.guard")
T = TypeVar("T")
AMBIGUOUS = (CalendarUnavailableError, asyncio.CancelledError, TimeoutError)
"""Write failures after which the event may exist: its holds wait for the sweeper."""
_CLAIM_ROUNDS = 3
WRITE_SHARE_OF_LEASE = 0.5
"""A guarded write runs at most this share of its hold's lease (``SlotGuard._within_lease``)."""


def _now() -> datetime:
    return datetime.now(UTC)


@dataclass(frozen=True, slots=True)
class SweepReport:
    """What one sweep found among writes whose lease passed."""

    settled: int = 0
    released: int = 0
    deferred: int = 0


def _iso(instant: datetime) -> str:
    return instant.astimezone(UTC).isoformat().replace("+00:00", "Z")


WRITE_RETRY_SECONDS = 1.0
"""``RetryInfo`` of a time held by a write in flight: it may fail, asking again shortly may work."""


def slot_taken(start: datetime, end: datetime, held_by: str) -> SlotTakenError:
    """The refusal: the overlapping range (RFC 3339) and what holds it, nothing else; when a
    write in flight holds it, when to ask again."""
    return SlotTakenError(
        f"The requested time is not free: {_iso(start)} to {_iso(end)} is taken.",
        metadata={"conflictStart": _iso(start), "conflictEnd": _iso(end), "heldBy": held_by},
        retry_after=WRITE_RETRY_SECONDS if held_by == "write" else None,
    )


async def shielded(work: Coroutine[Any, Any, T]) -> T:
    """Run ``work`` to its end even if the caller is cancelled: holds taken must be settled
    or released by the write's real outcome, never left by a caller that went away."""
    task = asyncio.ensure_future(work)
    try:
        return await asyncio.shield(task)
    except asyncio.CancelledError:
        task.add_done_callback(lambda done: done.cancelled() or done.exception())
        raise


def _loop_timeout(limit: timedelta) -> AbstractAsyncContextManager[object]:
    """The event loop's timeout of ``limit`` (raises ``TimeoutError`` when it passes)."""
    return asyncio.timeout(limit.total_seconds())


class SlotGuard:
    """Guarded writes over ``calendar`` (the service's calendar, caches included)."""

    def __init__(
        self,
        calendar: BusyTimeCalendarAdapter,
        holds: HoldStore,
        *,
        lease: timedelta = timedelta(seconds=120),
        clock: Callable[[], datetime] = _now,
        limit: Callable[[timedelta], AbstractAsyncContextManager[object]] = _loop_timeout,
    ) -> None:
        self._calendar = calendar
        self._holds = holds
        self._lease = lease
        self._clock = clock
        self._limit = limit
        self._write_limit = lease * WRITE_SHARE_OF_LEASE

    async def create(self, draft: EventDraft) -> tuple[CalendarEvent, bool]:
        """Insert ``draft`` create-if-free (see the module's rules)."""
        if not _guarded(draft.conflict_policy, draft.transparency):
            return await self._calendar.insert_event(draft)
        return await shielded(self._within_lease(self._create(draft)))

    async def _create(self, draft: EventDraft) -> tuple[CalendarEvent, bool]:
        cid = draft.calendar_id
        event_id = self._calendar.event_id_for(cid, draft.owner, draft.idempotency_key)
        try:
            claim = await self._claim(
                cid, event_id, draft.owner, draft.start, draft.end, create=True
            )
            await self._released_if_fails(
                cid, event_id, claim, self._check_free(cid, event_id, draft.start, draft.end)
            )
        except SlotTakenError:  # the key's answer comes first: a used key is no slot question
            await self._calendar.refuse_reused_key(draft)
            raise
        try:
            event, created = await self._calendar.insert_event(draft)
        except AMBIGUOUS:
            raise
        except BaseException:
            await self._release(cid, event_id, claim)
            raise
        await self._settled(event, claim, creating=True)
        return event, created

    async def _released_if_fails(
        self, calendar_id: str, event_id: str, claim: str, check: Awaitable[None]
    ) -> None:
        """Run the check before a write; if it fails in any way (the provider unreachable
        included) nothing was written, so the claim's time is given back at once rather than
        left to the sweeper."""
        try:
            await check
        except BaseException:
            await self._release(calendar_id, event_id, claim)
            raise

    async def rewrite(
        self,
        current: CalendarEvent,
        after: Interval | None,
        policy: ConflictPolicy,
        write: Callable[[], Awaitable[CalendarEvent]],
    ) -> CalendarEvent:
        """Run ``write`` (a move or update of ``current``) that leaves the event busy over
        ``after`` (None: not busy); create-if-free over the time it does not hold yet."""
        if after is None or policy is ConflictPolicy.ALLOW_OVERLAP:
            return await self._after_write(await write())
        return await shielded(self._within_lease(self._rewrite(current, after, write)))

    async def _within_lease(self, work: Coroutine[Any, Any, T]) -> T:
        """Run a guarded write for at most part of its hold's lease: past the lease the
        sweeper asks the provider where the event is and gives the write's time away while
        the write may still land (each provider call has its own retry budget, and a move
        makes several). Stopped, its outcome is unknown: the hold stays "writing" until the
        sweeper asks, and the caller is told to retry (the same key finds what was written).
        A request the provider already received may apply after the stop: the other half of
        the lease is its margin."""
        try:
            async with self._limit(self._write_limit):
                return await work
        except TimeoutError as error:
            raise CalendarUnavailableError(
                "The calendar provider did not answer in time; retry the write."
            ) from error

    async def _rewrite(
        self,
        current: CalendarEvent,
        after: Interval,
        write: Callable[[], Awaitable[CalendarEvent]],
    ) -> CalendarEvent:
        cid, event_id = current.calendar_id, current.event_id
        claim = await self._claim(cid, event_id, current.owner, after.start, after.end)
        await self._released_if_fails(
            cid, event_id, claim, self._check_free_but(cid, event_id, after)
        )
        try:
            event = await write()
        except AMBIGUOUS:
            raise
        except BaseException:
            await self._release(cid, event_id, claim)
            raise
        return await self._after_write(event, claim)

    async def cancelled(self, calendar_id: str, event_id: str) -> None:
        """The event was cancelled (or found gone): its time is free again (but a write of
        it still in flight keeps its own, until it lands or its lease ends)."""
        await self._holds.release(calendar_id, event_id, now=self._clock())

    async def _after_write(self, event: CalendarEvent, claim: str = "") -> CalendarEvent:
        await self._settled(event, claim)
        return event

    async def _settled(self, event: CalendarEvent, claim: str = "", creating: bool = False) -> None:
        """The event's holds follow where it now is; another write of it still in flight
        keeps its own range (``HoldStore``: only its claim removes it)."""
        cid, event_id, now = event.calendar_id, event.event_id, self._clock()
        if event.is_busy:
            await self._holds.settle(
                cid, event_id, event.start, event.end, claim=claim, now=now, creating=creating
            )
        else:  # not busy: its own range goes, and every other but a write in flight
            if claim:
                await self._holds.release(cid, event_id, claim)
            await self._holds.release(cid, event_id, now=now)

    async def _claim(
        self,
        calendar_id: str,
        event_id: str,
        owner: str,
        start: datetime,
        end: datetime,
        *,
        create: bool = False,
    ) -> str:
        """Hold ``[start, end)`` for ``event_id``; returns the claim (what to release if the
        write is refused)."""
        request = HoldRequest(
            calendar_id=calendar_id,
            event_id=event_id,
            owner=owner,
            start=start,
            end=end,
            lease_until=self._clock() + self._lease,
            claim=secrets.token_hex(8),
            create=create,
        )
        for _ in range(_CLAIM_ROUNDS):
            outcome = await self._holds.take(request)
            if not outcome.others:
                return request.claim
            try:
                blocking = await self._blocking(outcome.others, start, end)
            except BaseException:
                await self._release(calendar_id, event_id, request.claim)
                raise
            if blocking is not None:
                await self._release(calendar_id, event_id, request.claim)
                raise blocking
        await self._release(calendar_id, event_id, request.claim)
        raise slot_taken(start, end, "write")

    async def _blocking(
        self, others: tuple[Hold, ...], start: datetime, end: datetime
    ) -> SlotTakenError | None:
        """The refusal, if one of the events holding units really takes this time; stale
        holders (cancelled, moved, gone, a dead write) are settled or released meanwhile."""
        now = self._clock()
        flying = next((hold for hold in others if hold.in_flight(now)), None)
        if flying is not None:  # any write under way, whatever else its event holds
            low, high = _utc(flying.start), _utc(flying.end)
            return slot_taken(max(low, start), min(high, end), "write")
        for hold in {hold.event_id: hold for hold in others}.values():
            event = await self._event(hold.calendar_id, hold.event_id)
            if event is None or not event.is_busy:
                await self._holds.release(hold.calendar_id, hold.event_id, now=self._clock())
                continue
            if event.start < end and start < event.end:
                return slot_taken(max(event.start, start), min(event.end, end), "event")
            await self._settled(event)
        return None

    async def _event(self, calendar_id: str, event_id: str) -> CalendarEvent | None:
        try:
            return await self._calendar.get_event(calendar_id, event_id)
        except (EventNotFoundError, CalendarNotFoundError):
            return None

    async def _check_free(
        self, calendar_id: str, event_id: str, start: datetime, end: datetime
    ) -> None:
        """The provider's busy time now, fresh; a busy time that is this very event (a retry
        of a create that succeeded) is a replay: the insert will return it."""
        (busy,) = await self._calendar.query_free_busy([calendar_id], start, end, fresh=True)
        raise_for_free_busy_error(busy)
        overlap = next((i for i in busy.busy if i.start < end and start < i.end), None)
        if overlap is None:
            return
        own = await self._event(calendar_id, event_id)
        if own is not None and own.is_busy:
            return
        raise slot_taken(max(overlap.start, start), min(overlap.end, end), "event")

    async def _check_free_but(self, calendar_id: str, event_id: str, span: Interval) -> None:
        """As ``_check_free`` for a move: the events over ``span`` except this one, fresh;
        only time the event does not take now (read in the same listing, never as it was read
        before the move: it may have moved meanwhile) is refused, so an event another caller
        wrote over it on purpose (``ALLOW_OVERLAP``) leaves it editable."""
        token: str | None = None
        listed: list[CalendarEvent] = []
        while True:
            page = await self._calendar.list_events(
                calendar_id, span.start, span.end, page_size=250, page_token=token
            )
            listed.extend(page.events)
            if page.next_page_token is None:
                break
            token = page.next_page_token
        own = next((e for e in listed if e.event_id == event_id and e.is_busy), None)
        for event in listed:
            other = event.event_id != event_id and event.is_busy
            if other and event.start < span.end and span.start < event.end:
                start, end = max(event.start, span.start), min(event.end, span.end)
                if own is not None and own.start <= start and end <= own.end:
                    continue  # over time it takes now
                raise slot_taken(start, end, "event")

    async def _release(self, calendar_id: str, event_id: str, claim: str) -> None:
        """Give back what ``claim`` held; if the store cannot answer, the lease ends it."""
        try:
            await self._holds.release(calendar_id, event_id, claim)
        except CalendarError as error:
            log.warning("holds_release_failed", calendar=calendar_id, error=str(error))

    async def sweep(self, limit: int = 100, *, now: datetime | None = None) -> SweepReport:
        """Settle the writes whose lease passed (before ``now``, default the clock) by asking
        the provider for their event: live and busy → its holds follow its time; gone,
        cancelled or transparent → released; provider unreachable → left for the next
        sweep."""
        settled = released = deferred = 0
        now = now or self._clock()
        for hold in await self._holds.expired(now, limit):
            try:
                event = await self._event(hold.calendar_id, hold.event_id)
            except CalendarError as error:
                log.info("hold_sweep_deferred", calendar=hold.calendar_id, error=str(error))
                deferred += 1
                continue
            cid, event_id = hold.calendar_id, hold.event_id
            if event is None or not event.is_busy:
                await self._holds.release(cid, event_id, now=now)
                released += 1
            else:
                await self._holds.settle(cid, event_id, event.start, event.end, now=now)
                settled += 1
        return SweepReport(settled, released, deferred)


def _utc(instant: datetime) -> datetime:
    """Instants as a store may return them (naive UTC) made aware."""
    return instant if instant.tzinfo is not None else instant.replace(tzinfo=UTC)


def _guarded(policy: ConflictPolicy, transparency: Transparency) -> bool:
    return policy is ConflictPolicy.REJECT and transparency is Transparency.OPAQUE


__all__ = ["AMBIGUOUS", "SlotGuard", "SweepReport", "shielded", "slot_taken"]
