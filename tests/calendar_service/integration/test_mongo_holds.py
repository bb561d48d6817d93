"""``MongoHoldStore`` on the embedded MongoDB: the ``HoldStore`` rules (ordered takes that stop
at another event's unit, settle, prune, release, expired) and concurrent writers of one time —
the unique (calendar, unit) index lets exactly one of them hold it, through any number of
store clients (replicas)."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from typing import Any

from pymongo import AsyncMongoClient

from agenda_kit.mongo import EmbeddedMongo, make_client
from calendar_service.application.holds import HoldRequest, hold_units
from calendar_service.infrastructure.mongo_holds import COLLECTION, MongoHoldStore

pytest_plugins = ["tests.kit.mongo_fixtures"]
T0 = datetime(2031, 6, 2, 9, 0, tzinfo=UTC)
LEASE = T0 + timedelta(minutes=2)


def ask(event_id: str, start: float, minutes: float, calendar: str = "room") -> HoldRequest:
    at = T0 + timedelta(minutes=start)
    return HoldRequest(
        calendar_id=calendar,
        event_id=event_id,
        owner="o",
        start=at,
        end=at + timedelta(minutes=minutes),
        lease_until=LEASE,
    )


async def store(client: AsyncMongoClient[Any], database: str) -> MongoHoldStore:
    return await MongoHoldStore.open(client[database][COLLECTION])


async def test_take_settle_prune_release_and_expiry(
    mongo_client: AsyncMongoClient[Any], database_name: str
) -> None:
    holds = await store(mongo_client, database_name)
    first = await holds.take(ask("a", 0, 30))
    assert (len(first.new_units), first.others) == (6, ())
    again = await holds.take(ask("a", 0, 30))  # a retry: its own units are stepped over
    assert (again.new_units, again.others) == ((), ())
    blocked = await holds.take(ask("b", 20, 30))  # stops at a's 09:20 unit
    assert blocked.new_units == ()
    assert [(h.event_id, h.unit) for h in blocked.others] == [("a", T0 + timedelta(minutes=20))]
    assert [h.event_id for h in await holds.expired(LEASE + timedelta(seconds=1), 10)] == ["a"]
    await holds.settle("room", "a", T0, T0 + timedelta(minutes=30), prune=False)
    assert await holds.expired(LEASE + timedelta(seconds=1), 10) == []
    await holds.settle("room", "a", T0 + timedelta(minutes=10), T0 + timedelta(minutes=30))
    kept = sorted(h.unit for h in await holds.of_calendar("room"))
    assert kept == list(hold_units(T0 + timedelta(minutes=10), T0 + timedelta(minutes=30)))
    await holds.release("room", "a", [T0 + timedelta(minutes=10)])
    assert len(await holds.of_calendar("room")) == 3
    await holds.release("room", "a")
    assert await holds.of_calendar("room") == []
    other_calendar = await holds.take(ask("b", 0, 30, calendar="room-2"))
    assert len(other_calendar.new_units) == 6


async def test_concurrent_writers_of_one_time_through_many_clients_one_holds_it(
    embedded_mongo: EmbeddedMongo, database_name: str
) -> None:
    clients = [make_client(embedded_mongo.uri) for _ in range(3)]  # three replicas
    try:
        stores = [await store(client, database_name) for client in clients]
        asks = [ask(f"e{i}", 0, 60) for i in range(9)] + [ask(f"s{i}", 30, 60) for i in range(3)]
        outcomes = await asyncio.gather(
            *(stores[i % 3].take(request) for i, request in enumerate(asks))
        )
        complete = [r.event_id for r, o in zip(asks, outcomes, strict=True) if not o.others]
        assert len(complete) == 1, complete  # the lowest shared unit decides: one writer
        by_unit: dict[datetime, set[str]] = {}
        for hold in await stores[0].of_calendar("room"):
            by_unit.setdefault(hold.unit, set()).add(hold.event_id)
        assert all(len(owners) == 1 for owners in by_unit.values())
    finally:
        for client in clients:
            await client.close()
