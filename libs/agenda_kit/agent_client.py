"""``AgentClient``: a small typed async client for ``agenda.agent.v1`` (AgentService and
CatalogService), for channel gateways and back-office tools.

Every call (the kit's call policy, ``agenda_kit.grpc.client``): ``authorization: Bearer
<token>`` (and an ``x-request-id`` when given or bound in structlog's context) in metadata;
one deadline for the whole call, retries included —
``timeout`` seconds, never later than the caller's :mod:`agenda_kit.deadline`; retries of
UNAVAILABLE (the server was not reached or is restarting) and of CANCELLED as a status (a
replica stopping drops the calls it accepted but had not started that way) only, with small jittered
exponential backoff while the deadline allows. That is safe for every RPC of this contract:
SendMessage/StreamMessage are deduplicated on ``(tenant, channel, message_id)``, Create RPCs on
their ``idempotency_key``, and the rest are reads or idempotent writes. Any other failure
raises :class:`AgentRpcError` at once, with the status code and the server's details.

Methods return the generated messages (``agenda.agent.v1.*_pb2``); list RPCs also come as
``iter_*`` async iterators that follow page tokens.

    async with AgentClient.connect("127.0.0.1:50052", token=TOKEN) as agent:
        reply = await agent.send_message(tenant_id, channel="whatsapp",
                                         external_id="5511999990000", text="Oi",
                                         message_id=wamid)
"""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator, Sequence
from typing import Any, Required, TypedDict, Unpack

import grpc
from google.protobuf.timestamp_pb2 import Timestamp

from agenda.agent.v1 import agent_service_pb2 as agent_pb
from agenda.agent.v1 import types_pb2 as types_pb
from agenda_kit.agent_calls import AgentRpcError, attempt_timeout, left, request_metadata, rpc_error
from agenda_kit.agent_catalog import CatalogMethods
from agenda_kit.grpc.client import ChannelClient, ChannelSettings, ClientStats, open_channel
from agenda_kit.retrying import RetryPolicy

__all__ = [
    "AgentClient",
    "AgentClientStats",
    "AgentRpcError",
    "CustomerMessage",
    "RetryPolicy",
    "timestamp",
]

AgentClientStats = ClientStats
"""Logical calls, RPC attempts sent, and retries."""


class CustomerMessage(TypedDict, total=False):
    """What a customer said, and where: ``channel``, ``external_id`` (the customer's id on
    it) and ``text`` are required."""

    channel: Required[str]
    external_id: Required[str]
    text: Required[str]
    message_id: str | None
    display_name: str
    conversation_id: str


def timestamp(seconds: float) -> Timestamp:
    """A ``google.protobuf.Timestamp`` from a POSIX time (for ``list_appointments`` filters)."""
    stamp = Timestamp()
    stamp.FromNanoseconds(int(seconds * 1_000_000_000))
    return stamp


class AgentClient(CatalogMethods, ChannelClient):
    """AgentService and CatalogService (``CatalogMethods``) over one channel.

    ``timeout`` is the default budget of one call (retries included); every method takes a
    ``timeout_s=`` of its own. SendMessage runs a model turn, so keep it generous (30 s default).
    ``channel`` must carry the kit's call policy (``agenda_kit.grpc.client.open_channel``,
    which ``connect`` uses): it adds the token and the bound request id.
    """

    @classmethod
    def connect(
        cls,
        address: str | Sequence[str],
        *,
        token: str | None,
        timeout: float = 30.0,
        retry: RetryPolicy | None = None,
        **settings: Unpack[ChannelSettings],
    ) -> AgentClient:
        """Open a channel to ``address`` ("host:port", a DNS name of every replica, or several
        addresses: round_robin per call, see ``agenda_kit.grpc.balancing``) with the call
        policy; ``close()`` closes it.

        TLS when ``tls`` is set or ``tls_root_cert`` (PEM) is given, plaintext otherwise.
        Call from async code: the channel belongs to the running event loop.
        """
        channel = open_channel(address, token=token, timeout=timeout, **settings)
        client = cls(channel, timeout=timeout, retry=retry)
        client._owns_channel = True
        return client

    async def send_message(
        self,
        tenant_id: str,
        *,
        timeout_s: float | None = None,
        request_id: str | None = None,
        **message: Unpack[CustomerMessage],
    ) -> agent_pb.SendMessageResponse:
        """One customer message (``CustomerMessage``) → the reply. Pass the channel's own
        ``message_id`` so that a redelivery (yours or the channel's) returns the stored reply
        (``duplicate``) instead of running the turn again; without one a random id is used
        for this call's retries."""
        request = self.message_request(tenant_id, **message)
        return await self._unary(self._agent.SendMessage, request, timeout_s, request_id)

    async def stream_message(
        self,
        request: agent_pb.SendMessageRequest,
        *,
        timeout_s: float | None = None,
        request_id: str | None = None,
    ) -> AsyncIterator[agent_pb.StreamMessageResponse]:
        """The turn as events: ``progress`` stages, ``text_delta`` chunks, then ``final``.

        A retryable failure (``is_retryable``) is retried only before the first event arrives
        (the server deduplicates the message id, so a retried turn never runs twice)."""
        rpc = "StreamMessage"
        give_up = self._give_up_at(timeout_s)

        async def first_event() -> tuple[Any, Any]:
            self.stats.attempts += 1
            call = self._agent.StreamMessage(
                agent_pb.StreamMessageRequest(message=request),
                timeout=attempt_timeout(rpc, give_up),
                metadata=request_metadata(request_id),
            )
            return call, await call.read()

        try:
            call, event = await self._retrying.run(rpc, first_event, remaining=left(give_up))
            while event is not grpc.aio.EOF:
                yield event
                event = await call.read()
        except grpc.aio.AioRpcError as error:
            raise rpc_error(rpc, error) from error

    def message_request(
        self, tenant_id: str, **message: Unpack[CustomerMessage]
    ) -> agent_pb.SendMessageRequest:
        """The request ``send_message`` sends (for ``stream_message``)."""
        return agent_pb.SendMessageRequest(
            tenant_id=tenant_id,
            customer=agent_pb.CustomerIdentity(
                channel=message["channel"],
                external_id=message["external_id"],
                display_name=message.get("display_name", ""),
            ),
            conversation_id=message.get("conversation_id", ""),
            message_id=message.get("message_id") or uuid.uuid4().hex,
            text=message["text"],
        )

    async def get_conversation(
        self,
        tenant_id: str,
        conversation_id: str,
        *,
        message_limit: int = 0,
        timeout_s: float | None = None,
    ) -> types_pb.Conversation:
        """The conversation with its latest ``message_limit`` messages (0 = 100)."""
        request = agent_pb.GetConversationRequest(
            tenant_id=tenant_id, conversation_id=conversation_id, message_limit=message_limit
        )
        response = await self._unary(self._agent.GetConversation, request, timeout_s)
        return response.conversation

    async def hand_off(
        self, tenant_id: str, conversation_id: str, reason: str, *, timeout_s: float | None = None
    ) -> types_pb.Conversation:
        """Give the conversation to a human: the bot stores messages but does not answer."""
        request = agent_pb.HandOffRequest(
            tenant_id=tenant_id, conversation_id=conversation_id, reason=reason
        )
        return (await self._unary(self._agent.HandOff, request, timeout_s)).conversation

    async def hand_back(
        self,
        tenant_id: str,
        conversation_id: str,
        note: str = "",
        *,
        timeout_s: float | None = None,
    ) -> types_pb.Conversation:
        """Return the conversation to the bot (the note is kept in the transcript)."""
        request = agent_pb.HandBackRequest(
            tenant_id=tenant_id, conversation_id=conversation_id, note=note
        )
        return (await self._unary(self._agent.HandBack, request, timeout_s)).conversation

    async def end_conversation(
        self, tenant_id: str, conversation_id: str, *, timeout_s: float | None = None
    ) -> types_pb.Conversation:
        """Close the conversation; the customer's next message starts a new one."""
        request = agent_pb.EndConversationRequest(
            tenant_id=tenant_id, conversation_id=conversation_id
        )
        response = await self._unary(self._agent.EndConversation, request, timeout_s)
        return response.conversation
