"""One call of the calendar client: the method table, the breaker, retries and the error table.

Per call: no call at all once the caller's deadline has passed; each attempt under the circuit
breaker (which counts only UNAVAILABLE and DEADLINE_EXCEEDED); UNAVAILABLE and a stopping
replica's CANCELLED retried by the kit's call policy (``agenda_kit.grpc.client.RetryingCalls``)
— safe for CreateEvent because of its idempotency key, and for the reads, cancel and move,
which are idempotent; grpc errors never escape: they become ``agenda_kit.calendar.errors``.
Token, request id and the deadline of each attempt come from the channel's interceptors
(``agenda_kit.grpc.client``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Generic, TypeVar

import grpc
import structlog
from google.protobuf.message import Message
from grpc_health.v1 import health_pb2

from agenda.calendar.v1 import calendar_service_pb2 as pb
from agenda_kit import deadline
from agenda_kit.calendar import client_errors
from agenda_kit.calendar.errors import CalendarError, CalendarUnavailableError
from agenda_kit.grpc.client import ClientStats, RetryingCalls
from agenda_kit.metrics import set_breaker_state
from agenda_kit.resilience import BreakerState, CircuitBreaker, CircuitOpenError
from agenda_kit.retrying import RetryPolicy

log = structlog.get_logger("agenda.calendar_client")

Req = TypeVar("Req", bound=Message)
Resp = TypeVar("Resp", bound=Message)

BREAKER_NAME = "calendar"
_HEALTH_CHECK = "/grpc.health.v1.Health/Check"
_UPSTREAM_DOWN = frozenset({grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED})
_BACKOFF_BASE = 0.05
_BACKOFF_CAP = 0.5


@dataclass(frozen=True, slots=True)
class Rpc(Generic[Req, Resp]):
    """One method of the service: its path, response type and what NOT_FOUND means."""

    name: str
    response: type[Resp]
    event_scoped: bool = False

    @property
    def path(self) -> str:
        return f"/agenda.calendar.v1.CalendarService/{self.name}"


GET_FREE_SLOTS: Rpc[pb.GetFreeSlotsRequest, pb.GetFreeSlotsResponse] = Rpc(
    "GetFreeSlots", pb.GetFreeSlotsResponse
)
QUERY_FREE_BUSY: Rpc[pb.QueryFreeBusyRequest, pb.QueryFreeBusyResponse] = Rpc(
    "QueryFreeBusy", pb.QueryFreeBusyResponse
)
CREATE_EVENT: Rpc[pb.CreateEventRequest, pb.CreateEventResponse] = Rpc(
    "CreateEvent", pb.CreateEventResponse
)
GET_EVENT: Rpc[pb.GetEventRequest, pb.GetEventResponse] = Rpc(
    "GetEvent", pb.GetEventResponse, event_scoped=True
)
CANCEL_EVENT: Rpc[pb.CancelEventRequest, pb.CancelEventResponse] = Rpc(
    "CancelEvent", pb.CancelEventResponse, event_scoped=True
)
LIST_EVENTS: Rpc[pb.ListEventsRequest, pb.ListEventsResponse] = Rpc(
    "ListEvents", pb.ListEventsResponse
)
MOVE_EVENT: Rpc[pb.MoveEventRequest, pb.MoveEventResponse] = Rpc(
    "MoveEvent", pb.MoveEventResponse, event_scoped=True
)
UPDATE_EVENT: Rpc[pb.UpdateEventRequest, pb.UpdateEventResponse] = Rpc(
    "UpdateEvent", pb.UpdateEventResponse, event_scoped=True
)


def _breaker_moved(old: BreakerState, new: BreakerState) -> None:
    log.warning("calendar_breaker_state", old=old.value, new=new.value)
    set_breaker_state(BREAKER_NAME, new)


def _upstream_down(error: BaseException) -> bool:
    return isinstance(error, grpc.aio.AioRpcError) and error.code() in _UPSTREAM_DOWN


def _serialize(message: Message) -> bytes:
    return message.SerializeToString()


class CalendarCalls:
    """Sends the calendar RPCs over ``channel`` (opened with the kit's call policy)."""

    def __init__(
        self,
        channel: grpc.aio.Channel,
        *,
        max_attempts: int,
        breaker: CircuitBreaker | None,
    ) -> None:
        self._channel = channel
        self.breaker = breaker or CircuitBreaker(on_state_change=_breaker_moved)
        set_breaker_state(BREAKER_NAME, self.breaker.state)
        self.stats = ClientStats()
        policy = RetryPolicy(max_attempts, backoff_base=_BACKOFF_BASE, backoff_cap=_BACKOFF_CAP)
        self._retrying = RetryingCalls(
            policy, self.stats, logger="agenda.calendar_client", log_event="calendar_call_retry"
        )

    async def invoke(self, rpc: Rpc[Req, Resp], request: Req) -> Resp:
        """Call ``rpc``, retrying ``is_retryable`` failures while attempts and the deadline
        allow."""
        try:
            return await self._retrying.run(rpc.name, lambda: self._attempt(rpc, request))
        except CircuitOpenError as error:
            self.stats.rejected_by_breaker += 1
            raise CalendarUnavailableError() from error
        except grpc.aio.AioRpcError as error:
            raise self._port_error(rpc, error) from error

    async def check_health(self) -> bool:
        """Whether the calendar service reports itself SERVING (overall health)."""
        check = self._channel.unary_unary(
            _HEALTH_CHECK,
            request_serializer=_serialize,
            response_deserializer=health_pb2.HealthCheckResponse.FromString,
        )
        try:
            response = await check(health_pb2.HealthCheckRequest())
        except grpc.aio.AioRpcError:
            return False
        return bool(response.status == health_pb2.HealthCheckResponse.SERVING)

    async def _attempt(self, rpc: Rpc[Req, Resp], request: Req) -> Resp:
        if deadline.expired():
            log.warning("calendar_call_skipped", rpc=rpc.name, reason="deadline passed")
            raise CalendarUnavailableError()
        async with self.breaker.guard(_upstream_down):
            self.stats.attempts += 1
            call = self._channel.unary_unary(
                rpc.path,
                request_serializer=_serialize,
                response_deserializer=rpc.response.FromString,
            )
            return await call(request)  # timeout and metadata: the channel's interceptors

    def _port_error(self, rpc: Rpc[Any, Any], error: grpc.aio.AioRpcError) -> CalendarError:
        code = error.code()
        if code in client_errors.CREDENTIAL_CODES:
            log.error("calendar_credentials_rejected", rpc=rpc.name, code=code.name)
        elif code not in client_errors.EXPECTED_CODES:
            log.warning(
                "calendar_call_failed", rpc=rpc.name, code=code.name, details=error.details()
            )
        return client_errors.port_error(error, event_scoped=rpc.event_scoped)
