"""A customer's messages are answered in the order they arrived, however the lane was taken.

A message can wait in its lane while nobody holds it: its holder gave the lane up (or died)
before this message's delivery told it, and that delivery takes the lane over only at its next
look. A newer message arriving then takes the free lane at once. Its turn must answer the
older message first (here: with it, in one burst), never its own message alone ahead of it
(found by the attacker review: 3/120 answered out of order). The state is set up in the
store, so the test waits on no timing.
"""

from __future__ import annotations

from pathlib import Path
from uuid import UUID

from agenda.agent.v1 import agent_service_pb2 as pb
from agenda_kit.mongo import EmbeddedMongo
from agent_service.application.bursts import Joined, LaneKey
from agent_service.application.conversation import _queued, request_digest
from agent_service.application.incoming import IncomingMessage, customer_ref
from tests.agent_service.integration.agent_fixtures import (
    AUTH,
    Customer,
    agent_stack,
    agent_stub,
    channel_to,
    seed_demo_salon,
)

pytest_plugins = ["tests.kit.mongo_fixtures"]


async def test_a_newer_message_taking_a_free_lane_answers_the_older_waiting_one_first(
    embedded_mongo: EmbeddedMongo, tmp_path: Path
) -> None:
    async with agent_stack(embedded_mongo, tmp_path) as stack:
        (app,) = stack.replicas
        async with channel_to(app.port) as channel:
            maria = Customer(agent_stub(channel), await seed_demo_salon(channel))
            await maria.say("Oi", "first")
            older = IncomingMessage(
                tenant_id=UUID(maria.tenant_id),
                channel=maria.channel,
                external_id=maria.external_id,
                display_name="Maria",
                conversation_id=UUID(maria.conversation_id),
                message_id="older",
                text="Quais serviços vocês têm?",
            )
            lane = LaneKey(older.tenant_id, older.channel, customer_ref(older))
            # The older message is claimed and in its lane, with nobody holding the lane.
            lanes = app.repos.lanes
            assert await lanes.claim(lane, _queued(older), request_digest(older)) is Joined.HOLDING
            await lanes.release(lane, "older")
            reply = await maria.say("Qual é o endereço?", "newer")
            conversation = await maria.stub.GetConversation(
                pb.GetConversationRequest(
                    tenant_id=maria.tenant_id, conversation_id=maria.conversation_id
                ),
                metadata=AUTH,
            )
            said = [m.message_id for m in conversation.conversation.messages if m.message_id]
            assert said == ["first", "older", "newer"]
            assert list(reply.answered_message_ids) == ["older", "newer"]
            retried = await maria.say(older.text, "older")  # its delivery looks again
    assert retried.duplicate and retried.covered_by_message_id == "newer"
