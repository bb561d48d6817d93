"""Errors reach callers as google.rpc.Status: ErrorInfo, RetryInfo and BadRequest details."""

from __future__ import annotations

from collections.abc import AsyncIterator

import grpc
import pytest

from agenda_kit.errors import (
    PUSHBACK_KEY,
    RETRY_AFTER_KEY,
    ErrorRule,
    ErrorTable,
    RequestValidationError,
    details_of,
)
from agenda_kit.grpc.context import RequestContextInterceptor
from tests.kit.generic_server import serving


class _BusyError(Exception):
    def __init__(self, seconds: float, calendar: str) -> None:
        super().__init__(f"calendar {calendar} is busy")
        self.seconds = seconds
        self.calendar = calendar


TABLE = ErrorTable(
    [
        ErrorRule(RequestValidationError, grpc.StatusCode.INVALID_ARGUMENT),
        ErrorRule(
            _BusyError,
            grpc.StatusCode.RESOURCE_EXHAUSTED,
            reason="CALENDAR_BUSY",
            metadata=lambda e: {"calendarId": e.calendar},  # type: ignore[attr-defined]
            retry_after=lambda e: e.seconds,  # type: ignore[attr-defined]
        ),
    ],
    domain="test.agenda",
)
RAISES: dict[bytes, BaseException] = {
    b"field": RequestValidationError("range.start", "is required"),
    b"busy": _BusyError(2.5, "c1"),
    b"boom": RuntimeError("a bug"),
}


async def _raise(request: bytes, context: object) -> bytes:
    raise RAISES[request]


@pytest.fixture
async def channel() -> AsyncIterator[grpc.aio.Channel]:
    handler = grpc.method_handlers_generic_handler(
        "test.Errors", {"Fail": grpc.unary_unary_rpc_method_handler(_raise)}
    )
    async with serving(handler, [RequestContextInterceptor(TABLE)]) as open_channel:
        yield open_channel


async def _fail(channel: grpc.aio.Channel, what: bytes) -> grpc.aio.AioRpcError:
    call: grpc.aio.UnaryUnaryMultiCallable[bytes, bytes] = channel.unary_unary("/test.Errors/Fail")
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await call(what, timeout=10)
    return caught.value


async def test_a_field_error_names_the_field(channel: grpc.aio.Channel) -> None:
    error = await _fail(channel, b"field")
    details = details_of(error)
    assert error.code() is grpc.StatusCode.INVALID_ARGUMENT
    assert (details.reason, details.domain) == ("INVALID_ARGUMENT", "test.agenda")
    assert details.violations == (("range.start", "is required"),)
    assert details.retry_delay is None


async def test_a_retryable_error_carries_reason_metadata_and_retry_info(
    channel: grpc.aio.Channel,
) -> None:
    error = await _fail(channel, b"busy")
    details = details_of(error)
    assert error.code() is grpc.StatusCode.RESOURCE_EXHAUSTED
    assert error.details() == "calendar c1 is busy"
    assert details.reason == "CALENDAR_BUSY"
    assert details.metadata == {"calendarId": "c1"}
    assert details.retry_delay == 2.5
    trailers = dict(error.trailing_metadata() or ())
    assert trailers[RETRY_AFTER_KEY] == trailers[PUSHBACK_KEY] == "2500"


async def test_an_unexpected_error_is_internal_with_the_request_id_only(
    channel: grpc.aio.Channel,
) -> None:
    error = await _fail(channel, b"boom")
    details = details_of(error)
    assert error.code() is grpc.StatusCode.INTERNAL
    assert "a bug" not in (error.details() or "")
    assert details.reason == "INTERNAL"
    assert details.metadata["requestId"] in (error.details() or "")
