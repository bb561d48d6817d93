"""Fixtures every test may use: a real calendar gRPC server on port 0 over a fake backend."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import grpc
import pytest

from agenda.calendar.v1 import calendar_service_pb2_grpc as pb_grpc
from agenda_kit.logging import configure_logging
from agenda_kit.settings import SharedSettings
from calendar_service.bootstrap import CalendarApp, bootstrap
from calendar_service.infrastructure.settings import CalendarSettings
from tests.fakes.in_memory_calendar import InMemoryCalendar
from tests.fakes.in_memory_holds import InMemoryHolds

TOKEN = "test-token-calendar"


def pytest_configure(config: pytest.Config) -> None:
    """Plain JSON logs as in production (structlog's default console renderer pretty-prints
    tracebacks with rich, which is very slow on large frames)."""
    configure_logging("INFO", json=True)


AUTH = (("authorization", f"Bearer {TOKEN}"),)


@pytest.fixture
def in_memory_calendar() -> InMemoryCalendar:
    return InMemoryCalendar()


@pytest.fixture
async def calendar_app(
    in_memory_calendar: InMemoryCalendar, tmp_path: Path
) -> AsyncIterator[CalendarApp]:
    settings = CalendarSettings(grpc_port=0, auth_tokens=[TOKEN], metrics_port=0)
    shared = SharedSettings(AGENDA_DATA_DIR=tmp_path)
    app = await bootstrap(settings, shared, backend=in_memory_calendar, holds=InMemoryHolds())
    await app.start()
    yield app
    await app.stop(0)


@pytest.fixture
async def calendar_channel(calendar_app: CalendarApp) -> AsyncIterator[grpc.aio.Channel]:
    async with grpc.aio.insecure_channel(f"127.0.0.1:{calendar_app.port}") as channel:
        yield channel


@pytest.fixture
def calendar_stub(calendar_channel: grpc.aio.Channel) -> pb_grpc.CalendarServiceAsyncStub:
    return pb_grpc.CalendarServiceStub(calendar_channel)
