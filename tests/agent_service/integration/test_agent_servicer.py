"""The AgentService over gRPC, wired by ``bootstrap`` exactly as in production: Beanie on the
embedded MongoDB, the real calendar service (local backend) behind the real gRPC calendar
client, the offline model. Conversations in Portuguese, as a WhatsApp gateway would send them.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

import grpc
import pytest
from google.protobuf.timestamp_pb2 import Timestamp
from grpc_health.v1 import health_pb2, health_pb2_grpc

from agenda.agent.v1 import agent_service_pb2 as pb
from agenda.agent.v1 import catalog_service_pb2 as catalog_pb
from agenda.agent.v1 import types_pb2 as types
from agenda.calendar.v1 import calendar_service_pb2 as calendar_pb
from agenda_kit.mongo import EmbeddedMongo
from agent_service.domain.conversations import MAX_MESSAGE_CHARS
from tests.agent_service.integration.agent_fixtures import (
    ANA_CALENDAR,
    AUTH,
    CALENDAR_AUTH,
    AgentStack,
    Customer,
    agent_stack,
    agent_stub,
    booking_day,
    booking_request_text,
    calendar_stub,
    catalog_stub,
    channel_to,
    day_range,
    local_instant,
    seed_demo_salon,
)

pytest_plugins = ["tests.kit.mongo_fixtures"]

BOOKED = types.ACTION_KIND_APPOINTMENT_BOOKED
ACTIVE = types.CONVERSATION_STATUS_ACTIVE
HANDED_OFF = types.CONVERSATION_STATUS_HANDED_OFF
ENDED = types.CONVERSATION_STATUS_ENDED


@dataclass
class Salon:
    """The stack with the demo salon seeded and channels to both services."""

    stack: AgentStack
    tenant_id: str
    agent: grpc.aio.Channel
    calendar: grpc.aio.Channel

    def customer(self, external_id: str | None = None) -> Customer:
        customer = Customer(agent_stub(self.agent), self.tenant_id)
        if external_id is not None:
            customer.external_id = external_id
        return customer

    async def appointments(
        self, channel: grpc.aio.Channel | None = None
    ) -> list[types.Appointment]:
        reply = await catalog_stub(channel or self.agent).ListAppointments(
            catalog_pb.ListAppointmentsRequest(tenant_id=self.tenant_id), metadata=AUTH
        )
        return list(reply.appointments)

    async def events(self, day: date) -> list[calendar_pb.Event]:
        start, end = day_range(day)
        time_range = calendar_pb.TimeRange(start=_ts(start), end=_ts(end))
        reply = await calendar_stub(self.calendar).ListEvents(
            calendar_pb.ListEventsRequest(calendar_id=ANA_CALENDAR, range=time_range),
            metadata=CALENDAR_AUTH,
        )
        return list(reply.events)


def _ts(value: Any) -> Timestamp:
    stamp = Timestamp()
    stamp.FromDatetime(value)
    return stamp


@pytest.fixture
async def salon(embedded_mongo: EmbeddedMongo, tmp_path: Path) -> AsyncIterator[Salon]:
    async with (
        agent_stack(embedded_mongo, tmp_path) as stack,
        channel_to(stack.replicas[0].port) as agent,
        channel_to(stack.calendar.port) as calendar,
    ):
        tenant_id = await seed_demo_salon(agent)
        yield Salon(stack, tenant_id, agent, calendar)


async def expect_code(call: Any, code: grpc.StatusCode) -> str:
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await call
    assert caught.value.code() == code, (caught.value.code(), caught.value.details())
    return caught.value.details() or ""


async def ask_to_book(customer: Customer, day: date, at: str = "10:00") -> pb.SendMessageResponse:
    asked = await customer.say(booking_request_text(day, at))
    assert "Confirma" in asked.reply, asked.reply
    assert not asked.actions
    return asked


def booked_appointment(reply: pb.SendMessageResponse) -> types.Appointment:
    assert "Agendado" in reply.reply, reply.reply
    (action,) = reply.actions
    assert action.kind == BOOKED
    return action.appointment


async def test_books_in_portuguese_after_confirmation(salon: Salon) -> None:
    customer, day = salon.customer(), booking_day()
    hello = await customer.say("Olá!")
    assert hello.reply and hello.trace_id and hello.status == ACTIVE
    asked = await ask_to_book(customer, day)
    assert asked.conversation_id == hello.conversation_id
    assert await salon.appointments() == [] and await salon.events(day) == []

    done = await customer.say("sim")
    assert done.conversation_id == hello.conversation_id
    assert done.trace_id and done.trace_id not in {hello.trace_id, asked.trace_id}
    assert done.specialist == "booking" and not done.duplicate
    appointment = booked_appointment(done)
    assert appointment.status == types.APPOINTMENT_STATUS_CONFIRMED
    assert appointment.tenant_id == salon.tenant_id and appointment.calendar_id == ANA_CALENDAR
    assert appointment.start.ToDatetime().timestamp() == local_instant(day, "10:00").timestamp()
    assert appointment.end.seconds - appointment.start.seconds == 45 * 60
    assert appointment.service_name == "Corte feminino" and appointment.external_event_id

    assert [a.id for a in await salon.appointments()] == [appointment.id]
    (event,) = await salon.events(day)
    assert event.event_id == appointment.external_event_id
    assert event.idempotency_key == appointment.id
    assert event.time.start == appointment.start and event.time.end == appointment.end
    assert event.status == "confirmed"


async def test_redelivered_message_gets_the_same_reply_and_books_once(salon: Salon) -> None:
    customer, day = salon.customer(), booking_day()
    await ask_to_book(customer, day)
    first = await customer.say("sim", message_id="wamid.confirm-1")
    again = await customer.say("sim", message_id="wamid.confirm-1")
    assert not first.duplicate and again.duplicate
    assert again.reply == first.reply and again.trace_id == first.trace_id
    assert again.conversation_id == first.conversation_id
    assert booked_appointment(again) == booked_appointment(first)
    assert len(await salon.appointments()) == 1
    assert len(await salon.events(day)) == 1


async def test_concurrent_deliveries_of_one_message_book_once(salon: Salon) -> None:
    customer, day = salon.customer(), booking_day()
    await ask_to_book(customer, day)
    replies = await asyncio.gather(
        *(customer.say("sim", message_id="wamid.storm") for _ in range(10))
    )
    assert sum(not r.duplicate for r in replies) == 1
    assert {r.reply for r in replies} == {replies[0].reply}
    assert {r.trace_id for r in replies} == {replies[0].trace_id}
    assert {booked_appointment(r).id for r in replies} == {booked_appointment(replies[0]).id}
    assert len(await salon.appointments()) == 1
    assert len(await salon.events(day)) == 1


async def test_stream_message_reports_progress_then_text_then_the_final_response(
    salon: Salon,
) -> None:
    customer, day = salon.customer(), booking_day()
    await ask_to_book(customer, day)
    stream = customer.stub.StreamMessage(
        pb.StreamMessageRequest(message=customer.request("sim")), metadata=AUTH, timeout=60
    )
    events = [event async for event in stream]
    kinds = [event.WhichOneof("event") for event in events]
    assert kinds[-1] == "final" and kinds.count("final") == 1
    first_text = kinds.index("text_delta")
    assert set(kinds[:first_text]) == {"progress"}
    assert set(kinds[first_text:-1]) == {"text_delta"}
    progress = [event.progress for event in events if event.WhichOneof("event") == "progress"]
    assert progress[:3] == ["accepted", "prepare", "route"], progress
    assert "specialist:booking" in progress
    assert any(stage.startswith("tool:") for stage in progress), progress
    final = events[-1].final
    assert "".join(event.text_delta for event in events[first_text:-1]) == final.reply
    assert final.conversation_id == customer.conversation_id and final.trace_id
    booked_appointment(final)
    assert len(await salon.events(day)) == 1


async def test_get_conversation_returns_the_messages(salon: Salon) -> None:
    customer = salon.customer()
    hello = await customer.say("Olá!", message_id="m-1")
    services = await customer.say("Quais serviços vocês têm?", message_id="m-2")
    assert "Corte feminino" in services.reply
    reply = await customer.stub.GetConversation(
        pb.GetConversationRequest(tenant_id=salon.tenant_id, conversation_id=hello.conversation_id),
        metadata=AUTH,
    )
    conversation = reply.conversation
    assert conversation.id == hello.conversation_id and conversation.channel == "whatsapp"
    assert conversation.status == ACTIVE and conversation.tenant_id == salon.tenant_id
    assert [(m.role, m.text, m.message_id) for m in conversation.messages] == [
        ("customer", "Olá!", "m-1"),
        ("assistant", hello.reply, ""),
        ("customer", "Quais serviços vocês têm?", "m-2"),
        ("assistant", services.reply, ""),
    ]
    latest = await customer.stub.GetConversation(
        pb.GetConversationRequest(
            tenant_id=salon.tenant_id, conversation_id=hello.conversation_id, message_limit=1
        ),
        metadata=AUTH,
    )
    assert [m.text for m in latest.conversation.messages] == [services.reply]


async def test_hand_off_silences_the_bot_until_handed_back(salon: Salon) -> None:
    customer = salon.customer()
    hello = await customer.say("Olá!")
    tenant_id, conversation_id = salon.tenant_id, hello.conversation_id
    handed = await customer.stub.HandOff(
        pb.HandOffRequest(
            tenant_id=tenant_id, conversation_id=conversation_id, reason="cliente VIP"
        ),
        metadata=AUTH,
    )
    assert handed.conversation.status == HANDED_OFF
    assert handed.conversation.handoff_reason == "cliente VIP"

    quiet = await customer.say("Alguém aí?")
    assert quiet.reply == "" and quiet.status == HANDED_OFF and quiet.specialist == "human"
    assert quiet.conversation_id == hello.conversation_id
    stored = await customer.stub.GetConversation(
        pb.GetConversationRequest(tenant_id=tenant_id, conversation_id=conversation_id),
        metadata=AUTH,
    )
    assert stored.conversation.messages[-1].text == "Alguém aí?"
    assert stored.conversation.messages[-1].role == "customer"

    back = await customer.stub.HandBack(
        pb.HandBackRequest(
            tenant_id=tenant_id, conversation_id=conversation_id, note="Resolvido com a gerente."
        ),
        metadata=AUTH,
    )
    assert back.conversation.status == ACTIVE
    assert back.conversation.messages[-1].role == "human"
    answered = await customer.say("Quais serviços vocês têm?")
    assert answered.status == ACTIVE and "Corte feminino" in answered.reply
    assert answered.conversation_id == hello.conversation_id


async def test_ended_conversation_is_followed_by_a_new_one(salon: Salon) -> None:
    customer = salon.customer()
    first = await customer.say("Olá!")
    ended = await customer.stub.EndConversation(
        pb.EndConversationRequest(tenant_id=salon.tenant_id, conversation_id=first.conversation_id),
        metadata=AUTH,
    )
    assert ended.conversation.status == ENDED
    with_old_id = await customer.say("Olá de novo")
    assert with_old_id.conversation_id not in {"", first.conversation_id}
    assert with_old_id.status == ACTIVE and with_old_id.reply
    customer.conversation_id = ""
    open_one = await customer.say("Quais serviços vocês têm?")
    assert open_one.conversation_id == with_old_id.conversation_id


def _bad_send_messages(customer: Customer) -> list[tuple[str, pb.SendMessageRequest]]:
    """(the field the INVALID_ARGUMENT details must name, request)."""
    bad_tenant = customer.request("Olá")
    bad_tenant.tenant_id = "not-a-uuid"
    empty = customer.request("")
    blank = customer.request("   \n")
    too_long = customer.request("a" * (MAX_MESSAGE_CHARS + 1))
    bad_channel = customer.request("Olá")
    bad_channel.customer.channel = "WhatsApp!"
    no_customer = customer.request("Olá")
    no_customer.customer.external_id = ""
    no_message_id = customer.request("Olá")
    no_message_id.message_id = ""
    bad_conversation = customer.request("Olá")
    bad_conversation.conversation_id = "42"
    return [
        ("tenant_id", bad_tenant),
        ("text", empty),
        ("text", blank),
        ("text", too_long),
        ("customer.channel", bad_channel),
        ("customer.external_id", no_customer),
        ("message_id", no_message_id),
        ("conversation_id", bad_conversation),
    ]


async def test_bad_input_is_invalid_argument_naming_the_field(salon: Salon) -> None:
    customer = salon.customer()
    assert MAX_MESSAGE_CHARS == 4000
    longest = await customer.say("a" * MAX_MESSAGE_CHARS)
    assert longest.reply
    for field, request in _bad_send_messages(customer):
        details = await expect_code(
            customer.stub.SendMessage(request, metadata=AUTH), grpc.StatusCode.INVALID_ARGUMENT
        )
        assert field in details, (field, details)
    stream = customer.stub.StreamMessage(
        pb.StreamMessageRequest(message=customer.request("")), metadata=AUTH
    )
    details = await expect_code(stream.read(), grpc.StatusCode.INVALID_ARGUMENT)
    assert "text" in details
    details = await expect_code(
        customer.stub.GetConversation(
            pb.GetConversationRequest(tenant_id=salon.tenant_id, conversation_id="x"),
            metadata=AUTH,
        ),
        grpc.StatusCode.INVALID_ARGUMENT,
    )
    assert "conversation_id" in details
    details = await expect_code(
        customer.stub.GetConversation(
            pb.GetConversationRequest(
                tenant_id=salon.tenant_id,
                conversation_id=customer.conversation_id,
                message_limit=1001,
            ),
            metadata=AUTH,
        ),
        grpc.StatusCode.INVALID_ARGUMENT,
    )
    assert "message_limit" in details


async def test_unknown_tenant_and_foreign_conversation_are_not_found(salon: Salon) -> None:
    maria, joao = salon.customer("5511900000001"), salon.customer("5511900000002")
    stranger = Customer(maria.stub, str(uuid.uuid4()))
    await expect_code(
        stranger.stub.SendMessage(stranger.request("Olá"), metadata=AUTH),
        grpc.StatusCode.NOT_FOUND,
    )
    marias = await maria.say("Olá!")
    joao.conversation_id = marias.conversation_id
    await expect_code(
        joao.stub.SendMessage(joao.request("Quais são meus agendamentos?"), metadata=AUTH),
        grpc.StatusCode.NOT_FOUND,
    )
    await expect_code(
        maria.stub.GetConversation(
            pb.GetConversationRequest(tenant_id=salon.tenant_id, conversation_id=str(uuid.uuid4())),
            metadata=AUTH,
        ),
        grpc.StatusCode.NOT_FOUND,
    )
    other_tenant = await seed_other_tenant(salon)
    await expect_code(
        maria.stub.GetConversation(
            pb.GetConversationRequest(
                tenant_id=other_tenant, conversation_id=marias.conversation_id
            ),
            metadata=AUTH,
        ),
        grpc.StatusCode.NOT_FOUND,
    )


async def seed_other_tenant(salon: Salon) -> str:
    created = await catalog_stub(salon.agent).CreateTenant(
        catalog_pb.CreateTenantRequest(
            tenant=catalog_pb.Tenant(name="Outro", time_zone="America/Recife", locale="pt-BR")
        ),
        metadata=AUTH,
    )
    tenant_id: str = created.tenant.id
    return tenant_id


@pytest.mark.parametrize("metadata", [(), (("authorization", "Bearer wrong"),)])
async def test_every_rpc_needs_a_token_but_health(
    salon: Salon, metadata: tuple[tuple[str, str], ...]
) -> None:
    customer = salon.customer()
    await expect_code(
        customer.stub.SendMessage(customer.request("Olá"), metadata=metadata),
        grpc.StatusCode.UNAUTHENTICATED,
    )
    stream = customer.stub.StreamMessage(
        pb.StreamMessageRequest(message=customer.request("Olá")), metadata=metadata
    )
    await expect_code(stream.read(), grpc.StatusCode.UNAUTHENTICATED)
    await expect_code(
        customer.stub.HandOff(
            pb.HandOffRequest(tenant_id=salon.tenant_id, conversation_id=str(uuid.uuid4())),
            metadata=metadata,
        ),
        grpc.StatusCode.UNAUTHENTICATED,
    )
    health = health_pb2_grpc.HealthStub(salon.agent)
    status = await health.Check(
        health_pb2.HealthCheckRequest(service="agenda.agent.v1.AgentService"), metadata=metadata
    )
    assert status.status == health_pb2.HealthCheckResponse.SERVING


async def test_any_replica_continues_any_conversation_and_restarts_lose_nothing(
    salon: Salon,
) -> None:
    stack, day = salon.stack, booking_day()
    first = stack.replicas[0]
    second = await stack.start_replica()
    customer = salon.customer()
    asked = await ask_to_book(customer, day)  # replica 1
    async with channel_to(second.port) as replica_two:
        done = await customer.say("sim", message_id="wamid.sim", stub=agent_stub(replica_two))
        appointment = booked_appointment(done)
        assert done.conversation_id == asked.conversation_id
        again = await customer.say("sim", message_id="wamid.sim")  # back on replica 1
        assert again.duplicate and again.reply == done.reply
        assert [a.id for a in await salon.appointments(replica_two)] == [appointment.id]

    await stack.stop_replica(second)
    await stack.stop_replica(first)
    restarted = await stack.start_replica()
    async with channel_to(restarted.port) as channel:
        customer.stub = agent_stub(channel)
        after = await customer.say("sim", message_id="wamid.sim")
        assert after.duplicate and after.reply == done.reply
        assert booked_appointment(after).id == appointment.id
        listing = await customer.say("Quais são meus agendamentos?")
        assert listing.conversation_id == asked.conversation_id
        assert "Corte feminino" in listing.reply, listing.reply
        conversation = await customer.stub.GetConversation(
            pb.GetConversationRequest(
                tenant_id=salon.tenant_id, conversation_id=asked.conversation_id
            ),
            metadata=AUTH,
        )
        texts = [m.text for m in conversation.conversation.messages]
        assert texts == [
            booking_request_text(day),
            asked.reply,
            "sim",
            done.reply,
            "Quais são meus agendamentos?",
            listing.reply,
        ]
        assert [a.id for a in await salon.appointments(channel)] == [appointment.id]
    assert len(await salon.events(day)) == 1


async def test_a_second_booking_of_the_same_slot_is_refused(salon: Salon) -> None:
    maria, joao, day = salon.customer(), salon.customer(), booking_day()
    await ask_to_book(maria, day)
    booked_appointment(await maria.say("sim"))
    asked = await joao.say(booking_request_text(day))
    if "Confirma" in asked.reply:
        refused = await joao.say("sim")
        assert not refused.actions, refused.reply
    else:
        assert not asked.actions
    assert len(await salon.appointments()) == 1
    assert len(await salon.events(day)) == 1


async def test_the_demo_faq_answers_in_the_customers_language(salon: Salon) -> None:
    """The demo seed gives its FAQ English answers: an English customer reads English."""
    english = await salon.customer().say("Is there parking?")
    assert english.reply == "Yes, there is a partner car park at Rua das Flores, 130.", (
        english.reply
    )
    assert [c.question for c in english.citations] == ["Is there parking?"]
    portuguese = await salon.customer().say("Tem estacionamento?")
    assert portuguese.reply == "Sim, estacionamento conveniado na Rua das Flores, 130."
