"""Item 10a: a Google attempt cut short by the caller (its gRPC deadline cancels the handler)
is counted, not lost: outcome "cancelled" in attempts and reason "cancelled" in errors."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

import pytest
from prometheus_client import REGISTRY

from agenda_kit.calendar.port import EventDraft
from calendar_service.infrastructure.google import GoogleCalendarAdapter
from tests.fakes.google_calendar import Emulator
from tests.fakes.google_fixtures import CALENDAR_ID

START = datetime(2031, 5, 5, 12, 0, tzinfo=UTC)


def sample(name: str, **labels: str) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


async def test_an_attempt_cancelled_by_the_caller_is_counted(
    adapter: GoogleCalendarAdapter, emulator: Emulator
) -> None:
    attempts = sample("agenda_google_api_requests_total", method="POST", outcome="cancelled")
    errors = sample("agenda_google_api_errors_total", reason="cancelled")
    emulator.faults.hold("events.insert")  # never released: the attempt hangs
    draft = EventDraft(
        calendar_id=CALENDAR_ID,
        summary="Consulta",
        description="",
        start=START,
        end=START + timedelta(minutes=30),
        idempotency_key="cancelled-by-caller",
    )
    call = asyncio.create_task(adapter.insert_event(draft))
    await emulator.faults.arrived("events.insert").wait()

    call.cancel()  # what grpc does to the handler when the caller's deadline passes
    with pytest.raises(asyncio.CancelledError):
        await call

    after = sample("agenda_google_api_requests_total", method="POST", outcome="cancelled")
    assert after - attempts == 1
    assert sample("agenda_google_api_errors_total", reason="cancelled") - errors == 1
