"""Every RPC a server offers, found at run time (reflection + the descriptor pool), and a way to
call any of them with any message or raw bytes, returning the status instead of raising.

Nothing here names an RPC: a method added to a proto is attacked by every test that uses
``discover`` without any test change.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field

import grpc
from google.protobuf import descriptor_pool
from google.protobuf.descriptor import MethodDescriptor
from google.protobuf.message import Message
from google.protobuf.message_factory import GetMessageClass
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc

# Importing the generated modules registers their descriptors in the default pool.
from agenda.agent.v1 import agent_service_pb2, catalog_service_pb2  # noqa: F401
from agenda.calendar.v1 import calendar_service_pb2  # noqa: F401
from agenda_kit.errors import ErrorDetails, details_of
from agenda_kit.grpc.auth import EXEMPT_SERVICES

Metadata = Sequence[tuple[str, str]]


@dataclass(frozen=True, slots=True)
class Rpc:
    """One method of one service."""

    service: str
    method: MethodDescriptor

    @property
    def name(self) -> str:
        return self.method.name

    @property
    def path(self) -> str:
        return f"/{self.service}/{self.method.name}"

    @property
    def request_type(self) -> type[Message]:
        return GetMessageClass(self.method.input_type)

    @property
    def response_type(self) -> type[Message]:
        return GetMessageClass(self.method.output_type)

    @property
    def streaming(self) -> bool:
        return bool(self.method.server_streaming)

    def __str__(self) -> str:
        return f"{self.service.rsplit('.', 1)[-1]}/{self.name}"


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a call ended: its code, details and responses (one, or a stream's), and the
    ``google.rpc`` details of a failure."""

    code: grpc.StatusCode
    details: str
    responses: tuple[Message, ...]
    error: ErrorDetails = field(default_factory=ErrorDetails)


async def reflected_services(channel: grpc.aio.Channel, metadata: Metadata = ()) -> list[str]:
    """The service names the server lists through reflection (no token needed)."""
    stub = reflection_pb2_grpc.ServerReflectionStub(channel)

    async def one_request() -> AsyncIterator[reflection_pb2.ServerReflectionRequest]:
        yield reflection_pb2.ServerReflectionRequest(list_services="")

    names: list[str] = []
    async for reply in stub.ServerReflectionInfo(one_request(), metadata=metadata, timeout=10):
        names.extend(service.name for service in reply.list_services_response.service)
    return names


async def discover(channel: grpc.aio.Channel) -> list[Rpc]:
    """Every method of every application service the server offers (health and reflection,
    which are open by design, excluded)."""
    pool = descriptor_pool.Default()
    rpcs: list[Rpc] = []
    for name in await reflected_services(channel):
        if name in EXEMPT_SERVICES:
            continue
        service = pool.FindServiceByName(name)
        rpcs.extend(Rpc(name, method) for method in service.methods)
    return rpcs


def _serialize(request: Message | bytes) -> bytes:
    return request if isinstance(request, bytes) else request.SerializeToString()


async def invoke(
    channel: grpc.aio.Channel,
    rpc: Rpc,
    request: Message | bytes,
    metadata: Metadata = (),
    deadline: float = 30.0,
) -> Outcome:
    """Call ``rpc`` with ``request`` (a message, or raw bytes put on the wire as they are)."""
    try:
        if rpc.streaming:
            stream = channel.unary_stream(
                rpc.path,
                request_serializer=_serialize,
                response_deserializer=rpc.response_type.FromString,
            )
            call = stream(request, metadata=metadata, timeout=deadline)
            responses = tuple([response async for response in call])
        else:
            unary = channel.unary_unary(
                rpc.path,
                request_serializer=_serialize,
                response_deserializer=rpc.response_type.FromString,
            )
            responses = (await unary(request, metadata=metadata, timeout=deadline),)
    except grpc.aio.AioRpcError as error:
        return Outcome(error.code(), error.details() or "", (), details_of(error))
    return Outcome(grpc.StatusCode.OK, "", responses)
