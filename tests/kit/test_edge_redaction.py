"""Issue 24 item 4: an error names only ids the caller sent — whatever raised it.

A handler behind the request-context interceptor raises errors whose message, ErrorInfo
metadata and field violations name the request's own ids (in any letter case) and ids the
request never carried; the caller sees its own ids and ``<id>`` for every other one. The log
line keeps the whole message for operators."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from typing import Any

import grpc
import pytest

from agenda.agent.v1 import agent_service_pb2 as agent_pb
from agenda_kit.errors import ErrorRule, ErrorTable, details_of
from agenda_kit.grpc.context import RequestContextInterceptor
from agenda_kit.grpc.redaction import UNSENT, redact, sent_ids
from tests.kit.generic_server import serving

HIDDEN = str(uuid.uuid4())


class _LeakyError(Exception):
    def __init__(self, own: str) -> None:
        super().__init__(f"conversation {own} belongs to customer {HIDDEN}")
        self.own = own


TABLE = ErrorTable(
    [
        ErrorRule(
            _LeakyError,
            grpc.StatusCode.NOT_FOUND,
            metadata=lambda e: {"other": HIDDEN, "own": e.own},  # type: ignore[attr-defined]
            violations=lambda e: [("conversation_id", f"see {HIDDEN}")],
        )
    ]
)


async def _raise(request: agent_pb.GetConversationRequest, context: object) -> bytes:
    raise _LeakyError(request.conversation_id.lower())


@pytest.fixture
async def channel() -> AsyncIterator[grpc.aio.Channel]:
    method: grpc.RpcMethodHandler[Any, Any] = grpc.unary_unary_rpc_method_handler(
        _raise, request_deserializer=agent_pb.GetConversationRequest.FromString
    )
    handler = grpc.method_handlers_generic_handler("test.Leaks", {"Get": method})
    async with serving(handler, [RequestContextInterceptor(TABLE)]) as open_channel:
        yield open_channel


async def test_errors_name_only_the_ids_the_caller_sent(channel: grpc.aio.Channel) -> None:
    own = str(uuid.uuid4())
    call: grpc.aio.UnaryUnaryMultiCallable[Any, Any] = channel.unary_unary(
        "/test.Leaks/Get", request_serializer=agent_pb.GetConversationRequest.SerializeToString
    )
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await call(agent_pb.GetConversationRequest(conversation_id=own.upper()), timeout=10)
    error = caught.value
    details = details_of(error)
    assert error.details() == f"conversation {own} belongs to customer {UNSENT}"
    assert details.metadata == {"other": UNSENT, "own": own}
    assert details.violations == (("conversation_id", f"see {UNSENT}"),)
    assert HIDDEN not in str(error.trailing_metadata())


def test_sent_ids_are_read_from_every_string_of_the_request() -> None:
    ids = [uuid.uuid4() for _ in range(3)]
    request = agent_pb.AckOutboxRequest(
        tenant_id=str(ids[0]).upper(), message_ids=[f"{{{ids[1]}}}", str(ids[2])]
    )
    assert sent_ids(request) == frozenset(ids)
    assert sent_ids(object()) == frozenset()
    assert redact(f"{ids[0]} and {HIDDEN}", sent_ids(request)) == f"{ids[0]} and {UNSENT}"
