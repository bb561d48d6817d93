"""``make run`` (``python -m agent_service run``) on a fresh data directory, with no terminal:
both services start on the ports given by ``CALENDAR_GRPC_PORT`` / ``AGENT_GRPC_PORT`` alone
(the agent follows the calendar service's port), the demo salon is seeded, the scripted chat
books an appointment; afterwards the booking is in the agent's records and in the calendar, as
the real grpcurl shows with the tokens the services generated. A port already taken ends
``make run`` with one line naming the setting to change."""

from __future__ import annotations

import re
import socket
import subprocess
import sys
from datetime import datetime
from pathlib import Path

import pytest

from tests.e2e.agent_processes import (
    CALENDAR_SERVICE,
    CATALOG_SERVICE,
    Ports,
    call,
    hermetic_env,
    rfc3339,
    running_services,
)
from tests.e2e.processes import REPO

pytestmark = pytest.mark.slow
_BOOKED = re.compile(r"booked appointments this session: \['([0-9a-f-]{36})'\]")


def _make_run(data_dir: Path, ports: Ports) -> subprocess.CompletedProcess[str]:
    # Only the ports: the agent must dial the calendar where CALENDAR_GRPC_PORT moved it.
    env = hermetic_env(AGENDA_DATA_DIR=str(data_dir), **ports.listening())
    return subprocess.run(
        [sys.executable, "-m", "agent_service", "run"],
        cwd=REPO,
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )


def _logs(data_dir: Path) -> str:
    return "\n".join(
        f"--- {log.name}\n{log.read_text(errors='replace')[-3000:]}"
        for log in sorted((data_dir / "logs").glob("*.log"))
    )


def _instant(value: str) -> datetime:
    return datetime.fromisoformat(value.replace("Z", "+00:00"))


def test_make_run_books_the_demo_appointment(tmp_path: Path) -> None:
    data_dir, ports = tmp_path / "data", Ports.free()
    run = _make_run(data_dir, ports)
    transcript = run.stdout
    assert run.returncode == 0, f"{transcript}\n{run.stderr}\n{_logs(data_dir)}"
    assert f"starting calendar_service on 127.0.0.1:{ports.calendar}" in transcript
    assert f"starting agent_service on 127.0.0.1:{ports.agent}" in transcript
    assert "Confirma" in transcript and "Agendado" in transcript, transcript
    booked = _BOOKED.search(transcript)
    assert booked is not None, transcript
    appointment_id = booked.group(1)

    tenant_id = (data_dir / "demo_tenant_id").read_text().strip()
    tokens = {
        name: (data_dir / "tokens" / f"{name}.token").read_text().strip()
        for name in ("gateway", "backoffice", "operator", "calendar-agent")
    }
    assert all(tokens.values()) and len(set(tokens.values())) == len(tokens)
    for name in tokens:  # make run says which file is which
        assert f"{name}.token" in transcript, transcript
    principals = (data_dir / "principals.toml").read_text()
    assert tenant_id in principals and not any(t in principals for t in tokens.values())

    # devrun stopped the services; start them again on the same data (and tokens).
    with running_services(data_dir, Ports.free()) as services:
        listed = call(
            services.agent.address,
            f"{CATALOG_SERVICE}/ListAppointments",
            {"tenant_id": tenant_id},
            token=tokens["backoffice"],
        )
        (appointment,) = listed["appointments"]
        assert appointment["id"] == appointment_id
        assert appointment["status"] == "APPOINTMENT_STATUS_CONFIRMED"
        assert appointment["service_name"] == "Corte feminino"
        assert appointment["calendar_id"] == "demo-ana"

        start, end = _instant(appointment["start"]), _instant(appointment["end"])
        events = call(
            services.calendar.address,
            f"{CALENDAR_SERVICE}/ListEvents",
            {"calendar_id": "demo-ana", "range": {"start": rfc3339(start), "end": rfc3339(end)}},
            token=tokens["calendar-agent"],
        )
        (event,) = events["events"]
        assert event["event_id"] == appointment["external_event_id"]
        assert event["idempotency_key"] == appointment_id
        assert _instant(event["time"]["start"]) == start
        assert _instant(event["time"]["end"]) == end
        assert event.get("status", "confirmed") == "confirmed"

        # The gateway of the demo tenant cannot read the back office's data.
        with pytest.raises(AssertionError, match="PermissionDenied"):
            call(
                services.agent.address,
                f"{CATALOG_SERVICE}/ListAppointments",
                {"tenant_id": tenant_id},
                token=tokens["gateway"],
            )


def test_make_run_on_a_taken_port_names_the_setting(tmp_path: Path) -> None:
    ports = Ports.free()
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", ports.calendar))
        taken.listen()
        run = _make_run(tmp_path / "data", ports)
    said = run.stdout + run.stderr
    assert run.returncode != 0, said
    assert "Traceback" not in said, said
    (line,) = [line for line in said.splitlines() if "CALENDAR_GRPC_PORT" in line]
    assert f"127.0.0.1:{ports.calendar}" in line and "in use" in line, said
