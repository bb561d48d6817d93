"""The local calendar's day keys on the real MongoDB wire protocol (embedded SecantusDB):
free/busy read through the ``busy_days`` index, keys kept by every write, old events
backfilled at start-up, and busy time equal to the overlap semantics for random histories."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from typing import Any
from uuid import uuid4
from zoneinfo import ZoneInfo

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pymongo import AsyncMongoClient

from agenda_kit.calendar.errors import InvalidCalendarRequestError
from agenda_kit.calendar.port import EventDraft, Interval
from agenda_kit.mongo import EmbeddedMongo, make_client
from calendar_service.infrastructure.backends import local_adapter
from calendar_service.infrastructure.local import LocalCalendarAdapter, init_local_calendar
from calendar_service.infrastructure.local.backfill import backfill_busy_days
from calendar_service.infrastructure.local.day_keys import MAX_KEYS_PER_READ
from calendar_service.infrastructure.local.documents import EventDocument
from calendar_service.infrastructure.local.queries import busy_filter
from calendar_service.infrastructure.settings import CalendarSettings

pytest_plugins = ["tests.kit.mongo_fixtures"]

DAY = datetime(2031, 3, 10, tzinfo=UTC)


def at(hours: float) -> datetime:
    return DAY + timedelta(hours=hours)


def draft(key: str, start: datetime, end: datetime, calendar_id: str = "ana") -> EventDraft:
    return EventDraft(
        calendar_id=calendar_id,
        summary=key,
        description="",
        start=start,
        end=end,
        idempotency_key=key,
    )


@pytest.fixture
async def calendar(mongo_client: AsyncMongoClient[Any], database_name: str) -> LocalCalendarAdapter:
    await init_local_calendar(mongo_client, database_name)
    return LocalCalendarAdapter()


async def stored_keys(event_id: str) -> list[str]:
    raw = await EventDocument.get_pymongo_collection().find_one({"_id": event_id})
    assert raw is not None
    keys: list[str] = raw["busy_days"]
    return keys


async def test_the_free_busy_read_uses_the_busy_days_index(
    calendar: LocalCalendarAdapter,
) -> None:
    for calendar_id in ("ana", "bia"):
        for n in range(30):
            await calendar.insert_event(draft(f"k{n}", at(n * 5), at(n * 5 + 1), calendar_id))
    events = EventDocument.get_pymongo_collection()

    for calendar_ids in (["ana"], ["ana", "bia"]):
        query = busy_filter(calendar_ids, at(0), at(24 * 7), max_keys=1_000)
        plan = (await events.find(query).explain())["queryPlanner"]["winningPlan"]

        assert plan["stage"] == "FETCH", plan
        assert plan["inputStage"]["stage"] == "IXSCAN", plan
        assert plan["inputStage"]["indexName"] == "busy_days", plan
    busy = await calendar.query_free_busy(["ana"], at(0), at(24))
    assert busy[0].busy == tuple(Interval(at(n * 5), at(n * 5 + 1)) for n in range(5))


async def test_writes_keep_the_keys_of_the_days_the_event_is_busy(
    calendar: LocalCalendarAdapter,
) -> None:
    event, _ = await calendar.insert_event(draft("k1", at(22), at(24)))
    assert await stored_keys(event.event_id) == ["ana:2031-03-10"]  # ends at midnight

    await calendar.move_event("ana", event.event_id, at(23), at(49))
    assert await stored_keys(event.event_id) == [
        "ana:2031-03-10",
        "ana:2031-03-11",
        "ana:2031-03-12",
    ]
    assert (await calendar.query_free_busy(["ana"], at(48), at(72)))[0].busy == (
        Interval(at(48), at(49)),
    )

    await calendar.cancel_event("ana", event.event_id)
    assert await stored_keys(event.event_id) == []
    assert (await calendar.query_free_busy(["ana"], at(0), at(72)))[0].busy == ()


async def test_events_longer_than_the_longest_allowed_are_rejected(
    calendar: LocalCalendarAdapter,
) -> None:
    with pytest.raises(InvalidCalendarRequestError, match="31 days"):
        await calendar.insert_event(draft("long", at(0), at(24 * 31 + 1)))
    event, _ = await calendar.insert_event(draft("month", at(0), at(24 * 31)))
    assert len(await stored_keys(event.event_id)) == 31
    with pytest.raises(InvalidCalendarRequestError, match="31 days"):
        await calendar.move_event("ana", event.event_id, at(0), at(24 * 40))


def old_event(n: int, start: datetime, end: datetime, status: str = "confirmed") -> dict[str, Any]:
    """An event as the local calendar stored it before day keys (no ``busy_days``)."""
    return {
        "_id": f"old{n}",
        "calendar_id": "ana",
        "summary": f"old {n}",
        "description": "",
        "start": start,
        "end": end,
        "time_zone": "UTC",
        "status": status,
        "idempotency_key": f"old-{n}",
        "owner": "",
        "private": {},
        "created_at": start,
        "updated_at": start,
    }


async def test_events_stored_before_day_keys_are_backfilled_at_start_up(
    mongo_client: AsyncMongoClient[Any], database_name: str
) -> None:
    old = [old_event(n, at(n * 7), at(n * 7 + 2)) for n in range(10)]
    old.append(old_event(10, at(1), at(3), status="cancelled"))
    old.append(old_event(11, at(-1), at(48)))  # over three days, from the day before
    await mongo_client[database_name]["events"].insert_many(old)

    await init_local_calendar(mongo_client, database_name)

    assert await stored_keys("old0") == ["ana:2031-03-10"]
    assert await stored_keys("old4") == ["ana:2031-03-11"]  # 28:00 -> next day
    assert await stored_keys("old10") == []
    assert await stored_keys("old11") == ["ana:2031-03-09", "ana:2031-03-10", "ana:2031-03-11"]
    busy = (await LocalCalendarAdapter().query_free_busy(["ana"], at(48), at(72)))[0].busy
    assert busy == (Interval(at(49), at(51)), Interval(at(56), at(58)), Interval(at(63), at(65)))


async def test_backfill_is_idempotent_and_goes_in_bounded_batches(
    mongo_client: AsyncMongoClient[Any], database_name: str
) -> None:
    await init_local_calendar(mongo_client, database_name)
    events = mongo_client[database_name]["events"]
    await events.insert_many([old_event(n, at(n), at(n + 1)) for n in range(7)])

    assert await backfill_busy_days(events, batch_size=3) == 7
    assert await backfill_busy_days(events, batch_size=3) == 0
    assert await events.count_documents({"busy_days": {"$exists": False}}) == 0
    moved = await LocalCalendarAdapter().move_event("ana", "old2", at(30), at(31))
    assert await backfill_busy_days(events, batch_size=3) == 0
    assert moved.start == at(30)
    assert await stored_keys("old2") == ["ana:2031-03-11"]
    with pytest.raises(ValueError, match="batch_size"):
        await backfill_busy_days(events, batch_size=0)


async def test_a_rolling_upgrade_reads_by_overlap_until_no_older_replica_writes(
    mongo_client: AsyncMongoClient[Any], database_name: str
) -> None:
    """Expand, then contract: with ``CALENDAR_LOCAL_BUSY_BY_DAY_KEYS=false`` (max 0 keys per
    read) an event an older replica writes meanwhile, without keys, is busy at once; the keyed
    read sees it after the next start's backfill. An event an older replica cancelled keeps
    its keys but is never busy."""
    await init_local_calendar(mongo_client, database_name)
    events = mongo_client[database_name]["events"]
    upgrading = LocalCalendarAdapter(max_keys_per_read=0)
    keyed = LocalCalendarAdapter()
    await upgrading.insert_event(draft("new", at(1), at(2)))
    await events.insert_one(old_event(1, at(4), at(5)))  # an older replica's write
    expected = (Interval(at(1), at(2)), Interval(at(4), at(5)))
    assert (await upgrading.query_free_busy(["ana"], at(0), at(24)))[0].busy == expected
    assert (await keyed.query_free_busy(["ana"], at(0), at(24)))[0].busy == expected[:1]

    await init_local_calendar(mongo_client, database_name)  # the next start backfills
    assert (await keyed.query_free_busy(["ana"], at(0), at(24)))[0].busy == expected

    # An older replica cancels (status only; the keys stay): free on both reads.
    await events.update_one({"_id": "old1"}, {"$set": {"status": "cancelled"}})
    for adapter in (upgrading, keyed):
        assert (await adapter.query_free_busy(["ana"], at(0), at(24)))[0].busy == expected[:1]


def test_the_day_keys_setting_reaches_the_local_backend() -> None:
    settings = CalendarSettings(local_busy_by_day_keys=False)
    assert settings.local_busy_by_day_keys is False
    assert CalendarSettings().local_busy_by_day_keys is True
    assert local_adapter(settings).max_keys_per_read == 0
    assert local_adapter(CalendarSettings()).max_keys_per_read == MAX_KEYS_PER_READ


# --- random histories against the overlap semantics -------------------------------------

ZONES = ("UTC", "America/Sao_Paulo", "Asia/Kathmandu", "Pacific/Kiritimati")
hours = st.one_of(st.integers(0, 24 * 5), st.integers(0, 24 * 5 * 4).map(lambda q: q / 4))
spans = st.tuples(hours, st.one_of(st.sampled_from((0.25, 1, 24, 25, 49)), st.integers(1, 60)))
HISTORY = settings(
    max_examples=25,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


@st.composite
def histories(draw: st.DrawFn) -> dict[str, Any]:
    creates = draw(st.lists(st.tuples(st.sampled_from(("a", "b")), spans), max_size=12))
    moves = draw(st.lists(st.tuples(st.integers(0, 11), spans), max_size=4))
    cancels = draw(st.lists(st.integers(0, 11), max_size=3))
    zone = ZoneInfo(draw(st.sampled_from(ZONES)))
    query = draw(spans)
    max_keys = draw(st.sampled_from((1_000, 1)))  # 1: the overlap read of many keys
    return {
        "creates": creates,
        "moves": moves,
        "cancels": cancels,
        "range": (at(query[0]).astimezone(zone), at(query[0] + query[1]).astimezone(zone)),
        "max_keys": max_keys,
    }


def _expected(
    events: dict[str, tuple[str, datetime, datetime]], cal: str, low: datetime, high: datetime
) -> tuple[Interval, ...]:
    """Busy time by the overlap semantics, computed from the live events."""
    parts = sorted(
        (max(start, low), min(end, high))
        for calendar_id, start, end in events.values()
        if calendar_id == cal and start < high and end > low
    )
    merged: list[Interval] = []
    for start, end in parts:
        if merged and start <= merged[-1].end:
            merged[-1] = Interval(merged[-1].start, max(merged[-1].end, end))
        else:
            merged.append(Interval(start, end))
    return tuple(merged)


async def _replay(uri: str, history: dict[str, Any]) -> None:
    client = make_client(uri)
    database = f"test_{uuid4().hex[:16]}"
    try:
        await init_local_calendar(client, database)
        adapter = LocalCalendarAdapter(max_keys_per_read=history["max_keys"])
        prefix = uuid4().hex[:6]
        events: dict[str, tuple[str, datetime, datetime]] = {}
        ids: list[tuple[str, str]] = []
        for n, (cal, (start, length)) in enumerate(history["creates"]):
            calendar_id = f"{prefix}{cal}"
            event, _ = await adapter.insert_event(
                draft(f"k{n}", at(start), at(start + length), calendar_id)
            )
            events[event.event_id] = (calendar_id, event.start, event.end)
            ids.append((calendar_id, event.event_id))
        for index, (start, length) in history["moves"]:
            if index < len(ids) and ids[index][1] in events:
                calendar_id, event_id = ids[index]
                await adapter.move_event(calendar_id, event_id, at(start), at(start + length))
                events[event_id] = (calendar_id, at(start), at(start + length))
        for index in history["cancels"]:
            if index < len(ids):
                await adapter.cancel_event(*ids[index])
                events.pop(ids[index][1], None)
        low, high = history["range"]
        calendars = [f"{prefix}a", f"{prefix}b"]
        answers = await adapter.query_free_busy(calendars, low, high)
        for calendar_id, answer in zip(calendars, answers, strict=True):
            assert answer.busy == _expected(events, calendar_id, low, high)
    finally:
        await client.drop_database(database)
        await client.close()


@HISTORY
@given(histories())
def test_busy_time_after_random_writes_is_the_overlap_of_the_live_events(
    embedded_mongo: EmbeddedMongo, history: dict[str, Any]
) -> None:
    asyncio.run(_replay(embedded_mongo.uri, history))
