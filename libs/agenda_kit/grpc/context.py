"""Per-call context: request id, deadline, structured logs, metrics and error → status."""

from __future__ import annotations

import inspect
import time
import uuid
from asyncio import CancelledError as _Cancelled
from collections.abc import AsyncIterator
from typing import Any

import grpc
import structlog

from agenda_kit import deadline
from agenda_kit.errors import ErrorTable, MappedError, RequestValidationError
from agenda_kit.grpc.handlers import (
    UNDECODABLE,
    Behavior,
    Context,
    Continuation,
    Handler,
    StreamBehavior,
    rejects_undecodable,
    service_of,
    wrap_handler,
)
from agenda_kit.grpc.redaction import without_unsent_ids
from agenda_kit.metrics import RPC_LATENCY, RPC_REQUESTS

log = structlog.get_logger("agenda.rpc")
REQUEST_ID_KEY = "x-request-id"


def request_id_from(metadata: Any) -> str:
    """The caller's ``x-request-id`` if it sent a sane one, else a new one."""
    for key, value in metadata or ():
        if key == REQUEST_ID_KEY and isinstance(value, str) and 0 < len(value) <= 128:
            return value
    return uuid.uuid4().hex


class _Call:
    """Bookkeeping for one RPC: what to log and count when it ends."""

    def __init__(self, method: str, request_id: str, request: Any = None) -> None:
        self.service = service_of(method)
        self.method = method.rsplit("/", 1)[-1]
        self.request_id = request_id
        self.ids = ids_of(request)
        self.started = time.perf_counter()

    def finish(self, code: grpc.StatusCode, error: str | None = None) -> None:
        elapsed = time.perf_counter() - self.started
        RPC_REQUESTS.labels(self.service, self.method, code.name).inc()
        RPC_LATENCY.labels(self.service, self.method, code.name).observe(elapsed)
        event = log.info if code in _QUIET_CODES else log.warning
        event("rpc", code=code.name, duration_ms=round(elapsed * 1000, 2), error=_short(error))


_QUIET_CODES = frozenset({grpc.StatusCode.OK, grpc.StatusCode.NOT_FOUND})
_ID_FIELDS = ("tenant_id", "conversation_id")
_MAX_ERROR_CHARS = 300


def ids_of(request: Any) -> dict[str, str]:
    """The tenant and conversation ids a request names (top level or in ``message``)."""
    ids: dict[str, str] = {}
    for holder in (request, getattr(request, "message", None)):
        for name in _ID_FIELDS:
            value = getattr(holder, name, None)
            if isinstance(value, str) and 0 < len(value) <= 64 and name not in ids:
                ids[name] = value
    return ids


def _short(error: str | None) -> str | None:
    """Status details for the log line, capped (they may quote a backend's message)."""
    if error is None or len(error) <= _MAX_ERROR_CHARS:
        return error
    return error[:_MAX_ERROR_CHARS] + "…"


class RequestContextInterceptor(grpc.aio.ServerInterceptor):
    """Binds a request id to logs, carries the deadline to adapters, maps errors to codes.

    Anything not in the error table is logged with its traceback and reaches the caller as
    INTERNAL with the request id only — never a stack trace. No status names a UUID the
    caller's request did not carry (``agenda_kit.grpc.redaction``).

    It is the outermost interceptor (it logs and maps what the inner ones raise). A body that
    does not decode is refused by the authorization interceptor after authentication; only a
    server without one (tests, probes) has it refused here.
    """

    def __init__(self, errors: ErrorTable) -> None:
        self._errors = errors

    async def intercept_service(
        self,
        continuation: Continuation,
        handler_call_details: grpc.HandlerCallDetails,
    ) -> Handler | None:
        handler = await continuation(handler_call_details)
        if handler is None:
            return handler
        method = handler_call_details.method
        request_id = request_id_from(handler_call_details.invocation_metadata)
        guard = not rejects_undecodable(handler)
        return wrap_handler(
            handler,
            lambda behavior: self._unary(behavior, method, request_id, guard),
            lambda behavior: self._stream(behavior, method, request_id, guard),
        )

    def _unary(self, behavior: Behavior, method: str, request_id: str, guard: bool) -> Behavior:
        async def run(request: Any, context: Context) -> Any:
            call = _Call(method, request_id, request)
            with _bound(call), deadline.deadline_after(context.time_remaining()):
                try:
                    if guard:
                        _reject_undecodable(request)
                    response = await behavior(request, context)
                except BaseException as error:
                    await self._fail(call, context, error, request)
                    raise
                call.finish(_code_of(context))
                return response

        return run

    def _stream(
        self, behavior: StreamBehavior, method: str, request_id: str, guard: bool
    ) -> StreamBehavior:
        async def run(request: Any, context: Context) -> AsyncIterator[Any]:
            call = _Call(method, request_id, request)
            with _bound(call), deadline.deadline_after(context.time_remaining()):
                try:
                    if guard:
                        _reject_undecodable(request)
                    produced = behavior(request, context)
                    if inspect.isawaitable(produced):  # writes with context.write()
                        await produced
                    else:
                        async for item in produced:
                            yield item
                except BaseException as error:
                    await self._fail(call, context, error, request)
                    raise
                call.finish(_code_of(context))

        return run

    async def _fail(
        self, call: _Call, context: Context, error: BaseException, request: Any
    ) -> None:
        """Record the outcome and abort with the mapped status (re-raises for aborts). The
        caller's status names only ids its request carried (``redaction``); the log line
        keeps the whole message."""
        if isinstance(error, grpc.aio.AbortError):
            call.finish(_code_of(context), context.details())
            return
        if isinstance(error, GeneratorExit | KeyboardInterrupt | SystemExit):
            return
        if isinstance(error, _Cancelled):  # the client cancelled or its deadline passed
            call.finish(grpc.StatusCode.CANCELLED)
            return
        mapped = self._errors.map(error)
        if mapped is None:
            log.error("rpc_unhandled_error", exc_info=error)
            mapped = MappedError(
                grpc.StatusCode.INTERNAL,
                f"internal error (request id {call.request_id})",
                reason="INTERNAL",
                metadata={"requestId": call.request_id},
            )
        call.finish(mapped.code, mapped.message)
        await context.abort_with_status(self._errors.status(without_unsent_ids(mapped, request)))


def _code_of(context: Context) -> grpc.StatusCode:
    code = context.code()
    if isinstance(code, grpc.StatusCode):
        return code
    return grpc.StatusCode.OK


class _BoundLogs:
    def __init__(self, call: _Call) -> None:
        self._call = call

    def __enter__(self) -> None:
        structlog.contextvars.bind_contextvars(
            request_id=self._call.request_id,
            rpc=f"{self._call.service}/{self._call.method}",
            **self._call.ids,
        )

    def __exit__(self, *_exc: object) -> None:
        structlog.contextvars.unbind_contextvars("request_id", "rpc", *_ID_FIELDS, "trace_id")


def _bound(call: _Call) -> _BoundLogs:
    return _BoundLogs(call)


def _reject_undecodable(request: Any) -> None:
    if request is UNDECODABLE:
        raise RequestValidationError("request", "the message could not be decoded")
