"""Issue 21 item 6: concurrent confirmations of one proposal book once, and every other reply
says, in code, that it is already booked.

Over real gRPC on the embedded MongoDB (the claim store is its unique index): the customer is
asked to confirm a booking, then several confirmations of that one question arrive at once —
typed yeses with different message ids and a tapped confirm of its pending id. Exactly one
booking is made, no FAILED record is left, no reply says the slot was taken, no model request
is made for any of them, and every reply but the booking one (one per burst of queued
messages) is ``DECISION_RESULT_ALREADY_DONE`` with the system's "já está agendado" receipt.
Afterwards a late tap of the executed id is told the same; a foreign id, and a typed yes once
the window passed, are not.
"""

from __future__ import annotations

import asyncio
import secrets
import uuid
from pathlib import Path

import grpc

from agenda.agent.v1 import agent_service_pb2 as agent_pb
from agenda.agent.v1 import types_pb2 as types
from agenda_kit.mongo import EmbeddedMongo
from agent_service.domain.appointments import AppointmentStatus
from agent_service.infrastructure.settings import AgentSettings
from tests.security.consent_run import Ctx, slots
from tests.security.consent_scenarios import BOOK, gate, plan
from tests.security.consent_world import AUTH, World, consent_world

pytest_plugins = ["tests.kit.mongo_fixtures"]
YESES = ("sim", "pode ser", "👍", "ok, confirmo", "yes", "sí")
ATTEMPTS = 8
REPEATED_YES_SECONDS = AgentSettings().repeated_yes_seconds
RECEIPT = "corte feminino com ana souza"
ALREADY = "já está agendado"


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


def _tap(world: World, external_id: str, pending_id: str) -> agent_pb.SendMessageRequest:
    tap = world.message(external_id, "", uuid.uuid4().hex)
    tap.confirm_pending_id = pending_id
    return tap


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

        sent = [world.message(external_id, text, uuid.uuid4().hex) for text in YESES]
        sent.insert(2, _tap(world, external_id, asked.pending.id))
        replies = await asyncio.gather(*(_delivered(world, r) for r in sent))

        after = await world.appointments()
        new = [a for key, a in after.items() if key not in before]
        assert len(new) == 1, [(a.status, a.start) for a in new]
        assert new[0].status is AppointmentStatus.CONFIRMED
        assert not [a for a in after.values() if a.status is AppointmentStatus.FAILED]
        assert world.model.requests == requests, "a confirmation made a model request"
        answered = [
            (s, r) for s, r in zip(sent, replies, strict=True) if not r.covered_by_message_id
        ]
        assert all(not r.reply for r in replies if r.covered_by_message_id)
        decisions = [r.decision for _, r in answered]
        assert decisions.count(types.DECISION_RESULT_CONFIRMED) == 1, decisions
        for request, reply in answered:
            text = reply.reply.lower()
            assert RECEIPT in text, (request.text, reply.reply)
            assert "ocupado" not in text and "taken" not in text, (request.text, reply.reply)
            if reply.decision != types.DECISION_RESULT_CONFIRMED:
                assert reply.decision == types.DECISION_RESULT_ALREADY_DONE, (request, reply)
                assert ALREADY in text and "nada foi alterado" not in text, reply.reply

        late = await _delivered(world, _tap(world, external_id, asked.pending.id))
        assert late.decision == types.DECISION_RESULT_ALREADY_DONE, late
        assert ALREADY in late.reply.lower() and RECEIPT in late.reply.lower(), late.reply
        forged = await _delivered(world, _tap(world, external_id, secrets.token_urlsafe(18)))
        assert forged.decision == types.DECISION_RESULT_NOT_PENDING, forged
        assert ALREADY not in forged.reply.lower(), forged.reply
        again = await _delivered(world, world.message(external_id, "sim", uuid.uuid4().hex))
        assert again.decision == types.DECISION_RESULT_ALREADY_DONE, again  # still quiet
        assert world.model.requests == requests
        world.clock.advance(REPEATED_YES_SECONDS + 1)  # a typed yes past the window: a turn
        past = await _delivered(world, world.message(external_id, "sim", uuid.uuid4().hex))
        assert past.decision != types.DECISION_RESULT_ALREADY_DONE, past
        assert ALREADY not in past.reply.lower(), past.reply
        assert len(await world.appointments()) == len(after)
