"""The one client call policy of the kit's gRPC clients (``AgentClient``, ``GrpcCalendarAdapter``).

- ``open_channel``: one or many replicas (round_robin, see ``agenda_kit.grpc.balancing``), TLS
  or plaintext, the shared message-size and reconnect options, and the call interceptors:
- ``CallMetadata``: ``authorization: Bearer <token>`` and ``x-request-id`` (the one the call
  passes, else the one bound in structlog's context) on every call, unless the call set them;
- ``CallDeadline``: a call without a timeout gets the default; every call's timeout is capped by
  the caller's remaining :mod:`agenda_kit.deadline`;
- ``RetryingCalls``: a call that failed with ``is_retryable`` (UNAVAILABLE, or CANCELLED by a
  replica stopping) is retried (``agenda_kit.retrying``: tenacity) while the attempts and
  the budget allow, each pause logged and counted in ``ClientStats``.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, Self, TypedDict, TypeVar, Unpack

import grpc
import structlog

from agenda_kit import deadline
from agenda_kit.grpc.balancing import balanced_options, channel_target
from agenda_kit.grpc.limits import MESSAGE_SIZE_OPTIONS
from agenda_kit.retrying import Remaining, RetryPolicy, retrying

__all__ = [
    "AUTHORIZATION_KEY",
    "REQUEST_ID_KEY",
    "CallDeadline",
    "CallMetadata",
    "ChannelClient",
    "ChannelSettings",
    "ClientStats",
    "RetryingCalls",
    "is_retryable",
    "open_channel",
]

T = TypeVar("T")
AUTHORIZATION_KEY = "authorization"
REQUEST_ID_KEY = "x-request-id"
MIN_ATTEMPT_SECONDS = 0.02
"""No retry starts with less than this left of the budget after its pause."""
DEFAULT_CHANNEL_OPTIONS: tuple[tuple[str, Any], ...] = (
    *MESSAGE_SIZE_OPTIONS,
    ("grpc.initial_reconnect_backoff_ms", 200),
    ("grpc.max_reconnect_backoff_ms", 5000),
)


@dataclass(slots=True)
class ClientStats:
    """Logical calls, RPC attempts sent, retries, and calls a circuit breaker refused."""

    calls: int = 0
    attempts: int = 0
    retries: int = 0
    rejected_by_breaker: int = 0


RETRYABLE = frozenset({grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.CANCELLED})


def is_retryable(error: BaseException) -> bool:
    """The failures worth retrying: UNAVAILABLE (the server was not reached, is restarting, or
    gave up on the call at the end of its shutdown grace), or
    CANCELLED as a status — a grpc.aio server that starts a graceful stop ends the calls it had
    accepted but not yet started that way (measured: tests/kit/test_client_balancing.py). The
    caller's own cancellation never arrives as a status (it is an ``asyncio.CancelledError``).
    Safe for every RPC of both contracts: each is a read, an idempotent write, or deduplicated
    on its message id / idempotency key, so a call that did run is not run twice."""
    return isinstance(error, grpc.aio.AioRpcError) and error.code() in RETRYABLE


def _details(details: Any, *, timeout: float | None, metadata: Any) -> Any:
    return grpc.aio.ClientCallDetails(
        details.method, timeout, metadata, details.credentials, details.wait_for_ready
    )


class _Rewrite(ABC):
    """Rewrites a call's details; ``interceptors()`` applies it to unary and server-streaming
    calls (grpc.aio files an interceptor under one kind only)."""

    @abstractmethod
    def rewrite(self, details: Any) -> Any:
        """The call's details as the policy wants them."""

    def interceptors(self) -> list[grpc.aio.ClientInterceptor]:
        return [_UnaryUnary(self), _UnaryStream(self)]


class _UnaryUnary(grpc.aio.UnaryUnaryClientInterceptor):
    def __init__(self, policy: _Rewrite) -> None:
        self._policy = policy

    async def intercept_unary_unary(self, continuation: Any, details: Any, request: Any) -> Any:
        return await continuation(self._policy.rewrite(details), request)


class _UnaryStream(grpc.aio.UnaryStreamClientInterceptor):
    def __init__(self, policy: _Rewrite) -> None:
        self._policy = policy

    async def intercept_unary_stream(self, continuation: Any, details: Any, request: Any) -> Any:
        return await continuation(self._policy.rewrite(details), request)


class CallMetadata(_Rewrite):
    """Adds the bearer token and the bound request id, unless the call carries its own."""

    def __init__(self, token: str | None) -> None:
        self._token = token

    def rewrite(self, details: Any) -> Any:
        items = list(details.metadata or ())
        keys = {key for key, _ in items}
        if self._token and AUTHORIZATION_KEY not in keys:
            items.append((AUTHORIZATION_KEY, f"Bearer {self._token}"))
        bound = structlog.contextvars.get_contextvars().get("request_id")
        if REQUEST_ID_KEY not in keys and isinstance(bound, str) and bound:
            items.append((REQUEST_ID_KEY, bound))
        return _details(details, timeout=details.timeout, metadata=grpc.aio.Metadata(*items))


class CallDeadline(_Rewrite):
    """``timeout`` when the call names none; never later than the caller's deadline."""

    def __init__(self, timeout: float) -> None:
        if timeout <= 0:
            raise ValueError("timeout must be positive")
        self._timeout = timeout

    def rewrite(self, details: Any) -> Any:
        timeout = self._timeout if details.timeout is None else details.timeout
        left = deadline.remaining()
        if left is not None and left > 0:
            timeout = min(timeout, left)
        return _details(details, timeout=timeout, metadata=details.metadata)


class ChannelSettings(TypedDict, total=False):
    """How ``open_channel`` reaches the server (every client's ``connect`` takes these)."""

    tls: bool
    tls_root_cert: bytes | None
    channel_options: Sequence[tuple[str, Any]]


def open_channel(
    address: str | Sequence[str],
    *,
    token: str | None,
    timeout: float,
    interceptors: Sequence[grpc.aio.ClientInterceptor] = (),
    **settings: Unpack[ChannelSettings],
) -> grpc.aio.Channel:
    """A channel to ``address`` ("host:port", a DNS name of every replica, or several
    addresses) under the call policy; ``interceptors`` run before it (e.g. tracing).

    TLS when ``tls`` is set or ``tls_root_cert`` (PEM) is given, plaintext otherwise.
    Call from async code: the channel belongs to the running event loop.
    """
    options = balanced_options([*DEFAULT_CHANNEL_OPTIONS, *settings.get("channel_options", ())])
    tls_root_cert = settings.get("tls_root_cert")
    target = channel_target(address)  # one or many replicas, round_robin per call
    chain = [
        *interceptors,
        *CallMetadata(token).interceptors(),
        *CallDeadline(timeout).interceptors(),
    ]
    if settings.get("tls", False) or tls_root_cert is not None:
        credentials = grpc.ssl_channel_credentials(root_certificates=tls_root_cert)
        return grpc.aio.secure_channel(target, credentials, options=options, interceptors=chain)
    return grpc.aio.insecure_channel(target, options=options, interceptors=chain)


class ChannelClient:
    """A client over one channel: ``close()`` closes it when the client opened it
    (``connect``); a channel passed in stays the caller's. ``async with`` closes too."""

    _channel: grpc.aio.Channel
    _owns_channel = False

    async def close(self) -> None:
        if self._owns_channel:
            await self._channel.close()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *_exc: object) -> None:
        await self.close()


class RetryingCalls:
    """Runs one logical call: ``attempt()`` again on a retryable failure (``is_retryable``)
    while ``policy`` and the budget allow (see ``agenda_kit.retrying``); counts calls and
    retries in ``stats``."""

    def __init__(
        self, policy: RetryPolicy, stats: ClientStats, *, logger: str, log_event: str
    ) -> None:
        self.policy = policy
        self._stats = stats
        self._log = structlog.get_logger(logger)
        self._log_event = log_event

    async def run(
        self,
        rpc: str,
        attempt: Callable[[], Awaitable[T]],
        *,
        remaining: Remaining = deadline.remaining,
        retry_if: Callable[[BaseException], bool] = is_retryable,
    ) -> T:
        """``await attempt()``; the last error is raised as it was."""
        self._stats.calls += 1

        def retried(failed: int, pause: float) -> None:
            self._log.info(self._log_event, rpc=rpc, attempt=failed, delay_s=round(pause, 3))
            self._stats.retries += 1

        async for trial in retrying(
            self.policy,
            retry_if=retry_if,
            remaining=remaining,
            min_attempt_s=MIN_ATTEMPT_SECONDS,
            on_retry=retried,
        ):
            with trial:
                return await attempt()
        raise AssertionError("tenacity re-raises the last error")  # pragma: no cover
