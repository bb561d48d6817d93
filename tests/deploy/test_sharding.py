"""Issue 14 §4: every unique index is prefixed by its collection's shard key.

The index definitions are the real ones: both services' own start-up code
(``init_agent_storage`` + the tenant limits, ``init_local_calendar``) creates them on the
embedded MongoDB server, and the test lists them back with ``listIndexes``. Every collection a
service creates, and every Beanie document it declares, must have a stated shard key (or be
stated unsharded)."""

from __future__ import annotations

from typing import Any

from beanie import Document
from pymongo import AsyncMongoClient

from agenda_kit.sharding import ShardKey, shard_collection_command
from agent_service.infrastructure.mongo.sharding import SHARD_KEYS as AGENT_KEYS
from agent_service.infrastructure.mongo.storage import DOCUMENTS as AGENT_DOCUMENTS
from agent_service.infrastructure.mongo.storage import init_agent_storage
from calendar_service.infrastructure.local.documents import (
    CalendarDocument,
    EventDocument,
    init_local_calendar,
)
from calendar_service.infrastructure.local.sharding import SHARD_KEYS as CALENDAR_KEYS
from calendar_service.infrastructure.mongo_holds import COLLECTION as HOLD_LEDGERS
from calendar_service.infrastructure.mongo_holds import MongoHoldStore

pytest_plugins = ["tests.kit.mongo_fixtures"]


async def real_indexes(
    client: AsyncMongoClient[Any], database: str
) -> dict[str, list[dict[str, Any]]]:
    """Collection → its index definitions, as the server reports them."""
    db = client[database]
    return {
        name: [dict(index) async for index in await db[name].list_indexes()]
        for name in await db.list_collection_names()
    }


def collection_of(document: type[Document]) -> str:
    return str(document.Settings.name)


def violations(
    indexes: dict[str, list[dict[str, Any]]], keys: dict[str, ShardKey | None]
) -> list[str]:
    found = []
    for collection, definitions in sorted(indexes.items()):
        if collection not in keys:
            found.append(f"{collection}: no shard key stated")
            continue
        key = keys[collection]
        for index in definitions:
            fields = tuple(index["key"])
            if key is None or not index.get("unique") or fields == ("_id",):
                continue
            if not key.prefixes(fields):
                found.append(f"{collection}.{index['name']} {fields} not prefixed by {key.fields}")
    return found


async def test_agent_unique_indexes_are_prefixed_by_the_shard_key(
    mongo_client: AsyncMongoClient[Any], database_name: str
) -> None:
    await init_agent_storage(mongo_client, database_name)
    indexes = await real_indexes(mongo_client, database_name)
    declared = {collection_of(document) for document in AGENT_DOCUMENTS}
    assert declared <= set(indexes), "every document's collection exists after start-up"
    uniques = sum(1 for defs in indexes.values() for i in defs if i.get("unique"))
    assert uniques >= 2  # customers, processed_turns (the test reads real ones)
    assert violations(indexes, AGENT_KEYS) == []
    assert set(indexes) <= set(AGENT_KEYS)


async def test_calendar_unique_indexes_are_prefixed_by_the_shard_key(
    mongo_client: AsyncMongoClient[Any], database_name: str
) -> None:
    await init_local_calendar(mongo_client, database_name)
    await MongoHoldStore.open(mongo_client[database_name][HOLD_LEDGERS])
    indexes = await real_indexes(mongo_client, database_name)
    for document in (CalendarDocument, EventDocument):
        assert collection_of(document) in CALENDAR_KEYS
    assert any(i.get("unique") for i in indexes["events"])
    assert any(i.get("unique") for i in indexes[HOLD_LEDGERS])
    assert violations(indexes, CALENDAR_KEYS) == []
    assert set(indexes) <= set(CALENDAR_KEYS)


def test_the_check_catches_an_unprefixed_unique_index() -> None:
    """The rule itself, on a made-up definition (so the tests above cannot pass vacuously)."""
    bad = {"holds": [{"name": "per_unit", "key": {"calendar_id": 1, "unit": 1}, "unique": True}]}
    tenant = ShardKey(("tenant_id",))
    assert violations(bad, {"holds": tenant}) == [
        "holds.per_unit ('calendar_id', 'unit') not prefixed by ('tenant_id',)"
    ]
    assert violations(bad, {}) == ["holds: no shard key stated"]
    assert shard_collection_command("agenda", "customers", tenant) == {
        "shardCollection": "agenda.customers",
        "key": {"tenant_id": "hashed"},
    }
