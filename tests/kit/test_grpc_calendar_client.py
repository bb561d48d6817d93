"""``GrpcCalendarAdapter`` against a real calendar gRPC server (port 0, in-memory backend)."""

from __future__ import annotations

import asyncio
import socket
import time
from collections.abc import AsyncIterator, Iterator
from datetime import UTC, datetime, timedelta
from datetime import time as clock_time
from pathlib import Path
from typing import Any

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID
from structlog.contextvars import bound_contextvars, merge_contextvars
from structlog.testing import capture_logs

from agenda_kit.calendar.client_errors import CREDENTIALS_REJECTED_MESSAGE
from agenda_kit.calendar.errors import (
    UNAVAILABLE_MESSAGE,
    CalendarCredentialsError,
    CalendarUnavailableError,
    EventNotFoundError,
    IdempotencyConflictError,
    InvalidCalendarRequestError,
)
from agenda_kit.calendar.grpc_client import GrpcCalendarAdapter
from agenda_kit.calendar.port import (
    EventDraft,
    FreeBusy,
    FreeBusyError,
    Interval,
    SlotRules,
    WeeklyHours,
)
from agenda_kit.deadline import deadline_after
from agenda_kit.grpc.client import open_channel
from agenda_kit.resilience import BreakerState, CircuitBreaker
from agenda_kit.settings import SharedSettings
from calendar_service.bootstrap import CalendarApp, bootstrap
from calendar_service.infrastructure.settings import CalendarSettings
from tests.conftest import TOKEN
from tests.fakes.in_memory_calendar import InMemoryCalendar
from tests.fakes.in_memory_holds import InMemoryHolds
from tests.process_clock import services_now
from tests.waiting import until

MONDAY = datetime(2030, 1, 7, tzinfo=UTC)
FAST_RECONNECT = (
    ("grpc.initial_reconnect_backoff_ms", 50),
    ("grpc.max_reconnect_backoff_ms", 100),
)


class FakeClock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
async def client(calendar_app: CalendarApp) -> AsyncIterator[GrpcCalendarAdapter]:
    async with GrpcCalendarAdapter.connect(
        f"127.0.0.1:{calendar_app.port}", token=TOKEN
    ) as adapter:
        yield adapter


def _draft(calendar_id: str, key: str, start: datetime, minutes: int = 60) -> EventDraft:
    return EventDraft(
        calendar_id=calendar_id,
        summary=f"Consulta {key}",
        description="",
        start=start,
        end=start + timedelta(minutes=minutes),
        idempotency_key=key,
        time_zone="America/Sao_Paulo",
    )


def _state(breaker: CircuitBreaker) -> BreakerState:
    """The breaker's state, read through a call so mypy does not narrow it between asserts."""
    return breaker.state


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@pytest.fixture
def silent_listener() -> Iterator[int]:
    """A port that accepts TCP connections but never speaks HTTP/2: calls hang until deadline."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(16)
        port: int = listener.getsockname()[1]
        yield port


async def _start_app(data_dir: Path, backend: InMemoryCalendar, **settings: Any) -> CalendarApp:
    config = CalendarSettings(auth_tokens=[TOKEN], metrics_port=0, **settings)
    app = await bootstrap(
        config, SharedSettings(AGENDA_DATA_DIR=data_dir), backend=backend, holds=InMemoryHolds()
    )
    await app.start()
    return app


# -- round trips --------------------------------------------------------------------------------


async def test_free_slots_with_weekly_hours_windows_and_busy_time(
    client: GrpcCalendarAdapter,
) -> None:
    await client.insert_event(_draft("cal-1", "busy", MONDAY.replace(hour=13)))
    rules = SlotRules(
        time_zone="America/Sao_Paulo",  # UTC-3, no DST in 2030
        weekly_hours=(
            WeeklyHours(day_of_week=1, start=clock_time(9), end=clock_time(12)),
            WeeklyHours(day_of_week=2, start=clock_time(22), end=None),
        ),
        windows=(
            Interval(MONDAY + timedelta(days=2, hours=13), MONDAY + timedelta(days=2, hours=15)),
        ),
    )
    slots = await client.get_free_slots("cal-1", MONDAY, MONDAY + timedelta(days=3), 60, rules)
    wednesday = MONDAY + timedelta(days=2)
    assert slots == [
        MONDAY.replace(hour=12),
        MONDAY.replace(hour=14),
        wednesday.replace(hour=1),
        wednesday.replace(hour=2),
        wednesday.replace(hour=13),
        wednesday.replace(hour=14),
    ]


async def test_free_busy_of_several_calendars_in_request_order(
    client: GrpcCalendarAdapter,
) -> None:
    await client.insert_event(_draft("cal-a", "a", MONDAY.replace(hour=10)))
    await client.insert_event(_draft("cal-b", "b", MONDAY.replace(hour=11), minutes=30))
    answers = await client.query_free_busy(
        ["cal-b", "missing-x", "cal-a"], MONDAY, MONDAY + timedelta(days=1)
    )
    assert answers == [
        FreeBusy(
            calendar_id="cal-b",
            busy=(Interval(MONDAY.replace(hour=11), MONDAY.replace(hour=11, minute=30)),),
        ),
        FreeBusy(calendar_id="missing-x", error=FreeBusyError.NOT_FOUND),
        FreeBusy(
            calendar_id="cal-a", busy=(Interval(MONDAY.replace(hour=10), MONDAY.replace(hour=11)),)
        ),
    ]


async def test_insert_is_idempotent_and_get_reads_it_back(client: GrpcCalendarAdapter) -> None:
    draft = _draft("cal-1", "appointment-42", MONDAY.replace(hour=9))
    first, created = await client.insert_event(draft)
    again, created_again = await client.insert_event(draft)
    event_id = await client.create_event(
        "cal-1",
        draft.summary,
        "",
        draft.start,
        draft.end,
        idempotency_key="appointment-42",
        time_zone=draft.time_zone,
    )
    assert (created, created_again) == (True, False)
    assert again == first
    assert event_id == first.event_id
    assert await client.get_event("cal-1", event_id) == first
    assert first.start == draft.start
    assert first.time_zone == "America/Sao_Paulo"
    assert first.idempotency_key == "appointment-42"


async def test_cancel_is_true_then_false(client: GrpcCalendarAdapter) -> None:
    event, _ = await client.insert_event(_draft("cal-1", "k", MONDAY))
    assert await client.cancel_event("cal-1", event.event_id) is True
    assert await client.cancel_event("cal-1", event.event_id) is False
    assert (await client.get_event("cal-1", event.event_id)).status == "cancelled"


async def test_list_events_pages_in_start_order(client: GrpcCalendarAdapter) -> None:
    for hour in (14, 9, 12, 10, 11):
        await client.insert_event(_draft("cal-1", f"k{hour}", MONDAY.replace(hour=hour)))
    cancelled, _ = await client.insert_event(_draft("cal-1", "gone", MONDAY.replace(hour=15)))
    await client.cancel_event("cal-1", cancelled.event_id)
    starts: list[int] = []
    sizes: list[int] = []
    token: str | None = None
    while True:
        page = await client.list_events(
            "cal-1", MONDAY, MONDAY + timedelta(days=1), page_size=2, page_token=token
        )
        starts += [event.start.hour for event in page.events]
        sizes.append(len(page.events))
        token = page.next_page_token
        if token is None:
            break
    assert starts == [9, 10, 11, 12, 14]
    assert sizes == [2, 2, 1]
    everything = await client.list_events(
        "cal-1", MONDAY, MONDAY + timedelta(days=1), include_cancelled=True
    )
    assert len(everything.events) == 6


def _self_signed(directory: Path) -> tuple[Path, Path]:
    """A certificate and key for ``localhost``, written as PEM files."""
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "localhost")])
    now = services_now()  # the TLS stack checks validity on the real clock
    certificate = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - timedelta(minutes=1))
        .not_valid_after(now + timedelta(hours=1))
        .add_extension(x509.SubjectAlternativeName([x509.DNSName("localhost")]), critical=False)
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    cert_file, key_file = directory / "cert.pem", directory / "key.pem"
    cert_file.write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
    key_file.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    return cert_file, key_file


async def test_connect_over_tls_with_a_root_certificate(
    tmp_path: Path, in_memory_calendar: InMemoryCalendar
) -> None:
    cert_file, key_file = _self_signed(tmp_path)
    app = await _start_app(
        tmp_path, in_memory_calendar, grpc_port=0, tls_cert_file=cert_file, tls_key_file=key_file
    )
    try:
        async with GrpcCalendarAdapter.connect(
            f"localhost:{app.port}", token=TOKEN, tls_root_cert=cert_file.read_bytes()
        ) as client:
            event, created = await client.insert_event(_draft("cal-1", "tls", MONDAY))
            assert created
            assert await client.get_event("cal-1", event.event_id) == event
    finally:
        await app.stop(0)


async def test_the_bound_request_id_travels_to_the_server(client: GrpcCalendarAdapter) -> None:
    def served() -> list[str]:
        return [entry["request_id"] for entry in logs if entry["event"] == "rpc"]

    with capture_logs(processors=[merge_contextvars]) as logs:
        with bound_contextvars(request_id="req-123"):
            await client.list_events("cal-1", MONDAY, MONDAY + timedelta(days=1))
        await until(lambda: len(served()) == 1, what="the first call's rpc log line")
        await client.list_events("cal-1", MONDAY, MONDAY + timedelta(days=1))
        await until(lambda: len(served()) == 2, what="the second call's rpc log line")
    assert served()[0] == "req-123"
    assert served()[1] != "req-123"


# -- error mapping ------------------------------------------------------------------------------


async def test_bad_input_is_invalid_request_and_never_opens_the_breaker(
    calendar_app: CalendarApp,
) -> None:
    breaker = CircuitBreaker(failure_threshold=1)
    async with GrpcCalendarAdapter.connect(
        f"127.0.0.1:{calendar_app.port}", token=TOKEN, breaker=breaker
    ) as client:
        for _ in range(3):
            with pytest.raises(InvalidCalendarRequestError):
                await client.get_free_slots("cal-1", MONDAY, MONDAY + timedelta(days=1), 0)
        assert client.stats.attempts == 3
        assert _state(breaker) is BreakerState.CLOSED


async def test_naive_datetimes_are_rejected_before_any_call(client: GrpcCalendarAdapter) -> None:
    with pytest.raises(InvalidCalendarRequestError):
        await client.query_free_busy(["cal-1"], datetime(2030, 1, 7), datetime(2030, 1, 8))
    assert client.stats.attempts == 0


async def test_unknown_event_is_event_not_found(client: GrpcCalendarAdapter) -> None:
    with pytest.raises(EventNotFoundError):
        await client.get_event("cal-1", "nope")


async def test_reused_key_for_another_time_is_a_conflict(client: GrpcCalendarAdapter) -> None:
    await client.insert_event(_draft("cal-1", "same", MONDAY))
    with pytest.raises(IdempotencyConflictError):
        await client.insert_event(_draft("cal-1", "same", MONDAY + timedelta(hours=1)))


async def test_unavailable_is_retried_then_reported_with_the_default_message(
    client: GrpcCalendarAdapter, in_memory_calendar: InMemoryCalendar
) -> None:
    in_memory_calendar.fail_with = CalendarUnavailableError()
    with pytest.raises(CalendarUnavailableError) as raised:
        await client.get_event("cal-1", "any")
    assert str(raised.value) == UNAVAILABLE_MESSAGE
    assert (client.stats.attempts, client.stats.retries) == (3, 2)
    assert not isinstance(raised.value.__cause__, CalendarUnavailableError)


async def test_wrong_token_is_a_permanent_credentials_error_and_not_retried(
    calendar_app: CalendarApp,
) -> None:
    async with GrpcCalendarAdapter.connect(
        f"127.0.0.1:{calendar_app.port}", token="wrong"
    ) as client:
        with capture_logs() as logs:
            with pytest.raises(CalendarCredentialsError) as raised:
                await client.get_event("cal-1", "any")
            # The server logs its ``rpc`` line after it answered: wait for it, not for a while.
            served = await until(
                lambda: [entry for entry in logs if entry.get("event") == "rpc"],
                what="the server's rpc log line",
            )
        assert str(raised.value) == CREDENTIALS_REJECTED_MESSAGE
        assert raised.value.reason == "CLIENT_NOT_AUTHORIZED"
        assert client.stats.attempts == 1
        assert client.breaker_state is BreakerState.CLOSED
    client_logs = [entry for entry in logs if entry.get("event") != "rpc"]
    assert [entry["log_level"] for entry in client_logs] == ["error"]
    assert [entry["code"] for entry in served] == ["UNAUTHENTICATED"]


# -- cache --------------------------------------------------------------------------------------


async def test_reads_are_cached_until_this_clients_write_on_that_calendar(
    client: GrpcCalendarAdapter,
) -> None:
    day = (MONDAY, MONDAY + timedelta(days=1))
    assert await client.query_free_busy(["cal-1"], *day) == [FreeBusy(calendar_id="cal-1")]
    slots = await client.get_free_slots("cal-1", *day, 60)
    assert await client.query_free_busy(["cal-1"], *day) == [FreeBusy(calendar_id="cal-1")]
    assert await client.get_free_slots("cal-1", *day, 60) == slots
    assert (client.cache_hits, client.stats.attempts) == (2, 2)

    await client.insert_event(_draft("cal-other", "x", MONDAY))
    await client.query_free_busy(["cal-1"], *day)
    assert client.cache_hits == 3

    event, _ = await client.insert_event(_draft("cal-1", "y", MONDAY.replace(hour=9)))
    busy = await client.query_free_busy(["cal-1"], *day)
    assert busy[0].busy == (Interval(event.start, event.end),)
    assert MONDAY.replace(hour=9) not in await client.get_free_slots("cal-1", *day, 60)
    assert client.cache_hits == 3


async def test_a_read_that_raced_a_write_is_not_cached(client: GrpcCalendarAdapter) -> None:
    day = (MONDAY, MONDAY + timedelta(days=1))
    read = asyncio.create_task(client.query_free_busy(["cal-1"], *day))
    await asyncio.sleep(0)  # the read is now in flight
    await client.insert_event(_draft("cal-1", "racing", MONDAY.replace(hour=9)))
    await read
    answers = await client.query_free_busy(["cal-1"], *day)
    assert client.cache_hits == 0
    assert len(answers[0].busy) == 1


# -- deadlines ----------------------------------------------------------------------------------


async def test_no_write_starts_after_the_callers_deadline(
    client: GrpcCalendarAdapter, in_memory_calendar: InMemoryCalendar
) -> None:
    with deadline_after(0), pytest.raises(CalendarUnavailableError):
        await client.insert_event(_draft("cal-1", "late", MONDAY))
    assert client.stats.attempts == 0
    assert in_memory_calendar.events == {}


async def test_a_hanging_server_fails_within_the_callers_deadline(silent_listener: int) -> None:
    async with GrpcCalendarAdapter.connect(
        f"127.0.0.1:{silent_listener}", token=TOKEN, timeout=CLIENT_TIMEOUT
    ) as client:
        started = time.monotonic()
        with deadline_after(0.2), pytest.raises(CalendarUnavailableError):
            await client.get_event("cal-1", "any")
        # The caller's 0.2 s deadline ended it, not the client's own 60 s timeout (a bound
        # that tells the two apart, not a timing margin).
        assert time.monotonic() - started < CLIENT_TIMEOUT / 2
        assert client.stats.attempts == 1


CLIENT_TIMEOUT = 60.0


async def test_a_server_that_is_down_fails_fast_within_the_deadline() -> None:
    async with GrpcCalendarAdapter.connect(
        f"127.0.0.1:{_free_port()}", token=TOKEN, timeout=CLIENT_TIMEOUT
    ) as client:
        started = time.monotonic()
        with deadline_after(0.2), pytest.raises(CalendarUnavailableError):
            await client.get_free_slots("cal-1", MONDAY, MONDAY + timedelta(days=1), 60)
        assert time.monotonic() - started < CLIENT_TIMEOUT / 2  # the deadline, not the timeout
        assert client.stats.attempts >= 1


# -- circuit breaker ----------------------------------------------------------------------------


async def test_breaker_stops_calling_a_dead_server_and_closes_when_it_is_back(
    tmp_path: Path, in_memory_calendar: InMemoryCalendar
) -> None:
    port = _free_port()
    clock = FakeClock()
    breaker = CircuitBreaker(failure_threshold=5, reset_timeout=10, clock=clock)
    channel = open_channel(
        f"127.0.0.1:{port}", token=TOKEN, timeout=5.0, channel_options=FAST_RECONNECT
    )
    client = GrpcCalendarAdapter(channel, breaker=breaker, max_attempts=3)
    day = (MONDAY, MONDAY + timedelta(days=1))
    try:
        started = time.monotonic()
        for _ in range(20):
            with pytest.raises(CalendarUnavailableError):
                await client.query_free_busy(["cal-1"], *day)
        assert time.monotonic() - started < 5.0  # no call waited its 5 s timeout out
        assert client.stats.attempts == 5  # the open breaker made no further call
        assert _state(breaker) is BreakerState.OPEN

        clock.now += 10  # the trial finds the server still down: open again
        with pytest.raises(CalendarUnavailableError):
            await client.query_free_busy(["cal-1"], *day)
        assert (client.stats.attempts, breaker.state) == (6, BreakerState.OPEN)

        app = await _start_app(tmp_path, in_memory_calendar, grpc_port=port)
        try:
            await asyncio.wait_for(channel.channel_ready(), 5)
            with pytest.raises(CalendarUnavailableError):  # still open until the timeout
                await client.query_free_busy(["cal-1"], *day)
            assert client.stats.attempts == 6
            clock.now += 10
            assert await client.query_free_busy(["cal-1"], *day) == [FreeBusy(calendar_id="cal-1")]
            assert _state(breaker) is BreakerState.CLOSED
        finally:
            await app.stop(0)
    finally:
        await channel.close()
