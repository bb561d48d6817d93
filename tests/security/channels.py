"""Tenant A's data on two channels, for the channel dimension of the authorization tests: a
conversation on each channel (the seeded whatsapp one and a webchat one) and due outbox
messages addressed to each channel's customer."""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from datetime import timedelta
from uuid import UUID

from agenda.agent.v1 import agent_service_pb2 as agent_pb
from agent_service.domain.outbox import OutboxKind, OutboxMessage
from tests.security.stack import AGENT_AUTH, SecurityStack, at

CHANNELS = ("whatsapp", "webchat")
CHANNEL_OF = {"gateway-a-whatsapp": frozenset({"whatsapp"})}
"""Principal column → the channels it may act on (absent: every channel)."""


@dataclass
class ChannelSide:
    """Tenant A's conversation and customer on each channel."""

    conversations: dict[str, str] = field(default_factory=dict)
    customers: dict[str, tuple[str, str]] = field(default_factory=dict)  # → (id, external)

    async def outbox_message(self, stack: SecurityStack, channel: str) -> str:
        """A new due, unacknowledged outbox message of tenant A on ``channel``."""
        customer_id, external_id = self.customers[channel]
        message = OutboxMessage(
            id=uuid.uuid4(),
            tenant_id=UUID(stack.tenants["A"].id),
            kind=OutboxKind.BOOKING_CONFIRMED,
            customer_id=UUID(customer_id),
            channel=channel,
            external_id=external_id,
            text=f"{channel} notice",
            deliver_at=at(stack.day, 0) - timedelta(days=30),
        )
        await stack.repos.outbox.add(message)
        return str(message.id)


async def channel_side(stack: SecurityStack) -> ChannelSide:
    a = stack.tenants["A"]
    side = ChannelSide()
    side.conversations["whatsapp"] = a.conversations[0]
    side.customers["whatsapp"] = (a.customers[0], a.identities[0][1])
    external = f"web-{uuid.uuid4().hex[:10]}"
    reply = await stack.agent.SendMessage(
        agent_pb.SendMessageRequest(
            tenant_id=a.id,
            customer=agent_pb.CustomerIdentity(channel="webchat", external_id=external),
            message_id=uuid.uuid4().hex,
            text="Oi, quais serviços vocês têm?",
        ),
        metadata=AGENT_AUTH,
    )
    side.conversations["webchat"] = reply.conversation_id
    got = await stack.agent.GetConversation(
        agent_pb.GetConversationRequest(tenant_id=a.id, conversation_id=reply.conversation_id),
        metadata=AGENT_AUTH,
    )
    side.customers["webchat"] = (got.conversation.customer_id, external)
    return side
