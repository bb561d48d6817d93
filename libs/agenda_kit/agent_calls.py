"""The calls under ``AgentClient``: one budget per logical call (retries included), retries by
the kit's call policy, and every final failure as ``AgentRpcError``."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from typing import TypeVar

import grpc
from google.protobuf.message import Message

from agenda.agent.v1 import agent_service_pb2_grpc as agent_grpc
from agenda.agent.v1 import catalog_service_pb2_grpc as catalog_grpc
from agenda_kit import deadline
from agenda_kit.grpc.client import REQUEST_ID_KEY, ClientStats, RetryingCalls
from agenda_kit.retrying import Remaining, RetryPolicy

Req = TypeVar("Req", bound=Message)
Resp = TypeVar("Resp", bound=Message)
Page = TypeVar("Page", bound=Message)
Item = TypeVar("Item")


class AgentRpcError(Exception):
    """A call failed for good: ``code`` is the gRPC status, ``details`` the server's message
    (for INVALID_ARGUMENT it names the field)."""

    def __init__(self, rpc: str, code: grpc.StatusCode, details: str) -> None:
        super().__init__(f"{rpc}: {code.name}: {details}")
        self.rpc = rpc
        self.code = code
        self.details = details


class AgentCalls:
    """The stubs of both services over one channel, and the one way to call them."""

    def __init__(
        self, channel: grpc.aio.Channel, *, timeout: float = 30.0, retry: RetryPolicy | None = None
    ) -> None:
        if timeout <= 0:
            raise ValueError("timeout must be positive")
        self._channel = channel
        self._timeout = timeout
        self._agent = agent_grpc.AgentServiceStub(channel)
        self._catalog = catalog_grpc.CatalogServiceStub(channel)
        self.stats = ClientStats()
        self._retrying = RetryingCalls(
            retry or RetryPolicy(),
            self.stats,
            logger="agenda.agent_client",
            log_event="agent_call_retry",
        )

    # -- one call: one budget for every attempt, retries by the call policy -------------------

    async def _unary(
        self,
        method: grpc.aio.UnaryUnaryMultiCallable[Req, Resp],
        request: Req,
        timeout_s: float | None,
        request_id: str | None = None,
    ) -> Resp:
        """Call ``method`` (named after its request: ``GetTenantRequest`` → GetTenant),
        retrying ``is_retryable`` failures while attempts and the budget allow."""
        rpc = type(request).__name__.removesuffix("Request")
        give_up = self._give_up_at(timeout_s)

        async def attempt() -> Resp:
            self.stats.attempts += 1
            return await method(
                request,
                timeout=attempt_timeout(rpc, give_up),
                metadata=request_metadata(request_id),
            )

        try:
            return await self._retrying.run(rpc, attempt, remaining=left(give_up))
        except grpc.aio.AioRpcError as error:
            raise rpc_error(rpc, error) from error

    def _give_up_at(self, timeout: float | None) -> float:
        """The monotonic instant this call must be over: its own timeout or the caller's
        deadline, whichever comes first."""
        budget = self._timeout if timeout is None else timeout
        left = deadline.remaining()
        if left is not None:
            budget = min(budget, left)
        return time.monotonic() + budget


def left(give_up: float) -> Remaining:
    return lambda: give_up - time.monotonic()


def attempt_timeout(rpc: str, give_up: float) -> float:
    left = give_up - time.monotonic()
    if left <= 0:
        raise AgentRpcError(rpc, grpc.StatusCode.DEADLINE_EXCEEDED, "deadline passed")
    return left


def request_metadata(request_id: str | None) -> tuple[tuple[str, str], ...]:
    """The call's own request id; without one the channel adds the bound one."""
    return ((REQUEST_ID_KEY, request_id),) if request_id else ()


def rpc_error(rpc: str, error: grpc.aio.AioRpcError) -> AgentRpcError:
    code = error.code()
    return AgentRpcError(rpc, code, error.details() or code.name)


async def pages(
    fetch: Callable[[str], Awaitable[Page]],
    split: Callable[[Page], tuple[Sequence[Item], str]],
) -> AsyncIterator[Item]:
    token = ""
    while True:
        items, token = split(await fetch(token))
        for item in items:
            yield item
        if not token:
            return
