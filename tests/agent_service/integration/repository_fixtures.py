"""The agent repositories under test: Beanie on the embedded MongoDB, and the in-memory fakes.

Uses the ONE session-scoped SecantusDB of ``tests.kit.mongo_fixtures`` (register that plugin
in the test module), with a fresh database per test.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime
from uuid import uuid4

import pytest

from agenda_kit.mongo import EmbeddedMongo, make_client
from agent_service.application.repositories import Repositories
from agent_service.infrastructure.mongo import init_agent_storage
from agent_service.infrastructure.mongo.conversation_documents import ProcessedTurnDocument
from tests.fakes.agent_repositories import InMemoryTurnRepository, in_memory_repositories


async def beanie_repositories(server: EmbeddedMongo) -> AsyncIterator[Repositories]:
    """Beanie repositories on a fresh database, dropped afterwards."""
    client = make_client(server.uri)
    name = f"agent_{uuid4().hex[:16]}"
    try:
        yield await init_agent_storage(client, name)
    finally:
        await client.drop_database(name)
        await client.close()


@pytest.fixture(params=["beanie", "memory"])
async def repos(request: pytest.FixtureRequest) -> AsyncIterator[Repositories]:
    if request.param == "memory":
        yield in_memory_repositories()
        return
    server: EmbeddedMongo = request.getfixturevalue("embedded_mongo")
    async for repositories in beanie_repositories(server):
        yield repositories


LONG_AGO = datetime(2000, 1, 1, tzinfo=UTC)


async def expire_leases(repos: Repositories) -> None:
    """End the current claims' leases (a peek behind the port, standing for "the lease's time
    has passed" without waiting for it)."""
    turns = repos.turns
    if isinstance(turns, InMemoryTurnRepository):
        for claim in turns.claims.values():
            claim.lease_until = LONG_AGO
        return
    collection = ProcessedTurnDocument.get_pymongo_collection()
    await collection.update_many({}, {"$set": {"lease_until": LONG_AGO}})
