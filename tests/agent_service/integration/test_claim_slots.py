"""The per-tenant turn slots kept on the message claims (``claim_slots``), on the embedded
MongoDB: racing claims never hold more than the limit, a finished or released turn frees its
slot in its own write, a dead holder's slot frees itself once its lease has passed, and a
duplicate delivery never takes a slot."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from typing import Any
from uuid import UUID, uuid4

import pytest
from pymongo import AsyncMongoClient

from agenda_kit.mongo import EmbeddedMongo, make_client
from agent_service.application.repositories import Repositories
from agent_service.domain.conversations import ConversationStatus, TurnResult
from agent_service.domain.errors import CapacityExceededError
from agent_service.infrastructure.mongo import init_agent_storage
from agent_service.infrastructure.mongo.claim_slots import SlotPolicy
from agent_service.infrastructure.mongo.conversation_documents import ProcessedTurnDocument

pytest_plugins = ["tests.kit.mongo_fixtures"]

LIMIT = 3
SLOT_LEASE = timedelta(seconds=30)
TENANT = UUID("00000000-0000-4000-8000-0000000000a1")
OTHER = UUID("00000000-0000-4000-8000-0000000000b2")
RESULT = TurnResult(conversation_id=uuid4(), reply="ok", status=ConversationStatus.ACTIVE)


@pytest.fixture
async def repos(embedded_mongo: EmbeddedMongo) -> AsyncIterator[Repositories]:
    client: AsyncMongoClient[Any] = make_client(embedded_mongo.uri)
    name = f"agent_{uuid4().hex[:16]}"
    try:
        yield await init_agent_storage(client, name, turn_slots=SlotPolicy(LIMIT, SLOT_LEASE))
    finally:
        await client.drop_database(name)
        await client.close()


async def claim(repos: Repositories, message_id: str, tenant: UUID = TENANT) -> bool | str:
    try:
        return await repos.turns.claim(tenant, "whatsapp", message_id)
    except CapacityExceededError:
        return "refused"


async def held_slots(tenant: UUID = TENANT) -> list[str]:
    claims = ProcessedTurnDocument.get_pymongo_collection()
    found = claims.find({"tenant_id": tenant, "slot": {"$exists": True}})
    return sorted([doc["slot"] async for doc in found])


async def expire_slots() -> None:
    """The slot leases' time has passed (a peek behind the port, standing for waiting)."""
    long_ago = datetime(2000, 1, 1, tzinfo=UTC)
    claims = ProcessedTurnDocument.get_pymongo_collection()
    await claims.update_many({}, {"$set": {"slot_until": long_ago, "lease_until": long_ago}})


async def test_racing_claims_never_hold_more_than_the_limit(repos: Repositories) -> None:
    outcomes = await asyncio.gather(*(claim(repos, f"m{n}") for n in range(12)))
    assert outcomes.count(True) == LIMIT
    assert outcomes.count("refused") == 12 - LIMIT
    assert len(set(await held_slots())) == LIMIT
    assert await claim(repos, "m1", OTHER) is True  # another tenant has its own slots
    refused = [f"m{n}" for n, outcome in enumerate(outcomes) if outcome == "refused"]
    assert await repos.turns.result(TENANT, "whatsapp", refused[0]) is None  # not kept


async def test_a_refusal_names_the_limit_and_carries_a_retry_hint(repos: Repositories) -> None:
    for n in range(LIMIT):
        assert await claim(repos, f"m{n}") is True
    with pytest.raises(CapacityExceededError, match=f"limit {LIMIT}") as busy:
        await repos.turns.claim(TENANT, "whatsapp", "late")
    assert busy.value.retry_after_seconds == 1.0


async def test_a_completed_or_released_turn_frees_its_slot(repos: Repositories) -> None:
    for n in range(LIMIT):
        assert await claim(repos, f"m{n}") is True
    assert await claim(repos, "late") == "refused"
    await repos.turns.complete(TENANT, "whatsapp", "m0", RESULT)
    assert await claim(repos, "late") is True
    assert await claim(repos, "later") == "refused"
    await repos.turns.release(TENANT, "whatsapp", "m1")
    assert await claim(repos, "later") is True
    assert len(await held_slots()) == LIMIT
    assert await repos.turns.result(TENANT, "whatsapp", "m0") == RESULT


async def test_a_duplicate_delivery_takes_no_slot_even_when_all_are_held(
    repos: Repositories,
) -> None:
    for n in range(LIMIT):
        assert await claim(repos, f"m{n}") is True
    assert await claim(repos, "m0") is False  # held by its first delivery: wait for its reply
    await repos.turns.complete(TENANT, "whatsapp", "m0", RESULT)
    assert await claim(repos, "m0") is False  # completed: answered from the stored reply
    assert len(await held_slots()) == LIMIT - 1


async def test_a_dead_holders_slot_frees_itself_and_a_takeover_holds_one(
    repos: Repositories,
) -> None:
    for n in range(LIMIT):
        assert await claim(repos, f"m{n}") is True
    assert await claim(repos, "new") == "refused"
    await expire_slots()  # the holders died: nobody renewed
    assert await claim(repos, "new") is True  # a dead holder's slot taken back
    assert await claim(repos, "m0") is True  # the redelivery takes the dead claim over
    slots = await held_slots()
    assert len(slots) == len(set(slots)) <= LIMIT
    claims = ProcessedTurnDocument.get_pymongo_collection()
    taken_over = await claims.find_one({"tenant_id": TENANT, "message_id": "m0"})
    assert taken_over is not None and "slot" in taken_over


async def test_renewal_keeps_a_long_turns_slot(repos: Repositories) -> None:
    for n in range(LIMIT):
        assert await claim(repos, f"m{n}") is True
    claims = ProcessedTurnDocument.get_pymongo_collection()
    long_ago = datetime(2000, 1, 1, tzinfo=UTC)
    await claims.update_many({}, {"$set": {"slot_until": long_ago}})
    for n in range(LIMIT):
        await repos.turns.renew(TENANT, "whatsapp", f"m{n}")  # still running: renewed in time
    assert await claim(repos, "new") == "refused"
