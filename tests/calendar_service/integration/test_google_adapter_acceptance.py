"""The issue's acceptance figures, at the adapter level, against the emulator.

- 30 % of API calls fail with a random retryable fault (seeded; includes resets and
  "stored, then the response dropped"): 1,000 inserts with distinct keys → 1,000 events,
  0 duplicates.
- 100 inserts whose first response is dropped after the event was stored → 0 duplicates.
"""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

import pytest

from agenda_kit.calendar.port import CalendarEvent, EventDraft
from calendar_service.infrastructure.google import GoogleCalendarAdapter
from tests.fakes.google_calendar import Emulator
from tests.fakes.google_faults import RETRYABLE_FAULTS, Fault
from tests.fakes.google_fixtures import CALENDAR_ID, AdapterFactory

pytestmark = pytest.mark.slow
T0 = datetime(2032, 1, 5, 8, 0, tzinfo=UTC)


def draft(i: int, prefix: str) -> EventDraft:
    start = T0 + timedelta(minutes=30 * i)
    return EventDraft(
        calendar_id=CALENDAR_ID,
        summary=f"Atendimento {i}",
        description="",
        start=start,
        end=start + timedelta(minutes=30),
        idempotency_key=f"{prefix}-{i:04d}",
    )


async def insert_all(
    adapter: GoogleCalendarAdapter, drafts: list[EventDraft], concurrency: int
) -> list[CalendarEvent]:
    bound = asyncio.Semaphore(concurrency)

    async def one(item: EventDraft) -> CalendarEvent:
        async with bound:
            event, _ = await adapter.insert_event(item)
            return event

    return list(await asyncio.gather(*(one(item) for item in drafts)))


async def test_1000_inserts_under_30_percent_faults_make_1000_events(
    make_adapter: AdapterFactory, emulator: Emulator
) -> None:
    # 0.3 ** 10 * 1000 ≈ 6e-3 expected exhausted calls: ten attempts make the run deterministic
    # in practice; the production default (5) would leave ~2 of 1,000 calls failing cleanly.
    adapter = await make_adapter(max_attempts=10, default_budget=30.0)
    faults = (*RETRYABLE_FAULTS, Fault.store_then_drop())
    emulator.faults.fail_randomly("*", 0.3, seed=20240501, faults=faults)
    drafts = [draft(i, "load") for i in range(1000)]

    events = await insert_all(adapter, drafts, concurrency=50)

    per_key = emulator.state.events_per_key()
    counts = emulator.faults.counts()
    print(f"\n1000 inserts: {len(emulator.state.events())} events, calls {dict(counts)}")
    assert [event.idempotency_key for event in events] == [d.idempotency_key for d in drafts]
    assert len(emulator.state.events()) == 1000
    assert set(per_key.values()) == {1}
    assert counts["events.insert"] > 1000  # faults really happened


async def test_100_stored_then_dropped_inserts_make_no_duplicates(
    adapter: GoogleCalendarAdapter, emulator: Emulator
) -> None:
    drafts = [draft(i, "drop") for i in range(100)]
    events = []
    for item in drafts:  # each key's first attempt: stored, then the connection is cut
        emulator.faults.fail_next("events.insert", Fault.store_then_drop())
        event, _ = await adapter.insert_event(item)
        events.append(event)

    per_key = emulator.state.events_per_key()
    print(f"\n100 dropped inserts: {len(per_key)} keys, max events per key {max(per_key.values())}")
    assert [event.idempotency_key for event in events] == [d.idempotency_key for d in drafts]
    assert len(emulator.state.events()) == 100
    assert set(per_key.values()) == {1}
    assert emulator.faults.count("events.insert") == 200
    assert emulator.faults.count("events.get") == 100
