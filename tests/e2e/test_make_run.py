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
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from agent_service.cli.script import next_working_day
from tests.agent_service.integration.agent_fixtures import booking_request_text
from tests.e2e.agent_processes import (
    CALENDAR_SERVICE,
    CATALOG_SERVICE,
    SALON_ZONE,
    Ports,
    call,
    hermetic_env,
    local_day_range,
    rfc3339,
    running_services,
)
from tests.e2e.processes import BIN, GRPCURL, REPO
from tests.e2e.recipes import check, recipes, run
from tests.process_clock import services_today

README = REPO / "README.md"

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
    root = tmp_path / "repo"  # like the repository root: .data/ and a link to .venv/
    root.mkdir()
    (root / ".venv").symlink_to(BIN.parent, target_is_directory=True)
    data_dir, ports = root / ".data", Ports.free()
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

        # The README's Google Calendar path, with the tokens make run generated (twice: it
        # says it is safe to run again), then a booking with Ana lands on her new calendar.
        for replay in (False, True):
            ana_calendar = google_path(root, services.agent.port, replay)
        day = next_working_day(services_today(SALON_ZONE) + timedelta(days=1))
        booked_again = chat(data_dir, services.agent.port, booking_request_text(day, "11:00"))
        assert "Agendado" in booked_again, booked_again
        moved = call(
            services.calendar.address,
            f"{CALENDAR_SERVICE}/ListEvents",
            {"calendar_id": ana_calendar, "range": local_day_range(day)},
            token=tokens["calendar-agent"],
        )
        assert len(moved["events"]) == 1, moved


def google_path(root: Path, agent_port: int, replay: bool) -> str:
    """Run the README's block; the calendar id it gave Ana."""
    block = recipes(README.read_text(), source="README.md", marker="<!-- google-path")
    # The test's own: the address, and the binary .venv/bin/grpcurl launches.
    provided = {"AGENT": f"127.0.0.1:{agent_port}", "G": GRPCURL}
    variables: dict[str, str] = {**hermetic_env(), **provided}
    for recipe in block:
        if recipe.variable in provided:
            continue
        result = run(recipe, variables, root)
        check(recipe, result, replay)
        if recipe.variable:
            variables[recipe.variable] = result.stdout
    assert any(recipe.kind == "UpdateProfessional" for recipe in block)
    return variables["ANA_CALENDAR"]


def chat(data_dir: Path, agent_port: int, request: str) -> str:
    """The customer's request and a "sim", piped to the chat as the demo's gateway."""
    env = hermetic_env(AGENDA_DATA_DIR=str(data_dir), AGENT_GRPC_PORT=str(agent_port))
    done = subprocess.run(
        [sys.executable, "-m", "agent_service", "chat"], input=f"{request}\nsim\n",
        cwd=REPO, env=env, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


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
