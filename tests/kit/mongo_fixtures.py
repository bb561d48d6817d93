"""Shared MongoDB fixtures: ONE embedded SecantusDB (``:memory:``) for the whole test session.

Register with ``pytest_plugins = ["tests.kit.mongo_fixtures"]`` in a test module. The server
is a process, so its fixture is synchronous; clients are per test because an
``AsyncMongoClient`` belongs to the event loop of the test that uses it.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import Any
from uuid import uuid4

import pytest
from pymongo import AsyncMongoClient

from agenda_kit.mongo import MEMORY, EmbeddedMongo, make_client


@pytest.fixture(scope="session")
def embedded_mongo() -> Iterator[EmbeddedMongo]:
    with EmbeddedMongo(MEMORY) as server:
        yield server


@pytest.fixture
async def mongo_client(embedded_mongo: EmbeddedMongo) -> AsyncIterator[AsyncMongoClient[Any]]:
    client = make_client(embedded_mongo.uri)
    yield client
    await client.close()


@pytest.fixture
async def database_name(mongo_client: AsyncMongoClient[Any]) -> AsyncIterator[str]:
    """A fresh database name per test, dropped afterwards."""
    name = f"test_{uuid4().hex[:16]}"
    yield name
    await mongo_client.drop_database(name)
