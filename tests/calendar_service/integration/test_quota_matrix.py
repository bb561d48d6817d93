"""The quota and credential matrix, through the calendar service (gRPC → Google backend → the
emulator failing the way Google fails): for every 403 reason, 429, a refused key
(``invalid_grant``) and the token endpoint down — the status code, the ``ErrorInfo`` reason,
whether ``RetryInfo`` comes with it, the Google requests each RPC cost once the budget is
exhausted (≤ 1), and recovery once Google answers again and the cooldown passed."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

import grpc
import pytest
from google.protobuf.timestamp_pb2 import Timestamp

from agenda.calendar.v1 import calendar_service_pb2 as pb
from agenda.calendar.v1 import calendar_service_pb2_grpc as pb_grpc
from agenda_kit.errors import details_of
from agenda_kit.settings import SharedSettings
from calendar_service.bootstrap import CalendarApp, bootstrap
from calendar_service.infrastructure.google import GoogleCalendarAdapter
from tests.fakes.google_calendar import Emulator
from tests.fakes.google_faults import Fault
from tests.fakes.google_fixtures import CALENDAR_ID, ServiceAccount, google_settings
from tests.fakes.in_memory_holds import InMemoryHolds

TOKEN = "matrix-token"
AUTH = (("authorization", f"Bearer {TOKEN}"),)
T0 = datetime(2032, 5, 3, 9, 0, tzinfo=UTC)
RPCS = 4
"""RPCs sent once the budget is exhausted (after the threshold's RPCs)."""


@dataclass(frozen=True)
class Row:
    name: str
    route: str
    fault: Fault
    code: grpc.StatusCode
    reason: str
    retry: bool
    exhausts: bool
    """A quota row: once the gate opened, each RPC may cost Google at most one request."""


Q, F, U = (
    grpc.StatusCode.RESOURCE_EXHAUSTED,
    grpc.StatusCode.FAILED_PRECONDITION,
    grpc.StatusCode.UNAVAILABLE,
)
INSERT = "events.insert"
REVOKED = "revoked key"
"""Not a fault: the service account's key is unknown to the token endpoint (``invalid_grant``)."""
ROWS = [
    Row(
        "403 quotaExceeded",
        INSERT,
        Fault.error(403, "quotaExceeded"),
        Q,
        "QUOTA_EXCEEDED",
        True,
        True,
    ),
    Row(
        "403 dailyLimitExceeded",
        "*",
        Fault.error(403, "dailyLimitExceeded"),
        Q,
        "DAILY_LIMIT_EXCEEDED",
        True,
        True,
    ),
    Row(
        "403 rateLimitExceeded",
        "*",
        Fault.error(403, "rateLimitExceeded"),
        Q,
        "RATE_LIMITED",
        True,
        True,
    ),
    Row(
        "403 userRateLimitExceeded",
        "*",
        Fault.error(403, "userRateLimitExceeded"),
        Q,
        "RATE_LIMITED",
        True,
        True,
    ),
    Row("429", "*", Fault.error(429, "rateLimitExceeded"), Q, "RATE_LIMITED", True, True),
    Row(
        "429 Retry-After",
        "*",
        Fault.error(429, "rateLimitExceeded", retry_after=9),
        Q,
        "RATE_LIMITED",
        True,
        True,
    ),
    Row(
        "403 forbidden",
        INSERT,
        Fault.error(403, "forbidden"),
        F,
        "CALENDAR_ACCESS_DENIED",
        False,
        False,
    ),
    Row(
        "403 requiredAccessLevel",
        INSERT,
        Fault.error(403, "requiredAccessLevel"),
        F,
        "CALENDAR_ACCESS_DENIED",
        False,
        False,
    ),
    Row(
        "403 insufficientPermissions",
        INSERT,
        Fault.error(403, "insufficientPermissions"),
        F,
        "CALENDAR_ACCESS_DENIED",
        False,
        False,
    ),
    Row(
        "403 forbiddenForNonOrganizer",
        INSERT,
        Fault.error(403, "forbiddenForNonOrganizer"),
        F,
        "ORGANIZER_ONLY",
        False,
        False,
    ),
    Row(
        "403 forbiddenForServiceAccounts",
        INSERT,
        Fault.error(403, "forbiddenForServiceAccounts"),
        F,
        "ATTENDEES_NOT_ALLOWED",
        False,
        False,
    ),
    Row(
        "403 accessNotConfigured",
        "*",
        Fault.error(403, "accessNotConfigured"),
        F,
        "CREDENTIALS_INVALID",
        False,
        False,
    ),
    Row(
        "token endpoint down",
        "token",
        Fault.error(503, "backendError"),
        U,
        "PROVIDER_UNAVAILABLE",
        True,
        False,
    ),
    Row("invalid_grant", REVOKED, Fault(), F, "CREDENTIALS_INVALID", False, True),
]


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


@dataclass
class Running:
    app: CalendarApp
    stub: pb_grpc.CalendarServiceAsyncStub
    clock: Clock


@pytest.fixture
async def running(
    emulator: Emulator, service_account: ServiceAccount, tmp_path: Path
) -> AsyncIterator[Running]:
    settings = google_settings(
        emulator,
        service_account,
        TOKEN,
        google_max_attempts=3,
        google_quota_threshold=2,
        google_quota_cooldown_seconds=60.0,
        google_credentials_cooldown_seconds=60.0,
    )
    app = await bootstrap(settings, SharedSettings(AGENDA_DATA_DIR=tmp_path), holds=InMemoryHolds())
    backend = app.backend
    assert isinstance(backend, GoogleCalendarAdapter)
    clock = Clock()
    backend.gates.clock = clock
    await app.start()
    async with grpc.aio.insecure_channel(f"127.0.0.1:{app.port}") as channel:
        yield Running(app, pb_grpc.CalendarServiceStub(channel), clock)
    await app.stop(0)


def _stamp(value: datetime) -> Timestamp:
    stamp = Timestamp()
    stamp.FromDatetime(value)
    return stamp


def create(n: int) -> pb.CreateEventRequest:
    start = T0 + timedelta(hours=n)
    return pb.CreateEventRequest(
        calendar_id=CALENDAR_ID,
        summary="Visit",
        time=pb.TimeRange(start=_stamp(start), end=_stamp(start + timedelta(minutes=30))),
        idempotency_key=f"matrix-{n}",
    )


async def send(
    running: Running, emulator: Emulator, n: int
) -> tuple[grpc.aio.AioRpcError | None, int]:
    """One CreateEvent: its error (None: it succeeded) and the Google requests it cost."""
    before = len(emulator.faults.calls)
    try:
        await running.stub.CreateEvent(create(n), metadata=AUTH, timeout=20)
    except grpc.aio.AioRpcError as error:
        return error, len(emulator.faults.calls) - before
    return None, len(emulator.faults.calls) - before


@pytest.mark.parametrize("row", ROWS, ids=[row.name for row in ROWS])
async def test_quota_and_credential_matrix(running: Running, emulator: Emulator, row: Row) -> None:
    emulator.oauth.revoke_all()  # every row starts with a token to fetch
    accounts = dict(emulator.oauth.accounts)
    if row.route == REVOKED:
        emulator.oauth.accounts.clear()
    else:
        emulator.faults.fail_always(row.route, row.fault)
    first, _ = await send(running, emulator, 0)
    assert first is not None
    details = details_of(first)
    assert (first.code(), details.reason, details.domain) == (
        row.code,
        row.reason,
        "calendar.agenda",
    )
    assert (details.retry_delay is not None) is row.retry, details
    assert CALENDAR_ID not in (first.details() or "")
    costs = []
    for n in range(1, 3 + RPCS if row.exhausts else 2):
        error, cost = await send(running, emulator, n)
        assert error is not None and details_of(error).reason == row.reason
        costs.append(cost)
    print(f"\n{row.name}: {row.code.name} {row.reason}, Google requests per RPC {costs}")
    if row.exhausts:
        assert max(costs[-RPCS:]) <= 1, costs  # the budget: at most one request per RPC
    emulator.faults.clear()
    emulator.oauth.accounts.update(accounts)
    running.clock.now += 2 * 86_400.0  # every cooldown has passed (the daily one too)
    recovered, _ = await send(running, emulator, 99)
    assert recovered is None
