"""The agent repositories under test: Beanie on the embedded MongoDB, and the in-memory fakes.

Uses the ONE session-scoped SecantusDB of ``tests.kit.mongo_fixtures`` (register that plugin
in the test module), with a fresh database per test.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from uuid import uuid4

import pytest

from agenda_kit.mongo import EmbeddedMongo, make_client
from agent_service.application.repositories import Repositories
from agent_service.infrastructure.mongo import init_agent_storage
from tests.fakes.agent_repositories import in_memory_repositories


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
