"""Issue 4, property 2: a gateway redelivering the same channel message — 50 times in a row and
50 times at once — books once and gets the same reply every time (SendMessage over gRPC)."""

from __future__ import annotations

import asyncio
import uuid
from datetime import date
from pathlib import Path

import pytest

from agenda.agent.v1 import agent_service_pb2 as pb
from agenda_kit.mongo import EmbeddedMongo
from tests.agent_service.integration.agent_fixtures import (
    Customer,
    agent_stub,
    booking_request_text,
    channel_to,
)
from tests.figures import record
from tests.reliability.scale import size
from tests.reliability.stacks import running_stack, working_days

pytest_plugins = ["tests.kit.mongo_fixtures"]
pytestmark = pytest.mark.reliability

DELIVERIES = size(50, 50)


def same_answer(reply: pb.SendMessageResponse) -> tuple[object, ...]:
    """What must be identical across deliveries (``duplicate`` tells them apart, on purpose)."""
    return (
        reply.reply,
        reply.conversation_id,
        reply.trace_id,
        reply.specialist,
        reply.status,
        tuple(a.SerializeToString(deterministic=True) for a in reply.actions),
    )


async def asked_to_confirm(customer: Customer, day: date, at: str) -> str:
    asked = await customer.say(booking_request_text(day, at))
    assert "Confirma" in asked.reply, asked.reply
    return uuid.uuid4().hex


async def test_redelivered_confirmation_books_once(
    embedded_mongo: EmbeddedMongo, tmp_path: Path
) -> None:
    async with (
        running_stack(embedded_mongo, tmp_path) as stack,
        channel_to(stack.agent.port) as channel,
    ):
        stub = agent_stub(channel)
        tenant = str(stack.salon.tenant_id)
        (day,) = working_days(1)

        in_a_row = Customer(stub, tenant)
        message_id = await asked_to_confirm(in_a_row, day, "10:00")
        sequential = [await in_a_row.say("sim", message_id) for _ in range(DELIVERIES)]

        at_once = Customer(stub, tenant)
        message_id = await asked_to_confirm(at_once, day, "15:00")
        concurrent = await asyncio.gather(
            *(at_once.say("sim", message_id) for _ in range(DELIVERIES))
        )
        figures = await stack.check_invariant([day])

    for replies in (sequential, concurrent):
        assert "Agendado" in replies[0].reply or "Agendado" in replies[-1].reply
        assert len({same_answer(r) for r in replies}) == 1
        assert sum(not r.duplicate for r in replies) == 1
        assert len(replies[0].actions) == 1
    assert (figures["appointments"], figures["confirmed"], figures["events"]) == (2, 2, 2)
    print(
        f"\nproperty 2: {DELIVERIES} deliveries in a row + {DELIVERIES} at once → "
        f"1 reply each, {figures}"
    )
    record(
        "properties",
        {
            "02 duplicate delivery: deliveries in a row + at once": f"{DELIVERIES} + {DELIVERIES}",
            "02 duplicate delivery: distinct replies per message": 1,
            "02 duplicate delivery: after both": figures,
        },
    )
