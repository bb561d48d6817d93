"""``GrpcCalendarAdapter``: ``ICalendarAdapter`` over ``agenda.calendar.v1.CalendarService``.

Every call: bearer token (and the bound ``x-request-id``) in metadata; a deadline of
``min(timeout, caller's remaining deadline)``; no call at all once the caller's deadline has
passed; retries of UNAVAILABLE only, with small jittered exponential backoff, while the deadline
allows (safe for CreateEvent because of its idempotency key, and for the reads, cancel and
move, which are idempotent); a circuit breaker that counts only UNAVAILABLE and DEADLINE_EXCEEDED;
grpc errors never escape — they become ``agenda_kit.calendar.errors``.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Generic, TypeVar

import grpc
import structlog
from google.protobuf.message import Message
from grpc_health.v1 import health_pb2

from agenda.calendar.v1 import calendar_service_pb2 as pb
from agenda_kit import deadline, tracing
from agenda_kit.calendar import grpc_mappers as mappers
from agenda_kit.calendar.errors import CalendarError, CalendarUnavailableError
from agenda_kit.calendar.port import (
    CalendarEvent,
    EventDraft,
    EventPage,
    FreeBusy,
    ICalendarAdapter,
    SlotRules,
)
from agenda_kit.grpc.balancing import balanced_options, channel_target
from agenda_kit.grpc.limits import MESSAGE_SIZE_OPTIONS
from agenda_kit.metrics import count_cache, set_breaker_state
from agenda_kit.resilience import BreakerState, CircuitBreaker, CircuitOpenError, TtlCache

log = structlog.get_logger("agenda.calendar_client")

Req = TypeVar("Req", bound=Message)
Resp = TypeVar("Resp", bound=Message)
V = TypeVar("V")

BREAKER_NAME = "calendar"
SLOTS_CACHE = "calendar_client_free_slots"
BUSY_CACHE = "calendar_client_free_busy"
_HEALTH_CHECK = "/grpc.health.v1.Health/Check"
_UPSTREAM_DOWN = frozenset({grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED})
_BACKOFF_BASE = 0.05
_BACKOFF_CAP = 0.5
_MIN_ATTEMPT_SECONDS = 0.02
_DEFAULT_CHANNEL_OPTIONS: tuple[tuple[str, Any], ...] = (
    *MESSAGE_SIZE_OPTIONS,
    ("grpc.initial_reconnect_backoff_ms", 200),
    ("grpc.max_reconnect_backoff_ms", 5000),
)


@dataclass(frozen=True, slots=True)
class _Rpc(Generic[Req, Resp]):
    """One method of the service: its path, response type and what NOT_FOUND means."""

    name: str
    response: type[Resp]
    event_scoped: bool = False

    @property
    def path(self) -> str:
        return f"/agenda.calendar.v1.CalendarService/{self.name}"


_GET_FREE_SLOTS: _Rpc[pb.GetFreeSlotsRequest, pb.GetFreeSlotsResponse] = _Rpc(
    "GetFreeSlots", pb.GetFreeSlotsResponse
)
_QUERY_FREE_BUSY: _Rpc[pb.QueryFreeBusyRequest, pb.QueryFreeBusyResponse] = _Rpc(
    "QueryFreeBusy", pb.QueryFreeBusyResponse
)
_CREATE_EVENT: _Rpc[pb.CreateEventRequest, pb.CreateEventResponse] = _Rpc(
    "CreateEvent", pb.CreateEventResponse
)
_GET_EVENT: _Rpc[pb.GetEventRequest, pb.GetEventResponse] = _Rpc(
    "GetEvent", pb.GetEventResponse, event_scoped=True
)
_CANCEL_EVENT: _Rpc[pb.CancelEventRequest, pb.CancelEventResponse] = _Rpc(
    "CancelEvent", pb.CancelEventResponse, event_scoped=True
)
_LIST_EVENTS: _Rpc[pb.ListEventsRequest, pb.ListEventsResponse] = _Rpc(
    "ListEvents", pb.ListEventsResponse
)
_MOVE_EVENT: _Rpc[pb.MoveEventRequest, pb.MoveEventResponse] = _Rpc(
    "MoveEvent", pb.MoveEventResponse, event_scoped=True
)


@dataclass(frozen=True, slots=True)
class _ReadKey:
    """A cached read: the method, the calendars it reads (for invalidation) and the request."""

    method: str
    calendar_ids: frozenset[str]
    request: bytes

    @classmethod
    def of(cls, rpc: _Rpc[Any, Any], calendar_ids: Iterable[str], request: Message) -> _ReadKey:
        return cls(rpc.name, frozenset(calendar_ids), request.SerializeToString(deterministic=True))


@dataclass(slots=True)
class CalendarClientStats:
    """Counters until Prometheus is wired: logical calls, RPCs sent, retries, breaker refusals."""

    calls: int = 0
    attempts: int = 0
    retries: int = 0
    rejected_by_breaker: int = 0


def _breaker_moved(old: BreakerState, new: BreakerState) -> None:
    log.warning("calendar_breaker_state", old=old.value, new=new.value)
    set_breaker_state(BREAKER_NAME, new)


def _upstream_down(error: BaseException) -> bool:
    return isinstance(error, grpc.aio.AioRpcError) and error.code() in _UPSTREAM_DOWN


def _read_mode(*, fresh: bool) -> pb.ReadMode.ValueType:
    return pb.READ_MODE_FRESH if fresh else pb.READ_MODE_CACHED


def _serialize(message: Message) -> bytes:
    return message.SerializeToString()


def _backoff(attempt: int) -> float:
    """Exponential backoff with jitter: 50 ms, 100 ms, … capped at 0.5 s, times 0.5–1."""
    ceiling = min(_BACKOFF_CAP, _BACKOFF_BASE * 2.0 ** (attempt - 1))
    return ceiling * random.uniform(0.5, 1.0)  # noqa: S311 - jitter, not cryptography


class GrpcCalendarAdapter(ICalendarAdapter):
    """The calendar port over gRPC, for other products and the agent service.

    Reads of free slots and free/busy are cached for ``cache_ttl`` seconds keyed on the full
    request; this client's own create/insert/cancel/move on a calendar drops that calendar's
    cached reads (before and after the write), and a read that raced such a write is not
    cached. Writes by other clients show up within the TTL, except to a ``fresh`` read: it
    skips this cache and sends ``READ_MODE_FRESH`` so the service skips its own (its answer
    then refreshes this cache).
    """

    def __init__(
        self,
        channel: grpc.aio.Channel,
        *,
        token: str | None,
        timeout: float = 5.0,
        max_attempts: int = 3,
        breaker: CircuitBreaker | None = None,
        cache_ttl: float = 10.0,
    ) -> None:
        if timeout <= 0 or max_attempts < 1:
            raise ValueError("timeout must be positive and max_attempts >= 1")
        self._channel = channel
        self._token = token
        self._timeout = timeout
        self._max_attempts = max_attempts
        self.breaker = breaker or CircuitBreaker(on_state_change=_breaker_moved)
        set_breaker_state(BREAKER_NAME, self.breaker.state)
        self._slots_cache: TtlCache[_ReadKey, tuple[datetime, ...]] = TtlCache(cache_ttl)
        self._busy_cache: TtlCache[_ReadKey, tuple[FreeBusy, ...]] = TtlCache(cache_ttl)
        self._writes = 0  # bumped around every write: a read that raced one is not cached
        self._owns_channel = False
        self.stats = CalendarClientStats()

    @classmethod
    def connect(
        cls,
        address: str | Sequence[str],
        *,
        token: str | None,
        tls_root_cert: bytes | None = None,
        tls: bool = False,
        channel_options: Sequence[tuple[str, Any]] = (),
        timeout: float = 5.0,
        max_attempts: int = 3,
        breaker: CircuitBreaker | None = None,
        cache_ttl: float = 10.0,
    ) -> GrpcCalendarAdapter:
        """Open a channel to ``address`` ("host:port", a DNS name of every replica, or several
        addresses: round_robin per call, see ``agenda_kit.grpc.balancing``) and wrap it;
        ``close()`` closes it.

        TLS when ``tls`` is set or ``tls_root_cert`` (PEM) is given, plaintext otherwise.
        Call from async code: the channel belongs to the running event loop.
        """
        options = balanced_options([*_DEFAULT_CHANNEL_OPTIONS, *channel_options])
        address = channel_target(address)  # one or many replicas, round_robin per call
        if tls or tls_root_cert is not None:
            credentials = grpc.ssl_channel_credentials(root_certificates=tls_root_cert)
            channel = grpc.aio.secure_channel(
                address, credentials, options=options, interceptors=tracing.client_interceptors()
            )
        else:
            channel = grpc.aio.insecure_channel(
                address, options=options, interceptors=tracing.client_interceptors()
            )
        client = cls(
            channel,
            token=token,
            timeout=timeout,
            max_attempts=max_attempts,
            breaker=breaker,
            cache_ttl=cache_ttl,
        )
        client._owns_channel = True
        return client

    async def close(self) -> None:
        """Close the channel if ``connect`` opened it (a channel passed in stays the caller's)."""
        if self._owns_channel:
            await self._channel.close()

    async def __aenter__(self) -> GrpcCalendarAdapter:
        return self

    async def __aexit__(self, *_exc: object) -> None:
        await self.close()

    @property
    def breaker_state(self) -> BreakerState:
        return self.breaker.state

    @property
    def cache_hits(self) -> int:
        return self._slots_cache.hits + self._busy_cache.hits

    @property
    def cache_misses(self) -> int:
        return self._slots_cache.misses + self._busy_cache.misses

    async def check_health(self) -> bool:
        """Whether the calendar service reports itself SERVING (overall health, no token)."""
        check = self._channel.unary_unary(
            _HEALTH_CHECK,
            request_serializer=_serialize,
            response_deserializer=health_pb2.HealthCheckResponse.FromString,
        )
        try:
            response = await check(health_pb2.HealthCheckRequest(), timeout=self._timeout)
        except grpc.aio.AioRpcError:
            return False
        return bool(response.status == health_pb2.HealthCheckResponse.SERVING)

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
        key = _ReadKey.of(_GET_FREE_SLOTS, [calendar_id], request)  # before read_mode is set
        request.read_mode = _read_mode(fresh=fresh)

        async def load() -> tuple[datetime, ...]:
            response = await self._invoke(_GET_FREE_SLOTS, request)
            return tuple(mappers.instant(start) for start in response.slot_starts)

        starts: tuple[datetime, ...] = await self._read_through(
            self._slots_cache, SLOTS_CACHE, key, load, fresh=fresh
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
        key = _ReadKey.of(_QUERY_FREE_BUSY, calendar_ids, request)  # before read_mode is set
        request.read_mode = _read_mode(fresh=fresh)

        async def load() -> tuple[FreeBusy, ...]:
            response = await self._invoke(_QUERY_FREE_BUSY, request)
            return tuple(mappers.free_busy(answer) for answer in response.calendars)

        answers: tuple[FreeBusy, ...] = await self._read_through(
            self._busy_cache, BUSY_CACHE, key, load, fresh=fresh
        )
        return list(answers)

    async def insert_event(self, draft: EventDraft) -> tuple[CalendarEvent, bool]:
        request = mappers.create_event_request(draft)
        async with self._writing(draft.calendar_id):
            response = await self._invoke(_CREATE_EVENT, request)
        return mappers.calendar_event(response.event), response.created

    async def get_event(self, calendar_id: str, event_id: str) -> CalendarEvent:
        request = pb.GetEventRequest(calendar_id=calendar_id, event_id=event_id)
        response = await self._invoke(_GET_EVENT, request)
        return mappers.calendar_event(response.event)

    async def cancel_event(self, calendar_id: str, event_id: str) -> bool:
        request = pb.CancelEventRequest(calendar_id=calendar_id, event_id=event_id)
        async with self._writing(calendar_id):
            response = await self._invoke(_CANCEL_EVENT, request)
        return response.cancelled

    async def move_event(
        self,
        calendar_id: str,
        event_id: str,
        start: datetime,
        end: datetime,
        *,
        time_zone: str | None = None,
    ) -> CalendarEvent:
        """``MoveEvent`` (retried on UNAVAILABLE: a move is idempotent); ``time_zone`` of None
        keeps the event's zone."""
        request = pb.MoveEventRequest(
            calendar_id=calendar_id,
            event_id=event_id,
            time=mappers.time_range(start, end),
            time_zone=time_zone or "",
        )
        async with self._writing(calendar_id):
            response = await self._invoke(_MOVE_EVENT, request)
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
    ) -> EventPage:
        request = mappers.list_events_request(
            calendar_id,
            start,
            end,
            page_size=page_size,
            page_token=page_token,
            include_cancelled=include_cancelled,
        )
        response = await self._invoke(_LIST_EVENTS, request)
        return EventPage(
            events=tuple(mappers.calendar_event(event) for event in response.events),
            next_page_token=response.next_page_token or None,
        )

    # -- cache --------------------------------------------------------------------------------

    async def _read_through(
        self,
        cache: TtlCache[_ReadKey, V],
        name: str,
        key: _ReadKey,
        load: Callable[[], Awaitable[V]],
        *,
        fresh: bool = False,
    ) -> V:
        """An unexpired cached answer (unless ``fresh``), else ``load()``; not stored if any
        write of this client started or ended meanwhile (coarser than per calendar, but
        bounded memory)."""
        cached = None if fresh else cache.get(key)
        if cached is not None:
            count_cache(name, hits=1)
            return cached
        if not fresh:
            count_cache(name, misses=1)
        writes_before = self._writes
        value = await load()
        if self._writes == writes_before:
            cache.put(key, value)
        return value

    @asynccontextmanager
    async def _writing(self, calendar_id: str) -> AsyncIterator[None]:
        """Drop the calendar's cached reads before and after a write (whatever its outcome)."""
        self._invalidate(calendar_id)
        try:
            yield
        finally:
            self._invalidate(calendar_id)

    def _invalidate(self, calendar_id: str) -> None:
        self._writes += 1
        for cache in (self._slots_cache, self._busy_cache):
            cache.invalidate(lambda key: calendar_id in key.calendar_ids)

    # -- one call: deadline, breaker, retries, error table -------------------------------------

    async def _invoke(self, rpc: _Rpc[Req, Resp], request: Req) -> Resp:
        """Call ``rpc``, retrying UNAVAILABLE while attempts and the deadline allow."""
        self.stats.calls += 1
        attempt = 1
        while True:
            try:
                return await self._attempt(rpc, request)
            except CircuitOpenError as error:
                self.stats.rejected_by_breaker += 1
                raise CalendarUnavailableError() from error
            except grpc.aio.AioRpcError as error:
                delay = self._retry_delay(error, attempt)
                if delay is None:
                    raise self._port_error(rpc, error) from error
            log.info("calendar_call_retry", rpc=rpc.name, attempt=attempt, delay_s=round(delay, 3))
            await asyncio.sleep(delay)
            attempt += 1
            self.stats.retries += 1

    async def _attempt(self, rpc: _Rpc[Req, Resp], request: Req) -> Resp:
        timeout = self._attempt_timeout(rpc)
        async with self.breaker.guard(_upstream_down):
            self.stats.attempts += 1
            call = self._channel.unary_unary(
                rpc.path,
                request_serializer=_serialize,
                response_deserializer=rpc.response.FromString,
            )
            return await call(request, timeout=timeout, metadata=self._metadata())

    def _attempt_timeout(self, rpc: _Rpc[Any, Any]) -> float:
        """``min(timeout, caller's remaining deadline)``; no call once that deadline passed."""
        left = deadline.remaining()
        if left is None:
            return self._timeout
        if left <= 0:
            log.warning("calendar_call_skipped", rpc=rpc.name, reason="deadline passed")
            raise CalendarUnavailableError()
        return min(self._timeout, left)

    def _retry_delay(self, error: grpc.aio.AioRpcError, attempt: int) -> float | None:
        """The pause before the next attempt, or None when this failure is final."""
        if error.code() is not grpc.StatusCode.UNAVAILABLE or attempt >= self._max_attempts:
            return None
        delay = _backoff(attempt)
        left = deadline.remaining()
        if left is not None and delay + _MIN_ATTEMPT_SECONDS >= left:
            return None
        return delay

    def _metadata(self) -> tuple[tuple[str, str], ...]:
        items: list[tuple[str, str]] = []
        if self._token:
            items.append(("authorization", f"Bearer {self._token}"))
        request_id = structlog.contextvars.get_contextvars().get("request_id")
        if isinstance(request_id, str) and request_id:
            items.append(("x-request-id", request_id))
        return tuple(items)

    def _port_error(self, rpc: _Rpc[Any, Any], error: grpc.aio.AioRpcError) -> CalendarError:
        code = error.code()
        details = error.details() or code.name
        if code in mappers.CREDENTIAL_CODES:
            log.error("calendar_credentials_rejected", rpc=rpc.name, code=code.name)
        elif code not in mappers.EXPECTED_CODES:
            log.warning("calendar_call_failed", rpc=rpc.name, code=code.name, details=details)
        return mappers.port_error(code, details, event_scoped=rpc.event_scoped)
