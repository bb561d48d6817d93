"""What a gateway sees over gRPC (issue 23), on the real stack: the calendar service and agent
replicas on one embedded MongoDB, the agent reaching the calendar through its gRPC client.

- a call that gives up (its deadline passes) leaves its turn running under the turn's own
  budget; the retry of the same message id waits or says MESSAGE_IN_PROGRESS, then gets the
  real answer, and the booking goes through;
- a burst of three messages sent to two replicas while the first turn runs gets ONE reply,
  and every message id is answered;
- the same message id with other text is ALREADY_EXISTS (MESSAGE_ID_REUSED), nothing runs;
- the same message id from another customer is ALREADY_EXISTS (MESSAGE_ID_TAKEN) whatever its
  text, while the first delivery's turn is still inside the model too.

The model is the offline one behind a gate the test opens: the turn is inside the model while
the test acts, so every ordering is an event, never a time.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import grpc
import pytest

from agenda.agent.v1 import agent_service_pb2 as pb
from agenda.agent.v1 import agent_service_pb2_grpc as pb_grpc
from agenda.agent.v1 import types_pb2 as types
from agenda_kit.errors import details_of
from agenda_kit.mongo import EmbeddedMongo
from agent_service.bootstrap import Overrides
from tests.agent_service.integration.agent_fixtures import (
    AUTH,
    Customer,
    Gate,
    agent_stack,
    agent_stub,
    booking_day,
    booking_request_text,
    channel_to,
    local_instant,
    seed_demo_salon,
    until_waiting,
)

pytest_plugins = ["tests.kit.mongo_fixtures"]
Code = grpc.StatusCode


async def test_a_call_that_gives_up_gets_the_real_booking_when_it_retries(
    embedded_mongo: EmbeddedMongo, tmp_path: Path
) -> None:
    gate = Gate()
    day = booking_day()
    async with agent_stack(embedded_mongo, tmp_path, replicas=0) as stack:
        app = await stack.start_replica(Overrides(model=gate.model()))
        async with channel_to(app.port) as channel:
            maria = Customer(agent_stub(channel), await seed_demo_salon(channel))
            asked = maria.request(booking_request_text(day, "16:00"), "wamid-ask")
            gate.close()
            call = asyncio.ensure_future(maria.stub.SendMessage(asked, metadata=AUTH, timeout=2))
            await asyncio.wait_for(gate.entered.wait(), 30)  # the turn is in the model
            with pytest.raises(grpc.aio.AioRpcError) as gave_up:
                await call
            assert gave_up.value.code() is Code.DEADLINE_EXCEEDED
            # Its retry, while the turn runs: told to come back, with a retry hint.
            with pytest.raises(grpc.aio.AioRpcError) as busy:
                await maria.stub.SendMessage(asked, metadata=AUTH, timeout=1)
            assert busy.value.code() is Code.UNAVAILABLE, busy.value.details()
            details = details_of(busy.value)
            assert details.reason == "MESSAGE_IN_PROGRESS" and details.retry_delay
            gate.opened.set()
            # The turn finished under its own budget: the calendar was asked, for real.
            proposal = await maria.stub.SendMessage(asked, metadata=AUTH, timeout=60)
            assert proposal.duplicate
            assert "Confirma" in proposal.reply and "indisponível" not in proposal.reply
            assert proposal.pending.kind == types.ACTION_KIND_APPOINTMENT_BOOKED
            maria.conversation_id = proposal.conversation_id
            booked = await maria.say("sim", "wamid-yes")
    (action,) = booked.actions
    assert action.kind == types.ACTION_KIND_APPOINTMENT_BOOKED
    assert action.appointment.start.ToDatetime().timestamp() == (
        local_instant(day, "16:00").timestamp()
    )


async def test_a_burst_sent_to_two_replicas_gets_one_reply_and_every_id_an_answer(
    embedded_mongo: EmbeddedMongo, tmp_path: Path
) -> None:
    gate = Gate()
    day = booking_day()
    said = [
        ("w1", "Quero agendar"),
        ("w2", "corte feminino"),
        ("w3", f"com a Ana dia {day:%d/%m} às 16:00"),
    ]
    async with agent_stack(embedded_mongo, tmp_path, replicas=0) as stack:
        first = await stack.start_replica(Overrides(model=gate.model()))
        second = await stack.start_replica(Overrides(model=gate.model()))
        async with channel_to(first.port) as one, channel_to(second.port) as other:
            maria = Customer(agent_stub(one), await seed_demo_salon(one))
            stubs = [agent_stub(one), agent_stub(other), agent_stub(one)]
            gate.close()
            calls = []
            for sent, (stub, (message_id, text)) in enumerate(zip(stubs, said, strict=True)):
                request = maria.request(text, message_id)
                calls.append(asyncio.ensure_future(stub.SendMessage(request, metadata=AUTH)))
                # in this order: each one is in the lane before the next is sent
                await until_waiting(first, maria.tenant_id, maria.external_id, sent + 1)
                await asyncio.wait_for(gate.entered.wait(), 30)  # the first turn runs
            gate.opened.set()
            replies: list[pb.SendMessageResponse] = await asyncio.gather(*calls)
            conversation = await maria.stub.GetConversation(
                pb.GetConversationRequest(
                    tenant_id=maria.tenant_id, conversation_id=replies[2].conversation_id
                ),
                metadata=AUTH,
            )
    covered, covered_too, answer = replies
    assert list(answer.answered_message_ids) == ["w1", "w2", "w3"]
    assert "Confirma" in answer.reply and "16:00" in answer.reply, answer.reply
    assert answer.pending.kind == types.ACTION_KIND_APPOINTMENT_BOOKED
    for reply in (covered, covered_too):
        assert reply.reply == "" and reply.covered_by_message_id == "w3"
        assert reply.conversation_id == answer.conversation_id
    messages = [(m.role, m.message_id) for m in conversation.conversation.messages]
    assert messages == [
        ("customer", "w1"),
        ("customer", "w2"),
        ("customer", "w3"),
        ("assistant", ""),
    ]


async def test_a_message_id_reused_for_other_text_is_already_exists_and_runs_nothing(
    embedded_mongo: EmbeddedMongo, tmp_path: Path
) -> None:
    async with (
        agent_stack(embedded_mongo, tmp_path) as stack,
        channel_to(stack.replicas[0].port) as channel,
    ):
        maria = Customer(agent_stub(channel), await seed_demo_salon(channel))
        first = await maria.say("Qual é o endereço?", "wamid-1")
        with pytest.raises(grpc.aio.AioRpcError) as reused:
            await maria.say("Quero cancelar meu horário", "wamid-1")
        again = await maria.say("Qual é o endereço?", "wamid-1")
        stream = maria.stub.StreamMessage(
            pb.StreamMessageRequest(message=maria.request("Oi!", "wamid-1")), metadata=AUTH
        )
        with pytest.raises(grpc.aio.AioRpcError) as streamed:
            async for _ in stream:
                pass
        conversation = await maria.stub.GetConversation(
            pb.GetConversationRequest(
                tenant_id=maria.tenant_id, conversation_id=first.conversation_id
            ),
            metadata=AUTH,
        )
    for refused in (reused.value, streamed.value):
        assert refused.code() is Code.ALREADY_EXISTS
        assert details_of(refused).reason == "MESSAGE_ID_REUSED"
    assert again.duplicate and again.reply == first.reply
    assert [m.role for m in conversation.conversation.messages] == ["customer", "assistant"]


async def refused(stub: pb_grpc.AgentServiceAsyncStub, request: pb.SendMessageRequest) -> str:
    """The ErrorInfo reason of a SendMessage that must be ALREADY_EXISTS."""
    with pytest.raises(grpc.aio.AioRpcError) as error:
        await stub.SendMessage(request, metadata=AUTH, timeout=30)
    assert error.value.code() is Code.ALREADY_EXISTS, error.value.details()
    return details_of(error.value).reason


async def test_a_message_id_is_its_first_senders_while_its_turn_still_runs(
    embedded_mongo: EmbeddedMongo, tmp_path: Path
) -> None:
    """Review g15, V5: with the first turn held inside the model, the same id from another
    customer answered MESSAGE_ID_REUSED (same text or other); it is MESSAGE_ID_TAKEN, as after
    the turn ended. Each text is a held turn of its own."""
    gate = Gate()
    texts = [booking_request_text(booking_day(), "16:00"), "Qual é o endereço?", "oi"]
    async with agent_stack(embedded_mongo, tmp_path, replicas=0) as stack:
        app = await stack.start_replica(Overrides(model=gate.model()))
        async with channel_to(app.port) as channel:
            maria = Customer(agent_stub(channel), await seed_demo_salon(channel))
            ana = Customer(maria.stub, maria.tenant_id)
            for n, text in enumerate(texts):
                message_id, changed = f"wamid.{n}", f"{text} (outro)"
                gate.close()
                first = asyncio.ensure_future(
                    maria.stub.SendMessage(maria.request(text, message_id), metadata=AUTH)
                )
                await asyncio.wait_for(gate.entered.wait(), 30)  # the turn is in the model
                for again in (text, changed):
                    reason = await refused(ana.stub, ana.request(again, message_id))
                    assert reason == "MESSAGE_ID_TAKEN", (text, again)
                reason = await refused(maria.stub, maria.request(changed, message_id))
                assert reason == "MESSAGE_ID_REUSED", text
                redelivery = asyncio.ensure_future(
                    maria.stub.SendMessage(maria.request(text, message_id), metadata=AUTH)
                )
                gate.opened.set()
                answered, redelivered = await asyncio.gather(first, redelivery)
                assert redelivered.duplicate and redelivered.reply == answered.reply
                for again in (text, changed):  # and once the turn ended
                    reason = await refused(ana.stub, ana.request(again, message_id))
                    assert reason == "MESSAGE_ID_TAKEN", (text, again)
