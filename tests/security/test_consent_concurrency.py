"""Issue 21 item 6: concurrent confirmations of one proposal book once, and every reply tells
the same booked result.

Over real gRPC on the embedded MongoDB (the claim store is its unique index): the customer is
asked to confirm a booking, then several confirmations of that one question arrive at once —
typed yeses with different message ids and a tapped confirm of its pending id. Exactly one
booking is made, no FAILED record is left, no reply says the slot was taken, and every reply
(one per burst of queued messages) names the booked appointment.
"""

from __future__ import annotations

import asyncio
import uuid
from pathlib import Path

import grpc

from agenda.agent.v1 import agent_service_pb2 as agent_pb
from agenda.agent.v1 import types_pb2 as types
from agenda_kit.mongo import EmbeddedMongo
from agent_service.domain.appointments import AppointmentStatus
from tests.security.consent_run import Ctx, slots
from tests.security.consent_scenarios import BOOK, gate, plan
from tests.security.consent_world import AUTH, World, consent_world

pytest_plugins = ["tests.kit.mongo_fixtures"]
YESES = ("sim", "pode ser", "👍", "ok, confirmo")
ATTEMPTS = 8


async def _delivered(
    world: World, request: agent_pb.SendMessageRequest
) -> agent_pb.SendMessageResponse:
    """Sent as a gateway does: ABORTED (the conversation changed meanwhile) is delivered again
    with the same message id."""
    for _ in range(ATTEMPTS):
        try:
            return await world.agent.SendMessage(request, metadata=AUTH)
        except grpc.aio.AioRpcError as error:
            if error.code() is not grpc.StatusCode.ABORTED:
                raise
    raise AssertionError(f"{request.text!r} still ABORTED after {ATTEMPTS} deliveries")


async def test_concurrent_yeses_to_one_proposal_book_once_and_all_say_booked(
    embedded_mongo: EmbeddedMongo, tmp_path: Path
) -> None:
    async with consent_world(embedded_mongo, tmp_path, "function") as world:
        slot, alt = slots(2)
        external_id = f"55{uuid.uuid4().int % 10**11:011d}"
        customer = await world.customer(external_id)
        own = await world.book_for(customer, alt)
        ctx = Ctx(world, customer, external_id, own, slot=slot, alt=alt)
        world.model.plan = plan({BOOK: gate(ctx)})
        asked = await world.agent.SendMessage(
            world.message(external_id, BOOK, uuid.uuid4().hex), metadata=AUTH
        )
        assert asked.HasField("pending") and asked.pending.id, asked.reply
        before = await world.appointments()
        requests = world.model.requests

        requests_sent = [world.message(external_id, text, uuid.uuid4().hex) for text in YESES]
        tap = world.message(external_id, "", uuid.uuid4().hex)
        tap.confirm_pending_id = asked.pending.id
        requests_sent.append(tap)
        replies = await asyncio.gather(*(_delivered(world, r) for r in requests_sent))

        after = await world.appointments()
        new = [a for key, a in after.items() if key not in before]
        assert len(new) == 1, [(a.status, a.start) for a in new]
        assert new[0].status is AppointmentStatus.CONFIRMED
        assert not [a for a in after.values() if a.status is AppointmentStatus.FAILED]
        del requests  # later yeses queued behind the first form a burst (main's lanes), which
        # no longer has a pending action and is answered by a model run: see the report
        for sent, reply in zip(requests_sent, replies, strict=True):
            text = reply.reply
            assert "ocupado" not in text and "taken" not in text, (sent.text, text)
            if reply.covered_by_message_id:  # one reply per burst: this one is covered
                assert not text, (sent.text, text)
                continue
            if reply.decision == types.DECISION_RESULT_NOT_PENDING:  # a tap after it was settled
                assert "nada foi alterado" in text.lower(), (sent.text, text)
                continue
            # the receipt, the same result restated, or the customer's booked appointment
            assert "corte feminino com ana souza" in text.lower(), (sent.text, text)
        decisions = [r.decision for r in replies]
        assert decisions.count(types.DECISION_RESULT_CONFIRMED) == 1, decisions
