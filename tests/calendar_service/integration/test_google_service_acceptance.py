"""The issue's figures through the service itself: gRPC CreateEvent → calendar service with the
Google backend (production retry settings, create-if-free: a fresh busy read and the write)
→ the emulator failing 30 % of calls. 0 duplicates, 0 schema violations."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from agenda_kit.calendar.errors import CalendarError, CalendarQuotaError, CalendarUnavailableError
from agenda_kit.calendar.grpc_client import GrpcCalendarAdapter
from agenda_kit.settings import SharedSettings
from calendar_service.bootstrap import CalendarApp, bootstrap
from tests.fakes.google_calendar import Emulator
from tests.fakes.google_faults import RETRYABLE_FAULTS, Fault
from tests.fakes.google_fixtures import CALENDAR_ID, ServiceAccount, google_settings
from tests.fakes.in_memory_holds import InMemoryHolds
from tests.reliability.scale import size

pytestmark = pytest.mark.slow
TOKEN = "acceptance-token"
T0 = datetime(2032, 3, 1, 8, 0, tzinfo=UTC)
RPCS = size(300, 1000)
"""1000 under RELIABILITY_SCALE=full (each create is a fresh busy read and a write)."""


@pytest.fixture
async def google_calendar_app(
    emulator: Emulator, service_account: ServiceAccount, tmp_path: Path
) -> AsyncIterator[CalendarApp]:
    settings = google_settings(
        emulator,
        service_account,
        TOKEN,
    )
    holds = InMemoryHolds()  # holds on MongoDB: tests/calendar_service/integration/test_holds*
    app = await bootstrap(settings, SharedSettings(AGENDA_DATA_DIR=tmp_path), holds=holds)
    await app.start()
    yield app
    await app.stop(0)


async def test_create_event_rpcs_under_30_percent_faults_make_one_event_each(
    google_calendar_app: CalendarApp, emulator: Emulator
) -> None:
    emulator.faults.fail_randomly(
        "*", 0.3, seed=7, faults=(*RETRYABLE_FAULTS, Fault.store_then_drop())
    )
    client = GrpcCalendarAdapter.connect(
        f"127.0.0.1:{google_calendar_app.port}", token=TOKEN, timeout=20.0, max_attempts=3
    )
    bound = asyncio.Semaphore(50)

    async def create(i: int) -> str | CalendarError:
        start = T0 + timedelta(minutes=30 * i)
        async with bound:
            try:
                return await client.create_event(
                    CALENDAR_ID,
                    f"Atendimento {i}",
                    "",
                    start,
                    start + timedelta(minutes=30),
                    idempotency_key=f"svc-{i:04d}",
                )
            except (CalendarQuotaError, CalendarUnavailableError) as error:
                return error  # a clean, retryable refusal

    try:
        first = await asyncio.gather(*(create(i) for i in range(RPCS)))
        # What a caller does with a clean refusal: retry later with the same key.
        refused = [i for i, outcome in enumerate(first) if isinstance(outcome, CalendarError)]
        emulator.faults.clear()
        again = await asyncio.gather(*(create(i) for i in refused))
    finally:
        await client.close()
    ids = [outcome for outcome in (*first, *again) if isinstance(outcome, str)]
    print(f"\n{RPCS} CreateEvent RPCs: {len(refused)} cleanly refused then retried")
    per_key = emulator.state.events_per_key()
    assert len(refused) <= RPCS // 100
    assert len(set(ids)) == RPCS
    assert len(emulator.state.events()) == RPCS
    assert set(per_key.values()) == {1}
    assert emulator.faults.counts()["events.insert"] > RPCS
    assert sum(emulator.state.schema_violations.values()) == 0
