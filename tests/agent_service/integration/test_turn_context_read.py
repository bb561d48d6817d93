"""``MongoTurnContextReader`` on the embedded MongoDB: the customer, their conversation, their
next confirmed appointments and their pending ones, in one aggregate, matching what the
repositories answer one query at a time."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any
from uuid import uuid4

import pytest

from agenda_kit.mongo import EmbeddedMongo
from agent_service.application.bursts import Completed, Joined, LaneKey, QueuedMessage
from agent_service.application.incoming import IncomingMessage, customer_ref
from agent_service.application.ports import AppointmentFilter
from agent_service.application.repositories import Repositories
from agent_service.application.senders import find_sender
from agent_service.application.turn_context import (
    PENDING_READ,
    SavingTurn,
    TurnContext,
    TurnContextReader,
)
from agent_service.domain.appointments import Appointment, AppointmentStatus
from agent_service.domain.catalog import Customer, Tenant
from agent_service.domain.conversations import Conversation, Message, Role, TurnResult
from agent_service.infrastructure.mongo.conversation_documents import ProcessedTurnDocument
from tests.agent_service.integration.repository_fixtures import LONG_AGO, beanie_repositories

pytest_plugins = ["tests.kit.mongo_fixtures"]

DAY = datetime(2031, 3, 10, 12, tzinfo=UTC)


@pytest.fixture
async def repos(embedded_mongo: EmbeddedMongo) -> AsyncIterator[Repositories]:
    async for repositories in beanie_repositories(embedded_mongo):
        yield repositories


def appointment(tenant: Tenant, customer: Customer, hours: int) -> Appointment:
    return Appointment.model_validate(
        {
            "tenant_id": tenant.id,
            "customer_id": customer.id,
            "professional_id": uuid4(),
            "service_id": uuid4(),
            "calendar_id": f"cal-{uuid4()}",
            "start": DAY + timedelta(hours=hours),
            "end": DAY + timedelta(hours=hours, minutes=30),
        }
    )


async def test_pending_bookings_come_with_the_turns_read_like_the_repository_lists_them(
    repos: Repositories,
) -> None:
    tenant = await repos.tenants.add(Tenant(name="Salão"))
    maria, _ = await repos.customers.upsert(
        Customer(tenant_id=tenant.id, channel="whatsapp", external_id="+5511999990000")
    )
    other, _ = await repos.customers.upsert(
        Customer(tenant_id=tenant.id, channel="whatsapp", external_id="+5511999990001")
    )
    hers = [appointment(tenant, maria, hours) for hours in (30, 2, 50, 4, 6, 8, 10)]
    for booked in hers:
        await repos.appointments.reserve(booked)  # stored pending (the saga's first step)
    confirmed = hers[0].moved_to(AppointmentStatus.CONFIRMED, external_event_id="evt-1")
    await repos.appointments.save(confirmed)
    await repos.appointments.reserve(appointment(tenant, other, 3))  # someone else's
    assert repos.turn_context is not None
    read = await repos.turn_context.read(tenant.id, "whatsapp", maria.external_id, None, DAY)
    assert read.upcoming is not None and read.upcoming.pending is not None
    listed, _ = await repos.appointments.list(
        tenant.id,
        AppointmentFilter(customer_id=maria.id, statuses=(AppointmentStatus.PENDING,)),
        page_size=PENDING_READ,
        page_token=None,
    )
    assert [a.id for a in read.upcoming.pending] == [a.id for a in listed]
    assert len(listed) == PENDING_READ  # six pending: the first five by start time
    assert [a.id for a in read.upcoming.appointments] == [confirmed.id]


class CountingReader:
    """The store's reader, with an event set at its ``reads``-th read."""

    def __init__(self, inner: TurnContextReader, reads: int) -> None:
        self.inner, self.reads, self.done = inner, reads, asyncio.Event()

    async def read(self, *args: Any, **kwargs: Any) -> TurnContext:
        self.reads -= 1
        if self.reads <= 0:
            self.done.set()
        return await self.inner.read(*args, **kwargs)


async def test_a_turn_that_gave_its_lane_up_before_its_save_is_waited_for_by_the_next_turn(
    repos: Repositories,
) -> None:
    tenant = await repos.tenants.add(Tenant(name="Salão"))
    maria, _ = await repos.customers.upsert(
        Customer(tenant_id=tenant.id, channel="whatsapp", external_id="+5511999990000")
    )
    first = IncomingMessage(
        tenant_id=tenant.id,
        channel="whatsapp",
        external_id=maria.external_id,
        display_name="",
        conversation_id=None,
        message_id="m1",
        text="oi",
    )
    lane = LaneKey(tenant.id, "whatsapp", customer_ref(first))
    said = QueuedMessage(message_id="m1", text="oi", external_id=maria.external_id)
    assert await repos.lanes.claim(lane, said, "d1") is Joined.HOLDING
    conversation = Conversation(tenant_id=tenant.id, customer_id=maria.id, channel="whatsapp")
    result = TurnResult(conversation_id=conversation.id, reply="Olá!")
    # The usual turn stores its reply and gives the lane up in one write, before the save.
    assert await repos.lanes.complete_alone(lane, "m1", result) is Completed.GIVEN_UP
    later = QueuedMessage(message_id="m2", text="corte", external_id=maria.external_id)
    assert await repos.lanes.claim(lane, later, "d2") is Joined.HOLDING
    assert repos.turn_context is not None
    read = await repos.turn_context.read(
        tenant.id, "whatsapp", maria.external_id, None, DAY, lane=lane.customer
    )
    assert read.saving == SavingTurn("m1", conversation.id)
    assert read.waiting == ("m2",)  # m1 has its outcome: only m2 waits in the lane
    # The next turn reads again until the first one's save shows: it sees that turn.
    counting = CountingReader(repos.turn_context, reads=2)
    waiting = replace(repos, turn_context=counting)
    second = replace(first, message_id="m2", text="corte")
    finding = asyncio.ensure_future(find_sender(waiting, second, lambda: DAY))
    reread = asyncio.ensure_future(counting.done.wait())
    await asyncio.wait({finding, reread}, return_when=asyncio.FIRST_COMPLETED)
    assert not finding.done()  # it read, found m1 unsaved and reads again
    saved = conversation.with_message(Message(role=Role.CUSTOMER, text="oi", message_id="m1"))
    await repos.conversations.save(saved)
    seen = (await finding).conversation
    assert seen.id == conversation.id and [m.message_id for m in seen.messages] == ["m1"]
    again = await repos.turn_context.read(
        tenant.id, "whatsapp", maria.external_id, None, DAY, lane=lane.customer
    )
    assert again.saving is not None and again.saving.shown_in(again.conversation)
    # Ended since: the next turn reads no open conversation, and the saving one holds m1.
    stored = await repos.conversations.get(tenant.id, conversation.id)
    await repos.conversations.save(stored.ended())
    fresh = (await find_sender(repos, replace(first, message_id="m3"), lambda: DAY)).conversation
    assert fresh.id != conversation.id and fresh.messages == ()


async def test_a_saving_turn_whose_lease_passed_is_not_waited_for(repos: Repositories) -> None:
    tenant = await repos.tenants.add(Tenant(name="Salão"))
    maria, _ = await repos.customers.upsert(
        Customer(tenant_id=tenant.id, channel="whatsapp", external_id="+5511999990000")
    )
    lane = LaneKey(tenant.id, "whatsapp", "ref")
    said = QueuedMessage(message_id="m1", text="oi", external_id=maria.external_id)
    assert await repos.lanes.claim(lane, said, "d1") is Joined.HOLDING
    result = TurnResult(conversation_id=uuid4(), reply="Olá!")
    assert await repos.lanes.complete_alone(lane, "m1", result) is Completed.GIVEN_UP
    claims = ProcessedTurnDocument.get_pymongo_collection()
    await claims.update_many({}, {"$set": {"saving_until": LONG_AGO}})  # its replica died
    assert repos.turn_context is not None
    read = await repos.turn_context.read(
        tenant.id, "whatsapp", maria.external_id, None, DAY, lane="ref"
    )
    assert read.saving is None


class SavesAfterFirstRead:
    """The store's reader; the saving turn's save lands right after the first read returned
    (that read is stale: it has no conversation with the message)."""

    def __init__(self, inner: TurnContextReader, save: Any) -> None:
        self.inner, self.save, self.reads = inner, save, 0

    async def read(self, *args: Any, **kwargs: Any) -> TurnContext:
        found = await self.inner.read(*args, **kwargs)
        self.reads += 1
        if self.reads == 1:
            await self.save()
        return found


async def test_a_save_that_lands_after_the_read_is_seen_by_reading_again(
    repos: Repositories,
) -> None:
    """The next turn's read came before the saving turn's save, which landed before the check:
    the turn reads again and goes on in that saved conversation (never a new, empty one)."""
    tenant = await repos.tenants.add(Tenant(name="Salão"))
    maria, _ = await repos.customers.upsert(
        Customer(tenant_id=tenant.id, channel="whatsapp", external_id="+5511999990001")
    )
    first = IncomingMessage(
        tenant_id=tenant.id,
        channel="whatsapp",
        external_id=maria.external_id,
        display_name="",
        conversation_id=None,
        message_id="m1",
        text="oi",
    )
    lane = LaneKey(tenant.id, "whatsapp", customer_ref(first))
    said = QueuedMessage(message_id="m1", text="oi", external_id=maria.external_id)
    assert await repos.lanes.claim(lane, said, "d1") is Joined.HOLDING
    conversation = Conversation(tenant_id=tenant.id, customer_id=maria.id, channel="whatsapp")
    result = TurnResult(conversation_id=conversation.id, reply="Olá!")
    assert await repos.lanes.complete_alone(lane, "m1", result) is Completed.GIVEN_UP
    saved = conversation.with_message(Message(role=Role.CUSTOMER, text="oi", message_id="m1"))
    assert repos.turn_context is not None
    reader = SavesAfterFirstRead(repos.turn_context, lambda: repos.conversations.save(saved))
    second = replace(first, message_id="m2", text="corte")
    found = await find_sender(replace(repos, turn_context=reader), second, lambda: DAY)
    seen = found.conversation
    assert reader.reads == 2
    assert seen.id == conversation.id and [m.message_id for m in seen.messages] == ["m1"]
