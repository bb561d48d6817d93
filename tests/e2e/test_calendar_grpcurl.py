"""The calendar service as a process, inspected with the real grpcurl (no proto files)."""

from __future__ import annotations

import json
import signal
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.e2e.processes import ServiceProcess, free_port, grpcurl, running_service

TOKEN = "e2e-calendar-token"
HEADER = f"authorization: Bearer {TOKEN}"


@pytest.fixture(scope="module")
def calendar_process(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServiceProcess]:
    data = tmp_path_factory.mktemp("calendar-e2e")
    port = free_port()
    env = {
        "CALENDAR_GRPC_PORT": str(port),
        "CALENDAR_METRICS_PORT": "0",
        "CALENDAR_AUTH_TOKENS": TOKEN,
        "AGENDA_DATA_DIR": str(data),
        "CALENDAR_BACKEND": "local",
    }
    env.pop("MONGODB_URI", None)
    with running_service("calendar_service", env, port, data / "calendar.log") as service:
        yield service


def test_the_service_runs_on_uvloop_by_default(calendar_process: ServiceProcess) -> None:
    assert calendar_process.logged("server_started")["event_loop"] == "uvloop"


def test_reflection_lists_the_services(calendar_process: ServiceProcess) -> None:
    result = grpcurl("-plaintext", calendar_process.address, "list")
    assert result.returncode == 0, result.stderr
    services = set(result.stdout.split())
    assert {
        "agenda.calendar.v1.CalendarService",
        "grpc.health.v1.Health",
        "grpc.reflection.v1alpha.ServerReflection",
    } <= services


def test_describe_shows_every_rpc(calendar_process: ServiceProcess) -> None:
    result = grpcurl(
        "-plaintext", calendar_process.address, "describe", "agenda.calendar.v1.CalendarService"
    )
    assert result.returncode == 0, result.stderr
    for rpc in (
        "GetFreeSlots",
        "QueryFreeBusy",
        "CreateEvent",
        "GetEvent",
        "CancelEvent",
        "ListEvents",
        "MoveEvent",
    ):
        assert f"rpc {rpc}" in result.stdout


def test_health_check_per_service(calendar_process: ServiceProcess) -> None:
    body = json.dumps({"service": "agenda.calendar.v1.CalendarService"})
    result = grpcurl(
        "-plaintext", "-d", body, calendar_process.address, "grpc.health.v1.Health/Check"
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == {"status": "SERVING"}


def _free_slots_body() -> str:
    return json.dumps(
        {
            "calendarId": "e2e-ana",
            "range": {"start": "2031-03-03T00:00:00Z", "end": "2031-03-04T00:00:00Z"},
            "durationMinutes": 60,
            "timeZone": "America/Sao_Paulo",
            "weeklyHours": [{"dayOfWeek": 1, "startTime": "09:00", "endTime": "12:00"}],
        }
    )


def test_free_slots_with_auth_metadata(calendar_process: ServiceProcess) -> None:
    result = grpcurl(
        "-plaintext",
        "-H",
        HEADER,
        "-d",
        _free_slots_body(),
        calendar_process.address,
        "agenda.calendar.v1.CalendarService/GetFreeSlots",
    )
    assert result.returncode == 0, result.stderr + calendar_process.log()[-3000:]
    reply = json.loads(result.stdout)
    assert reply["slot_starts"] == [
        "2031-03-03T12:00:00Z",
        "2031-03-03T13:00:00Z",
        "2031-03-03T14:00:00Z",
    ]


def test_create_event_then_slot_is_gone(calendar_process: ServiceProcess) -> None:
    event = json.dumps(
        {
            "calendarId": "e2e-ana",
            "summary": "Corte",
            "time": {"start": "2031-03-03T13:00:00Z", "end": "2031-03-03T14:00:00Z"},
            "idempotencyKey": "e2e-key-1",
        }
    )
    method = "agenda.calendar.v1.CalendarService/CreateEvent"
    first = grpcurl("-plaintext", "-H", HEADER, "-d", event, calendar_process.address, method)
    again = grpcurl("-plaintext", "-H", HEADER, "-d", event, calendar_process.address, method)
    assert first.returncode == 0, first.stderr
    assert json.loads(first.stdout)["created"] is True
    assert json.loads(again.stdout).get("created", False) is False
    assert (
        json.loads(first.stdout)["event"]["event_id"]
        == json.loads(again.stdout)["event"]["event_id"]
    )
    slots = grpcurl(
        "-plaintext",
        "-H",
        HEADER,
        "-d",
        _free_slots_body(),
        calendar_process.address,
        "agenda.calendar.v1.CalendarService/GetFreeSlots",
    )
    assert json.loads(slots.stdout)["slot_starts"] == [
        "2031-03-03T12:00:00Z",
        "2031-03-03T14:00:00Z",
    ]


def test_without_token_is_unauthenticated(calendar_process: ServiceProcess) -> None:
    result = grpcurl(
        "-plaintext",
        "-d",
        _free_slots_body(),
        calendar_process.address,
        "agenda.calendar.v1.CalendarService/GetFreeSlots",
    )
    assert result.returncode != 0
    assert "Unauthenticated" in result.stderr


def test_bad_input_is_invalid_argument(calendar_process: ServiceProcess) -> None:
    body = json.dumps({"calendarId": "x", "durationMinutes": 30})
    result = grpcurl(
        "-plaintext",
        "-H",
        HEADER,
        "-d",
        body,
        calendar_process.address,
        "agenda.calendar.v1.CalendarService/GetFreeSlots",
    )
    assert "InvalidArgument" in result.stderr
    assert "range" in result.stderr


def test_sigterm_stops_cleanly(tmp_path: Path) -> None:
    port = free_port()
    env = {
        "CALENDAR_GRPC_PORT": str(port),
        "CALENDAR_METRICS_PORT": "0",
        "CALENDAR_AUTH_TOKENS": TOKEN,
        "AGENDA_DATA_DIR": str(tmp_path),
    }
    with running_service("calendar_service", env, port, tmp_path / "log") as service:
        service.process.send_signal(signal.SIGTERM)
        assert service.process.wait(timeout=30) == 0
        assert "server_stopped" in service.log()
