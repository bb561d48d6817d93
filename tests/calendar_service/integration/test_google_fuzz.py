"""No INTERNAL on anything a caller can send, on the Google backend too: hypothesis-built
requests of every CalendarService RPC (from the descriptors, ``tests.security.fuzzing``: any
field missing, plausible or hostile; and a valid request with one field made hostile) through
a real calendar server whose backend is the strict Google Calendar emulator. Every answer is
OK or a client error (INVALID_ARGUMENT, NOT_FOUND, FAILED_PRECONDITION, ALREADY_EXISTS,
ABORTED for an etag, RESOURCE_EXHAUSTED) with an ``ErrorInfo`` reason, never INTERNAL/UNKNOWN
or a traceback, and the server keeps serving. (The security suite fuzzes the built-in
calendar; this is the provider path: mapping to Google requests and Google's refusals.)"""

from __future__ import annotations

from collections import Counter
from collections.abc import AsyncIterator, Iterator
from datetime import date
from pathlib import Path
from typing import cast

import grpc
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agenda.calendar.v1 import calendar_service_pb2 as pb
from agenda_kit.settings import SharedSettings
from calendar_service.bootstrap import CalendarApp, bootstrap
from tests.conftest import AUTH, TOKEN
from tests.fakes.google_calendar import Emulator
from tests.fakes.google_fixtures import CALENDAR_ID, ServiceAccount, google_settings
from tests.fakes.in_memory_holds import InMemoryHolds
from tests.reliability.scale import size
from tests.security.fuzzing import (
    bad_value,
    calendar_baselines,
    message_values,
    mutate,
    scalar_paths,
)
from tests.security.rpcs import Rpc, invoke
from tests.security.stack import SecurityStack, TenantData

pytestmark = pytest.mark.slow
Code = grpc.StatusCode
CLIENT_ERRORS = frozenset(
    {
        Code.OK,
        Code.INVALID_ARGUMENT,
        Code.NOT_FOUND,
        Code.FAILED_PRECONDITION,
        Code.ALREADY_EXISTS,
        Code.ABORTED,
        Code.RESOURCE_EXHAUSTED,
    }
)
SERVICE = pb.DESCRIPTOR.services_by_name["CalendarService"]
RPCS = [Rpc(SERVICE.full_name, method) for method in SERVICE.methods]
CODES: Counter[str] = Counter()
FUZZ = settings(
    max_examples=size(40, 600),
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=list(HealthCheck),
)


class _Stack:
    """What the request strategies read of a stack: the tenants' calendars and a day."""

    def __init__(self) -> None:
        self.day = date(2031, 3, 4)
        self.tenants = {"A": TenantData(label="A", id="t", name="n", calendars=[CALENDAR_ID])}


STACK = cast(SecurityStack, _Stack())


@pytest.fixture
async def server(
    emulator: Emulator, service_account: ServiceAccount, tmp_path: Path
) -> AsyncIterator[grpc.aio.Channel]:
    settings_ = google_settings(emulator, service_account, TOKEN, hold_sweep_interval_seconds=0)
    app: CalendarApp = await bootstrap(
        settings_, SharedSettings(AGENDA_DATA_DIR=tmp_path), holds=InMemoryHolds()
    )
    await app.start()
    async with grpc.aio.insecure_channel(f"127.0.0.1:{app.port}") as channel:
        yield channel
    await app.stop(0)


@pytest.fixture(scope="module", autouse=True)
def _report() -> Iterator[None]:
    yield
    if CODES:
        print(f"\nFIGURE google fuzz: {sum(CODES.values())} calls -> {dict(CODES)}")


async def _check(channel: grpc.aio.Channel, rpc: Rpc, request: object) -> None:
    outcome = await invoke(channel, rpc, request, AUTH, deadline=30)  # type: ignore[arg-type]
    CODES[outcome.code.name] += 1
    assert outcome.code in CLIENT_ERRORS, (str(rpc), outcome.code, outcome.details, request)
    assert "Traceback" not in outcome.details and 'File "' not in outcome.details, outcome
    if outcome.code is not Code.OK:
        assert outcome.error.reason, (str(rpc), outcome)


@FUZZ
@given(data=st.data())
async def test_fuzzed_requests_on_google_are_client_errors(
    server: grpc.aio.Channel, data: st.DataObject
) -> None:
    rpc = data.draw(st.sampled_from(RPCS), label="rpc")
    values = data.draw(message_values(rpc.method.input_type, STACK), label="fields")
    try:
        request = rpc.request_type(**values)
    except (ValueError, TypeError):  # a value the client library refuses to build
        return
    await _check(server, rpc, request)


@FUZZ
@given(data=st.data())
async def test_one_bad_field_in_a_valid_google_request_is_a_client_error(
    server: grpc.aio.Channel, data: st.DataObject
) -> None:
    rpc = data.draw(st.sampled_from(RPCS), label="rpc")
    request = calendar_baselines(STACK)[rpc.name]
    path, field = data.draw(st.sampled_from(scalar_paths(request)), label="field")
    try:
        mutate(request, path, data.draw(bad_value(field, STACK), label="value"))
    except (ValueError, TypeError):
        return
    await _check(server, rpc, request)
