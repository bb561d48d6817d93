"""The Kubernetes overlay's first tenant, without a cluster: render ``deploy/kubernetes/
overlays/example``, start both services as processes from its settings and Secrets (the
ConfigMap, the principals files, the agent's calendar token), run the bootstrap Job's own
command and arguments (only the agent's address and the Secret mount point are local), add the
back-office table it prints to the principals file as the Job's comment says, then fill the
catalog with that back office and book as the example gateway. The Job run twice creates
nothing new."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from agent_service.cli.script import next_working_day
from tests.deploy.kustomize import Object, render
from tests.e2e.agent_processes import (
    AGENT_SERVICE,
    CATALOG_SERVICE,
    SALON_ZONE,
    Ports,
    call,
    hermetic_env,
    running_services,
)
from tests.e2e.processes import REPO, grpcurl
from tests.process_clock import services_today

pytestmark = pytest.mark.slow
OVERLAY = REPO / "deploy" / "kubernetes" / "overlays" / "example"
MOUNT = "/etc/agenda/bootstrap"
LOCAL_ONLY = {"AGENDA_DATA_DIR", "AGENT_CALENDAR_ADDR", "AGENT_GRPC_HOST", "CALENDAR_GRPC_HOST"}
"""ConfigMap settings that name the cluster (paths, DNS names, interfaces): set locally."""


def named(objects: list[Object], kind: str) -> dict[str, Object]:
    return {o["metadata"]["name"]: o for o in objects if o["kind"] == kind}


def job_command(job: Object, address: str, mounted: Path) -> list[str]:
    """The Job container's command and arguments, with the local address and mount point."""
    (container,) = job["spec"]["template"]["spec"]["containers"]
    command, args = list(container["command"]), list(container["args"])
    assert command[:3] == ["python", "-m", "agent_service"], command
    args[args.index("--address") + 1] = address
    return [sys.executable, *command[1:], *(a.replace(MOUNT, str(mounted)) for a in args)]


def bootstrap(command: list[str]) -> tuple[str, str]:
    """Run the Job's command: the tenant id and the ``[[principal]]`` table it printed."""
    done = subprocess.run(
        command, cwd=REPO, env=hermetic_env(), capture_output=True, text=True, timeout=120,
        check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    tenant = re.search(r"^tenant: ([0-9a-f-]{36}) ", done.stdout, re.MULTILINE)
    assert tenant is not None, done.stdout
    table = done.stdout[done.stdout.index("[[principal]]") :]
    return tenant.group(1), table


def test_the_overlay_bootstraps_a_tenant_that_books(tmp_path: Path) -> None:
    objects = render(OVERLAY)
    secrets = {name: s["stringData"] for name, s in named(objects, "Secret").items()}
    config = named(objects, "ConfigMap")["agenda-config"]["data"]
    (job,) = named(objects, "Job").values()
    principals = tmp_path / "principals.toml"  # one file: each service ignores others' roles
    principals.write_text(
        secrets["agenda-agent-principals"]["principals.toml"]
        + "\n"
        + secrets["agenda-calendar-principals"]["principals.toml"]
    )
    mounted = tmp_path / "bootstrap"
    mounted.mkdir()
    for key, value in secrets["agenda-bootstrap"].items():
        (mounted / key).write_text(value)
    settings = {k: v for k, v in config.items() if k not in LOCAL_ONLY}
    ports = Ports.free()
    with running_services(
        tmp_path / "data",
        ports,
        **settings,
        AGENDA_PRINCIPALS_FILE=str(principals),
        AGENT_CALENDAR_TOKEN=secrets["agenda-calendar-auth"]["agent-token"],
    ) as services:
        command = job_command(job, services.agent.address, mounted)
        tenant_id, table = bootstrap(command)
        assert bootstrap(command) == (tenant_id, table)  # the Job again: the same tenant
        with principals.open("a") as file:  # what the Job's comment asks an operator to do
            file.write("\n" + table)
        office = secrets["agenda-bootstrap"]["office-token"]
        gateway = secrets["agenda-agent-auth"]["gateway-token"]
        professional = fill_catalog(services.agent.address, tenant_id, office)
        book(services.agent.address, tenant_id, gateway, professional)


def fill_catalog(address: str, tenant_id: str, office: str) -> dict[str, Any]:
    """A service and a professional on a calendar the back office was granted."""
    service = call(address, f"{CATALOG_SERVICE}/CreateService", {
        "service": {"tenant_id": tenant_id, "name": "Corte feminino", "duration_minutes": 60,
                    "price_minor": 8000, "currency": "BRL"},
        "idempotency_key": "svc-corte",
    }, token=office)["service"]  # fmt: skip
    hours = [{"day_of_week": d, "start_time": "09:00", "end_time": "18:00"} for d in range(1, 7)]
    professional = {"tenant_id": tenant_id, "name": "Ana", "calendar_id": "exemplo-ana",
                    "service_ids": [service["id"]], "weekly_hours": hours}  # fmt: skip
    outside = grpcurl(
        "-plaintext", "-H", f"authorization: Bearer {office}", "-d",
        f'{{"professional": {{"tenant_id": "{tenant_id}", "name": "Bia", '
        f'"calendar_id": "other-bia"}}, "idempotency_key": "pro-bia"}}',
        address, f"{CATALOG_SERVICE}/CreateProfessional",
    )  # fmt: skip
    assert "PermissionDenied" in outside.stderr, outside.stderr  # not a granted calendar
    created = call(
        address,
        f"{CATALOG_SERVICE}/CreateProfessional",
        {"professional": professional, "idempotency_key": "pro-ana"},
        token=office,
    )
    return dict(created["professional"])


def book(address: str, tenant_id: str, gateway: str, professional: dict[str, Any]) -> None:
    day = next_working_day(services_today(SALON_ZONE))
    customer = {"channel": "whatsapp", "external_id": "+5511999990000", "display_name": "Maria"}
    asked = call(address, f"{AGENT_SERVICE}/SendMessage", {
        "tenant_id": tenant_id, "customer": customer, "message_id": "wamid-1",
        "text": f"Quero agendar um corte feminino com a Ana dia {day:%d/%m} às 10:00",
    }, token=gateway)  # fmt: skip
    assert "Confirma" in asked["reply"], asked
    done = call(address, f"{AGENT_SERVICE}/SendMessage", {
        "tenant_id": tenant_id, "customer": customer, "message_id": "wamid-2", "text": "sim",
        "conversation_id": asked["conversation_id"],
    }, token=gateway)  # fmt: skip
    (action,) = done["actions"]
    assert action["kind"] == "ACTION_KIND_APPOINTMENT_BOOKED", done
    assert action["appointment"]["professional_id"] == professional["id"]
