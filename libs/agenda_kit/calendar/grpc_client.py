"""``GrpcCalendarAdapter``: ``ICalendarAdapter`` over ``agenda.calendar.v1.CalendarService``.

Every call: bearer token (and the bound ``x-request-id``) in metadata; a deadline of
``min(timeout, caller's remaining deadline)`` (both from the kit's call policy,
``agenda_kit.grpc.client``); no call at all once the caller's deadline has passed; retries of
UNAVAILABLE and of CANCELLED by a stopping replica only (``is_retryable``), with small jittered
exponential backoff, while the deadline allows; a
circuit breaker that counts only UNAVAILABLE and DEADLINE_EXCEEDED (``client_calls``); cached
reads fenced by this client's writes (``client_reads``); grpc errors never escape — they
become ``agenda_kit.calendar.errors``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Unpack

import grpc

from agenda.calendar.v1 import calendar_service_pb2 as pb
from agenda_kit import tracing
from agenda_kit.calendar import client_calls as rpcs
from agenda_kit.calendar import event_messages
from agenda_kit.calendar import grpc_mappers as mappers
from agenda_kit.calendar.client_calls import BREAKER_NAME, CalendarCalls
from agenda_kit.calendar.client_reads import BUSY_CACHE, SLOTS_CACHE, CachedReads, ReadKey
from agenda_kit.calendar.port import (
    CalendarEvent,
    ChangeQuery,
    ConflictPolicy,
    EventChanges,
    EventDraft,
    EventPage,
    FreeBusy,
    ICalendarAdapter,
    SendUpdates,
    SlotRules,
)
from agenda_kit.grpc.client import ChannelClient, ChannelSettings, ClientStats, open_channel
from agenda_kit.resilience import BreakerState, CircuitBreaker

__all__ = ["BREAKER_NAME", "CalendarClientStats", "GrpcCalendarAdapter"]

CalendarClientStats = ClientStats
"""Counters until Prometheus is wired: logical calls, RPCs sent, retries, breaker refusals."""


def _read_mode(*, fresh: bool) -> pb.ReadMode.ValueType:
    return pb.READ_MODE_FRESH if fresh else pb.READ_MODE_CACHED


class GrpcCalendarAdapter(ICalendarAdapter, ChannelClient):
    """The calendar port over gRPC, for other products and the agent service.

    Reads of free slots and free/busy are cached for ``cache_ttl`` seconds keyed on the full
    request; this client's own create/insert/cancel/move on a calendar drops that calendar's
    cached reads (before and after the write), and a read that raced such a write is not
    cached. Writes by other clients show up within the TTL, except to a ``fresh`` read: it
    skips this cache and sends ``READ_MODE_FRESH`` so the service skips its own (its answer
    then refreshes this cache).

    ``channel`` must carry the kit's call policy (``agenda_kit.grpc.client.open_channel``,
    which ``connect`` uses): it adds the token, the request id and each attempt's deadline.
    """

    def __init__(
        self,
        channel: grpc.aio.Channel,
        *,
        max_attempts: int = 3,
        breaker: CircuitBreaker | None = None,
        cache_ttl: float = 10.0,
    ) -> None:
        if max_attempts < 1:
            raise ValueError("max_attempts must be >= 1")
        self._channel = channel
        self._calls = CalendarCalls(channel, max_attempts=max_attempts, breaker=breaker)
        self.breaker = self._calls.breaker
        self.stats = self._calls.stats
        self.reads = CachedReads(cache_ttl)

    @classmethod
    def connect(
        cls,
        address: str | Sequence[str],
        *,
        token: str | None,
        timeout: float = 5.0,
        max_attempts: int = 3,
        breaker: CircuitBreaker | None = None,
        cache_ttl: float = 10.0,
        **settings: Unpack[ChannelSettings],
    ) -> GrpcCalendarAdapter:
        """Open a channel to ``address`` ("host:port", a DNS name of every replica, or several
        addresses: round_robin per call) with the call policy and wrap it; ``close()`` closes
        it. ``timeout`` bounds each attempt (and never outlives the caller's deadline).

        TLS when ``tls`` is set or ``tls_root_cert`` (PEM) is given, plaintext otherwise.
        Call from async code: the channel belongs to the running event loop.
        """
        if timeout <= 0:
            raise ValueError("timeout must be positive")
        channel = open_channel(
            address,
            token=token,
            timeout=timeout,
            **settings,
            interceptors=tracing.client_interceptors(),
        )
        client = cls(channel, max_attempts=max_attempts, breaker=breaker, cache_ttl=cache_ttl)
        client._owns_channel = True
        return client

    @property
    def breaker_state(self) -> BreakerState:
        return self.breaker.state

    @property
    def cache_hits(self) -> int:
        return self.reads.hits

    @property
    def cache_misses(self) -> int:
        return self.reads.misses

    async def check_health(self) -> bool:
        """Whether the calendar service reports itself SERVING (overall health)."""
        return await self._calls.check_health()

    # -- the port -----------------------------------------------------------------------------

    async def get_free_slots(
        self,
        calendar_id: str,
        start_date: datetime,
        end_date: datetime,
        duration_minutes: int,
        rules: SlotRules | None = None,
        *,
        fresh: bool = False,
    ) -> list[datetime]:
        request = mappers.free_slots_request(
            calendar_id, start_date, end_date, duration_minutes, rules or SlotRules()
        )
        key = ReadKey.of(
            rpcs.GET_FREE_SLOTS.name, [calendar_id], request
        )  # before read_mode is set
        request.read_mode = _read_mode(fresh=fresh)

        async def load() -> tuple[datetime, ...]:
            response = await self._calls.invoke(rpcs.GET_FREE_SLOTS, request)
            return tuple(mappers.instant(start) for start in response.slot_starts)

        starts: tuple[datetime, ...] = await self.reads.read_through(
            self.reads.slots, SLOTS_CACHE, key, load, fresh=fresh
        )
        return list(starts)

    async def query_free_busy(
        self,
        calendar_ids: Sequence[str],
        start: datetime,
        end: datetime,
        *,
        fresh: bool = False,
    ) -> list[FreeBusy]:
        request = mappers.free_busy_request(calendar_ids, start, end)
        key = ReadKey.of(
            rpcs.QUERY_FREE_BUSY.name, calendar_ids, request
        )  # before read_mode is set
        request.read_mode = _read_mode(fresh=fresh)

        async def load() -> tuple[FreeBusy, ...]:
            response = await self._calls.invoke(rpcs.QUERY_FREE_BUSY, request)
            return tuple(mappers.free_busy(answer) for answer in response.calendars)

        answers: tuple[FreeBusy, ...] = await self.reads.read_through(
            self.reads.busy, BUSY_CACHE, key, load, fresh=fresh
        )
        return list(answers)

    async def insert_event(self, draft: EventDraft) -> tuple[CalendarEvent, bool]:
        request = mappers.create_event_request(draft)
        async with self.reads.writing(draft.calendar_id):
            response = await self._calls.invoke(rpcs.CREATE_EVENT, request)
        return mappers.calendar_event(response.event), response.created

    async def get_event(self, calendar_id: str, event_id: str) -> CalendarEvent:
        request = pb.GetEventRequest(calendar_id=calendar_id, event_id=event_id)
        response = await self._calls.invoke(rpcs.GET_EVENT, request)
        return mappers.calendar_event(response.event)

    async def cancel_event(
        self,
        calendar_id: str,
        event_id: str,
        *,
        etag: str | None = None,
        send_updates: SendUpdates = SendUpdates.NONE,
    ) -> bool:
        request = pb.CancelEventRequest(
            calendar_id=calendar_id,
            event_id=event_id,
            etag=etag or "",
            send_updates=event_messages.send_updates_number(send_updates),
        )
        async with self.reads.writing(calendar_id):
            response = await self._calls.invoke(rpcs.CANCEL_EVENT, request)
        return response.cancelled

    async def move_event(
        self,
        calendar_id: str,
        event_id: str,
        start: datetime,
        end: datetime,
        *,
        time_zone: str | None = None,
        etag: str | None = None,
        conflict_policy: ConflictPolicy = ConflictPolicy.REJECT,
    ) -> CalendarEvent:
        """``MoveEvent`` (retried on UNAVAILABLE: a move is idempotent); ``time_zone`` of None
        keeps the event's zone; the new time must be free unless ``conflict_policy`` allows
        an overlap (``SlotTakenError``)."""
        request = pb.MoveEventRequest(
            calendar_id=calendar_id,
            event_id=event_id,
            time=mappers.time_range(start, end),
            time_zone=time_zone or "",
            etag=etag or "",
            conflict_policy=event_messages.policy_number(conflict_policy),
        )
        async with self.reads.writing(calendar_id):
            response = await self._calls.invoke(rpcs.MOVE_EVENT, request)
        return mappers.calendar_event(response.event)

    async def update_event(
        self, calendar_id: str, event_id: str, changes: EventChanges
    ) -> CalendarEvent:
        """``UpdateEvent`` of the fields ``changes`` sets (retried on UNAVAILABLE: applying
        the same values again changes nothing)."""
        request = mappers.update_event_request(calendar_id, event_id, changes)
        async with self.reads.writing(calendar_id):
            response = await self._calls.invoke(rpcs.UPDATE_EVENT, request)
        return mappers.calendar_event(response.event)

    async def list_events(
        self,
        calendar_id: str,
        start: datetime,
        end: datetime,
        *,
        page_size: int = 100,
        page_token: str | None = None,
        include_cancelled: bool = False,
        private: Mapping[str, str] | None = None,
        owner: str | None = None,
    ) -> EventPage:
        # ``owner``: the server lists the calling principal's own events unless its grant says
        # ``all_owners``; a client cannot ask for another's
        request = mappers.list_events_request(
            calendar_id,
            start,
            end,
            page_size=page_size,
            page_token=page_token,
            include_cancelled=include_cancelled,
            private=private,
        )
        return _page(await self._calls.invoke(rpcs.LIST_EVENTS, request))

    async def list_changes(self, query: ChangeQuery) -> EventPage:
        """``ListEvents`` as a change feed (``updated_since`` or ``sync_token``)."""
        request = mappers.changes_request(query)
        return _page(await self._calls.invoke(rpcs.LIST_EVENTS, request))


def _page(response: pb.ListEventsResponse) -> EventPage:
    """A page; an event without a time that is cancelled is a deletion known by id only."""
    gone = event_messages.is_deletion
    return EventPage(
        events=tuple(mappers.calendar_event(e) for e in response.events if not gone(e)),
        next_page_token=response.next_page_token or None,
        next_sync_token=response.next_sync_token or None,
        deleted=tuple(event_messages.deletion(e) for e in response.events if gone(e)),
    )
