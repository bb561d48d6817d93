"""Wrap the behaviour of a ``grpc.RpcMethodHandler`` (unary and server-streaming)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from typing import TYPE_CHECKING, Any, TypeAlias, cast

import grpc

if TYPE_CHECKING:  # grpc's classes are generic only in its type stubs
    Context: TypeAlias = grpc.aio.ServicerContext[Any, Any]
    Handler: TypeAlias = grpc.RpcMethodHandler[Any, Any]
else:
    Context = grpc.aio.ServicerContext
    Handler = grpc.RpcMethodHandler
Continuation = Callable[[grpc.HandlerCallDetails], Awaitable[Handler | None]]
Behavior = Callable[[Any, Context], Awaitable[Any]]
StreamBehavior = Callable[[Any, Context], AsyncIterator[Any]]
UnaryWrapper = Callable[[Behavior], Behavior]
StreamWrapper = Callable[[StreamBehavior], StreamBehavior]


class Undecodable:
    """Stands in for a request whose bytes could not be decoded (the behaviour rejects it
    with INVALID_ARGUMENT instead of grpc answering UNKNOWN with the exception's class)."""


UNDECODABLE = Undecodable()
_DECODES = "_agenda_rejects_undecodable"


def mark_decoding(behavior: Any) -> Any:
    """Mark ``behavior`` as the one that refuses ``UNDECODABLE`` bodies (the authorization
    interceptor does, after authenticating: an anonymous caller learns nothing of its body)."""
    setattr(behavior, _DECODES, True)
    return behavior


def rejects_undecodable(handler: Handler) -> bool:
    """Whether an inner interceptor of ``handler`` refuses undecodable bodies itself."""
    behavior = handler.unary_unary or handler.unary_stream
    return bool(getattr(behavior, _DECODES, False))


def tolerant(deserialize: Callable[[bytes], Any] | None) -> Callable[[bytes], Any] | None:
    """``deserialize``, returning ``UNDECODABLE`` instead of raising on malformed bytes."""
    if deserialize is None:
        return None

    def run(data: bytes) -> Any:
        try:
            return deserialize(data)
        except Exception:  # noqa: BLE001 - DecodeError, UnicodeDecodeError…: caller's bytes
            return UNDECODABLE

    return run


def wrap_handler(handler: Handler, unary: UnaryWrapper, stream: StreamWrapper) -> Handler:
    """A copy of ``handler`` whose behaviour is wrapped; client-streaming is left as is.

    (grpc's stubs type behaviours as synchronous; under ``grpc.aio`` they are coroutines.)
    """
    if handler.unary_unary is not None:
        return grpc.unary_unary_rpc_method_handler(
            unary(cast(Behavior, handler.unary_unary)),
            request_deserializer=tolerant(handler.request_deserializer),
            response_serializer=handler.response_serializer,
        )
    if handler.unary_stream is not None:
        return grpc.unary_stream_rpc_method_handler(
            stream(cast(StreamBehavior, handler.unary_stream)),
            request_deserializer=tolerant(handler.request_deserializer),
            response_serializer=handler.response_serializer,
        )
    return handler


def service_of(method: str) -> str:
    """``/pkg.Service/Method`` → ``pkg.Service``."""
    return method.lstrip("/").split("/", 1)[0]
