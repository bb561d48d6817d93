"""Contract of customers' lanes on the message claims (``LaneRepository``) and of stored turn
outcomes, run on Beanie (embedded MongoDB) and on the in-memory fakes alike."""

from __future__ import annotations

import asyncio
from uuid import uuid4

import pytest

from agent_service.application.burst_driver import Waiters
from agent_service.application.bursts import Completed, Joined, LaneKey, QueuedMessage
from agent_service.application.redelivery import Redelivery
from agent_service.application.repositories import Repositories
from agent_service.domain.catalog import Tenant
from agent_service.domain.conversations import ConversationStatus, TurnFailure, TurnResult
from agent_service.domain.errors import MessageIdReusedError, MessageIdTakenError
from agent_service.infrastructure.mongo.conversation_documents import ProcessedTurnDocument
from tests.agent_service.integration.repository_fixtures import LONG_AGO, expire_leases, repos
from tests.fakes.agent_repositories import InMemoryTurnRepository

pytest_plugins = ["tests.kit.mongo_fixtures"]
__all__ = ["repos"]
RESULT = TurnResult(conversation_id=uuid4(), reply="ok", status=ConversationStatus.ACTIVE)


def queued(message_id: str, text: str = "oi") -> QueuedMessage:
    return QueuedMessage(message_id=message_id, text=text, external_id="5511")


async def lane_of(repos: Repositories, customer: str = "c1") -> LaneKey:
    tenant = await repos.tenants.add(Tenant(name="Salão"))
    return LaneKey(tenant.id, "whatsapp", customer)


async def test_the_first_message_holds_the_lane_the_next_are_queued_in_order(
    repos: Repositories,
) -> None:
    lanes = repos.lanes
    lane = await lane_of(repos)
    assert await lanes.claim(lane, queued("m1", "Quero agendar"), "d1") is Joined.HOLDING
    assert await lanes.claim(lane, queued("m2", "corte"), "d2") is Joined.QUEUED
    assert await lanes.claim(lane, queued("m1"), "d1") is Joined.TAKEN
    assert [m.message_id for m in await lanes.waiting(lane)] == ["m1", "m2"]
    assert [m.text for m in await lanes.waiting(lane)] == ["Quero agendar", "corte"]
    # m2 arrived: the holder's own result is not stored alone, and it is told once.
    assert await lanes.complete_alone(lane, "m1", RESULT) is Completed.NEWS
    assert await lanes.arrivals(lane, "m1")
    assert not await lanes.arrivals(lane, "m1")
    completed = await lanes.complete_alone(lane, "m1", RESULT)
    assert completed is not Completed.NEWS
    assert [m.message_id for m in await lanes.waiting(lane)] == ["m2"]
    if completed is Completed.HELD:
        assert not await lanes.acquire(lane, "m2")  # m1's delivery still holds it
    assert await lanes.settle(lane, "m1")  # nothing new: given up (or given up already)
    assert await lanes.acquire(lane, "m2")
    assert await lanes.claim(lane, queued("m3"), "d3") is Joined.QUEUED
    assert not await lanes.settle(lane, "m2")  # m3 arrived meanwhile: keep it
    assert await lanes.settle(lane, "m2")


async def test_one_holder_per_lane_whoever_races(repos: Repositories) -> None:
    lane = await lane_of(repos)
    joined = await asyncio.gather(
        *(repos.lanes.claim(lane, queued(f"m{n}"), f"d{n}") for n in range(6))
    )
    assert sorted(j.value for j in joined) == ["holding"] + ["queued"] * 5
    other = await repos.lanes.claim(LaneKey(lane.tenant_id, "whatsapp", "c2"), queued("o1"), "d")
    assert other is Joined.HOLDING  # another customer's lane is not held by this one


async def test_a_dead_holders_lane_is_taken_over(repos: Repositories) -> None:
    lanes = repos.lanes
    lane = await lane_of(repos)
    assert await lanes.claim(lane, queued("m1"), "d1") is Joined.HOLDING
    assert await lanes.claim(lane, queued("m2"), "d2") is Joined.QUEUED
    assert not await lanes.acquire(lane, "m2")
    await _expire_lanes(repos)
    assert await lanes.acquire(lane, "m2")
    assert not await lanes.renew(lane, "m1")  # the old holder knows it lost it
    assert await lanes.renew(lane, "m2")


async def test_a_failed_turn_stores_a_failure_and_may_be_claimed_again_at_once(
    repos: Repositories,
) -> None:
    lanes, turns = repos.lanes, repos.turns
    lane = await lane_of(repos)
    assert await lanes.claim(lane, queued("m1"), "d1") is Joined.HOLDING
    failure = TurnFailure(reason="MODEL_UNAVAILABLE", message="down", cause="connection")
    await turns.fail(lane.tenant_id, "whatsapp", "m1", failure)
    stored = await turns.stored(lane.tenant_id, "whatsapp", "m1")
    assert stored is not None and stored.failure == failure and stored.result is None
    assert await lanes.waiting(lane) == ()  # failed: not waiting any more
    assert not await turns.claim(lane.tenant_id, "whatsapp", "m1", "other text")
    assert await lanes.settle(lane, "m1")
    assert await lanes.claim(lane, queued("m1"), "d1") is Joined.HOLDING  # the retry
    again = await turns.stored(lane.tenant_id, "whatsapp", "m1")
    assert again is not None and again.failure is None and again.digest == "d1"
    assert [m.message_id for m in await lanes.waiting(lane)] == ["m1"]


async def test_a_claims_digest_is_kept_and_guards_takeovers(repos: Repositories) -> None:
    turns = repos.turns
    tenant = await repos.tenants.add(Tenant(name="Salão"))
    assert await turns.claim(tenant.id, "whatsapp", "m1", "d1")
    await expire_leases(repos)
    assert not await turns.claim(tenant.id, "whatsapp", "m1", "d2")  # other content
    assert await turns.claim(tenant.id, "whatsapp", "m1", "d1")  # the redelivery takes over
    stored = await turns.stored(tenant.id, "whatsapp", "m1")
    assert stored is not None and stored.digest == "d1"
    await turns.complete(tenant.id, "whatsapp", "m1", RESULT)
    assert await turns.stored(tenant.id, "whatsapp", "m1") == type(stored)(RESULT, None, "d1")


async def _as_an_older_replica_wrote_it(repos: Repositories, message_id: str) -> None:
    """The claim without its sender, as a replica from before senders were recorded wrote it
    (a peek behind the port: MongoDB's document has no ``sender`` field)."""
    turns = repos.turns
    if isinstance(turns, InMemoryTurnRepository):
        for (_, _, claimed), claim in turns.claims.items():
            if claimed == message_id:
                claim.sender = ""
        return
    collection = ProcessedTurnDocument.get_pymongo_collection()
    await collection.update_one({"message_id": message_id}, {"$unset": {"sender": ""}})


async def test_a_claim_records_its_sender_apart_from_its_digest(repos: Repositories) -> None:
    """Review g15, V5: the first sender is known from the claim on, while its turn runs (it
    was known from the stored reply only). A claim of an older replica has none; a takeover
    (the same digest: the same sender) records it."""
    lanes, turns = repos.lanes, repos.turns
    lane = await lane_of(repos, customer="c1")
    assert await lanes.claim(lane, queued("m1"), "d1") is Joined.HOLDING
    stored = await turns.stored(lane.tenant_id, "whatsapp", "m1")
    assert stored is not None and (stored.digest, stored.sender) == ("d1", "c1")
    assert await turns.claim(lane.tenant_id, "whatsapp", "m2", "d2", "c2")
    await _as_an_older_replica_wrote_it(repos, "m2")
    stored = await turns.stored(lane.tenant_id, "whatsapp", "m2")
    assert stored is not None and (stored.digest, stored.sender) == ("d2", "")
    await expire_leases(repos)
    assert not await turns.claim(lane.tenant_id, "whatsapp", "m2", "d3", "c3")  # other content
    assert await turns.claim(lane.tenant_id, "whatsapp", "m2", "d2", "c2")  # its redelivery
    stored = await turns.stored(lane.tenant_id, "whatsapp", "m2")
    assert stored is not None and (stored.digest, stored.sender) == ("d2", "c2")


async def test_an_older_replicas_claim_names_its_sender_by_its_reply_only(
    repos: Repositories,
) -> None:
    """Rolling upgrade: while the turn of a claim written without a sender runs, another
    sender's reuse of its id is told apart by the digest only (MESSAGE_ID_REUSED, the older
    replicas' answer); once its reply is stored it is MESSAGE_ID_TAKEN. Nothing runs."""
    turns = repos.turns
    tenant = await repos.tenants.add(Tenant(name="Salão"))
    key = (tenant.id, "whatsapp", "m1")
    redelivery = Redelivery(turns, Waiters(), duplicate_wait=0.0)
    assert await turns.claim(*key, "d1", "c1")
    with pytest.raises(MessageIdTakenError):
        await redelivery.stored_result(key, "d2", "c2")
    await _as_an_older_replica_wrote_it(repos, "m1")
    with pytest.raises(MessageIdReusedError):
        await redelivery.stored_result(key, "d2", "c2")
    await turns.complete(*key, RESULT.model_copy(update={"customer_ref": "c1"}))
    with pytest.raises(MessageIdTakenError):
        await redelivery.stored_result(key, "d2", "c2")
    with pytest.raises(MessageIdReusedError):
        await redelivery.stored_result(key, "d3", "c1")


async def _expire_lanes(repos: Repositories) -> None:
    """End the lanes' leases (a peek behind the port: "the lease's time has passed")."""
    turns = repos.turns
    if isinstance(turns, InMemoryTurnRepository):
        for claim in turns.claims.values():
            if claim.running_until is not None:
                claim.running_until = LONG_AGO
        return
    collection = ProcessedTurnDocument.get_pymongo_collection()
    await collection.update_many(
        {"running": {"$exists": True}}, {"$set": {"running_until": LONG_AGO}}
    )


async def test_a_redelivery_taking_the_holders_claim_over_holds_its_lane(
    repos: Repositories,
) -> None:
    lanes, turns = repos.lanes, repos.turns
    lane = await lane_of(repos)
    assert await lanes.claim(lane, queued("m1"), "d1") is Joined.HOLDING
    assert await lanes.claim(lane, queued("m2"), "d2") is Joined.QUEUED
    await expire_leases(repos)  # m1's delivery died (its lane lease is still running)
    assert await turns.claim(lane.tenant_id, "whatsapp", "m1", "d1")  # its redelivery
    assert await lanes.join(lane, queued("m1"))
    assert [m.message_id for m in await lanes.waiting(lane)] == ["m1", "m2"]
