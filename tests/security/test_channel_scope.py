"""Issue 24 item 1: a gateway's ``channels`` scope holds on every RPC it may call, not only
on the ones whose request names a channel.

A whatsapp-only gateway asking for, handing off, handing back or ending tenant A's webchat
conversation gets NOT_FOUND with the same message and details as for an id that does not exist;
its outbox stream carries no webchat message and its acknowledgement of one acknowledges
nothing — the webchat gateway still receives it. (On main 6d0b5e0 all of these were allowed.)
"""

from __future__ import annotations

import uuid

import grpc
from google.protobuf.message import Message

from agenda.agent.v1 import agent_service_pb2 as agent_pb
from agenda_kit.errors import details_of
from tests.security.channels import ChannelSide, channel_side
from tests.security.principals import Metadata, Principals
from tests.security.stack import SecurityStack

pytest_plugins = ["tests.security.matrix_setup"]
WHATSAPP, WEBCHAT = "gateway-a-whatsapp", "gateway-a webchat (JWT)"
Code = grpc.StatusCode


def _conversation_calls(tenant: str, conversation: str) -> dict[str, Message]:
    return {
        "GetConversation": agent_pb.GetConversationRequest(
            tenant_id=tenant, conversation_id=conversation
        ),
        "HandOff": agent_pb.HandOffRequest(
            tenant_id=tenant, conversation_id=conversation, reason="x"
        ),
        "HandBack": agent_pb.HandBackRequest(tenant_id=tenant, conversation_id=conversation),
        "EndConversation": agent_pb.EndConversationRequest(
            tenant_id=tenant, conversation_id=conversation
        ),
    }


async def _answer(
    stack: SecurityStack, name: str, request: Message, metadata: Metadata
) -> tuple[object, ...]:
    try:
        await getattr(stack.agent, name)(request, metadata=metadata)
    except grpc.aio.AioRpcError as error:
        return error.code(), _without_ids(error.details() or "", request), details_of(error)
    return (Code.OK,)


def _without_ids(text: str, request: Message) -> str:
    conversation = getattr(request, "conversation_id", "")
    return text.replace(conversation, "<id>") if conversation else text


async def test_another_channels_conversation_is_not_found(
    matrix_stack: tuple[SecurityStack, Principals],
) -> None:
    stack, principals = matrix_stack
    side = await channel_side(stack)
    a = stack.tenants["A"].id
    for who, theirs, other in ((WHATSAPP, "whatsapp", "webchat"), (WEBCHAT, "webchat", "whatsapp")):
        auth = principals.metadata(who)
        for name, request in _conversation_calls(a, side.conversations[other]).items():
            absent = _conversation_calls(a, str(uuid.uuid4()))[name]
            got, want = (
                await _answer(stack, name, request, auth),
                await _answer(stack, name, absent, auth),
            )
            assert got == want and got[0] is Code.NOT_FOUND, (who, name, got)
        own = _conversation_calls(a, side.conversations[theirs])["GetConversation"]
        assert await _answer(stack, "GetConversation", own, auth) == (Code.OK,)


async def _stream(stack: SecurityStack, metadata: Metadata) -> list[agent_pb.OutboxMessage]:
    request = agent_pb.StreamOutboxRequest(tenant_id=stack.tenants["A"].id)
    return [reply.message async for reply in stack.agent.StreamOutbox(request, metadata=metadata)]


async def test_outbox_is_streamed_and_acked_per_channel(
    matrix_stack: tuple[SecurityStack, Principals],
) -> None:
    stack, principals = matrix_stack
    side: ChannelSide = await channel_side(stack)
    webchat_message = await side.outbox_message(stack, "webchat")
    whatsapp_message = await side.outbox_message(stack, "whatsapp")
    whatsapp, webchat = principals.metadata(WHATSAPP), principals.metadata(WEBCHAT)
    seen = await _stream(stack, whatsapp)
    assert {m.customer.channel for m in seen} == {"whatsapp"}
    assert whatsapp_message in {m.id for m in seen}
    a = stack.tenants["A"].id
    acked = await stack.agent.AckOutbox(
        agent_pb.AckOutboxRequest(tenant_id=a, message_ids=[webchat_message, whatsapp_message]),
        metadata=whatsapp,
    )
    assert acked.acknowledged == 1  # its own; the webchat one is not its to acknowledge
    delivered = await _stream(stack, webchat)
    assert {m.customer.channel for m in delivered} == {"webchat"}
    assert webchat_message in {m.id for m in delivered}  # not lost
