"""``MongoHoldStore`` on the embedded MongoDB: the ``HoldStore`` rules (exact ranges per-day
ledgers, a take that stops at another event's range, settle, release by claim or event,
expiry), a 31-day event costing a ledger per day (not one document per unit), and concurrent
writers of one time through several store clients (replicas): exactly one holds it."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from typing import Any

from pymongo import AsyncMongoClient

from agenda_kit.mongo import EmbeddedMongo, make_client
from calendar_service.application.holds import HoldRequest
from calendar_service.infrastructure.mongo_holds import COLLECTION, MongoHoldStore

pytest_plugins = ["tests.kit.mongo_fixtures"]
T0 = datetime(2031, 6, 2, 9, 0, tzinfo=UTC)
LEASE = T0 + timedelta(minutes=2)


def ask(
    event_id: str, start: float, minutes: float, *, claim: str = "", calendar: str = "room"
) -> HoldRequest:
    at = T0 + timedelta(minutes=start)
    return HoldRequest(
        calendar_id=calendar,
        event_id=event_id,
        owner="o",
        start=at,
        end=at + timedelta(minutes=minutes),
        lease_until=LEASE,
        claim=claim or f"{event_id}-claim",
    )


async def store(client: AsyncMongoClient[Any], database: str) -> MongoHoldStore:
    return await MongoHoldStore.open(client[database][COLLECTION])


async def test_ranges_are_exact_and_settle_release_and_expiry_follow_the_rules(
    mongo_client: AsyncMongoClient[Any], database_name: str
) -> None:
    holds = await store(mongo_client, database_name)
    assert (await holds.take(ask("a", 0, 32))).others == ()
    assert (await holds.take(ask("b", 32, 28))).others == ()  # touching a range is free
    blocking = (await holds.take(ask("c", 31, 10))).others
    assert sorted((h.event_id, h.writing) for h in blocking) == [("a", True), ("b", True)]
    again = await holds.take(ask("a", 0, 32, claim="a-retry"))  # its own range: no conflict
    assert again.others == ()
    expired = await holds.expired(LEASE + timedelta(seconds=1), 10)
    assert sorted(h.event_id for h in expired) == ["a", "b"]
    await holds.settle("room", "a", T0 + timedelta(minutes=5), T0 + timedelta(minutes=30))
    mine = [h for h in await holds.of_calendar("room") if h.event_id == "a"]
    assert [(h.start, h.writing) for h in mine] == [(T0 + timedelta(minutes=5), False)]
    assert [h.event_id for h in await holds.expired(LEASE + timedelta(seconds=1), 10)] == ["b"]
    await holds.release("room", "b", "another-claim")  # not b's claim: kept
    assert {h.event_id for h in await holds.of_calendar("room")} == {"a", "b"}
    await holds.release("room", "b", "b-claim")
    await holds.release("room", "a")
    assert await holds.of_calendar("room") == []
    assert (await holds.take(ask("c", 31, 10))).others == ()


async def test_a_write_in_flight_is_removed_only_by_its_own_claim(
    mongo_client: AsyncMongoClient[Any], database_name: str
) -> None:
    """Session 43: a settle or a release of every range, given ``now``, keeps another claim's
    range still in flight (a move under way), on another day too; without ``now`` (and once
    the lease passed) it goes as before."""
    holds = await store(mongo_client, database_name)
    assert (await holds.take(ask("e", 0, 30, claim="create"))).others == ()
    await holds.settle("room", "e", T0, T0 + timedelta(minutes=30), claim="create", now=T0)
    assert (await holds.take(ask("e", 1440 + 300, 30, claim="move"))).others == ()
    await holds.settle("room", "e", T0, T0 + timedelta(minutes=30), now=T0)  # an update
    flying = [h for h in await holds.of_calendar("room") if h.writing]
    assert [(h.claim, h.start) for h in flying] == [("move", T0 + timedelta(minutes=1740))]
    assert (await holds.take(ask("other", 1440 + 300, 30))).others != ()
    await holds.release("room", "e", now=T0)  # a cancel meanwhile: the move keeps its time
    assert [h.claim for h in await holds.of_calendar("room")] == ["move"]
    await holds.release("room", "e", now=LEASE + timedelta(seconds=1))  # its lease passed
    assert await holds.of_calendar("room") == []


async def test_a_month_long_event_takes_one_ledger_per_day(
    mongo_client: AsyncMongoClient[Any], database_name: str
) -> None:
    holds = await store(mongo_client, database_name)
    assert (await holds.take(ask("trip", 0, 31 * 1440))).others == ()
    ledgers = mongo_client[database_name][COLLECTION]
    assert await ledgers.count_documents({}) == 32  # 09:00 to 09:00 31 days later
    (inside,) = (await holds.take(ask("dentist", 20 * 1440, 60))).others
    assert inside.event_id == "trip"
    await holds.settle("room", "trip", T0, T0 + timedelta(days=2))
    assert (await holds.take(ask("dentist", 20 * 1440, 60))).others == ()


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
        assert len(complete) == 1, complete
        held = await stores[0].of_calendar("room")
        assert [h.event_id for h in held] == complete
    finally:
        for client in clients:
            await client.close()
