"""Every grpcurl recipe of ``docs/operations.md``, run with bash and the real grpcurl against both
services as processes, in the order of the page, as an operator would paste them.

The ```bash blocks that use grpcurl are split into shell commands (a command may span lines:
quoted JSON, trailing backslashes). Each is either a variable assignment (``TENANT=$($G ... |
jq -r .tenant.id)``) or a ``$G`` command; both run in a fresh ``bash`` with the variables set so
far, from a directory holding the services' ``.data/`` and a link to the virtualenv, so the
page's ``.venv/bin/grpcurl`` and ``$(cat .data/tokens/...)`` work unchanged. Only ``CAL`` and
``AGENT`` are the test's own (free ports), and the example Monday moves to the next Monday so
the bookings stay within the tenant's horizon.
"""

from __future__ import annotations

import json
import re
import subprocess
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.agent_processes import SALON_ZONE, Ports, hermetic_env, running_services
from tests.e2e.processes import BIN, REPO
from tests.process_clock import services_today

DOC = REPO / "docs" / "operations.md"
EXAMPLE_MONDAY = date(2026, 12, 7)
REQUIRED_KINDS = {"list", "describe", "health", "GetFreeSlots", "SendMessage", "ListAppointments"}
PROVIDED = ("CAL", "AGENT")  # the addresses: the test's processes, not the documented defaults

_ASSIGNMENT = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)=")
_METHOD = re.compile(r"\b((?:[a-z]\w*\.)+[A-Z]\w*)/([A-Z]\w*)\b")
_LIST = re.compile(r"\$(CAL|AGENT)\s+list\b")
_DESCRIBE = re.compile(r"\$(CAL|AGENT)\s+describe\s+([\w.]+)")
_FAILS = re.compile(r"#\s*fails:\s*(\w+)")
_LISTED = {
    "CAL": {"agenda.calendar.v1.CalendarService"},
    "AGENT": {"agenda.agent.v1.AgentService", "agenda.agent.v1.CatalogService"},
}


@dataclass(frozen=True)
class Recipe:
    line: int
    text: str

    @property
    def variable(self) -> str | None:
        """The variable the command assigns, if it is an assignment."""
        match = _ASSIGNMENT.match(self.text)
        return match.group(1) if match else None

    @property
    def runs_grpcurl(self) -> bool:
        return "$G " in self.text

    @property
    def target(self) -> str | None:
        match = re.search(r"\$(CAL|AGENT)\b", self.text)
        return match.group(1) if match else None

    @property
    def method(self) -> str | None:
        match = _METHOD.search(self.text)
        return f"{match.group(1)}/{match.group(2)}" if match else None

    @property
    def kind(self) -> str:
        """``list``, ``describe``, ``health``, the RPC's short name, or ``variable``."""
        if not self.runs_grpcurl:
            return "variable"
        if _LIST.search(self.text):
            return "list"
        if _DESCRIBE.search(self.text):
            return "describe"
        method = self.method
        if method == "grpc.health.v1.Health/Check":
            return "health"
        assert method, f"docs/operations.md:{self.line}: no method in {self.text!r}"
        return method.rsplit("/", 1)[1]

    @property
    def expected_failure(self) -> str | None:
        match = _FAILS.search(self.text)
        return match.group(1) if match else None

    def __str__(self) -> str:
        return f"docs/operations.md:{self.line}: {self.text}"


def _complete(command: str) -> bool:
    """Whether bash parses ``command`` as complete (no open quote, no trailing backslash)."""
    if command.rstrip().endswith("\\"):
        return False
    parsed = subprocess.run(["bash", "-n", "-c", command], capture_output=True, check=False)
    return parsed.returncode == 0


def recipes(markdown: str) -> list[Recipe]:
    """The shell commands of the ```bash blocks that use grpcurl, in order."""
    found: list[Recipe] = []
    lines = markdown.splitlines()
    index = 0
    while index < len(lines):
        if lines[index].strip() != "```bash":
            index += 1
            continue
        end = lines.index("```", index + 1)
        block = lines[index + 1 : end]
        if any("$G " in line or "grpcurl" in line for line in block):
            found += _commands(block, first_line=index + 2)
        index = end + 1
    return found


def _commands(block: list[str], first_line: int) -> list[Recipe]:
    commands: list[Recipe] = []
    pending: list[str] = []
    start = first_line
    for number, line in enumerate(block, start=first_line):
        if not pending and (not line.strip() or line.lstrip().startswith("#")):
            continue
        if not pending:
            start = number
        pending.append(line)
        text = "\n".join(pending)
        if _complete(text):
            commands.append(Recipe(start, text))
            pending = []
    assert not pending, f"docs/operations.md:{start}: unterminated command {pending}"
    for recipe in commands:
        assert recipe.variable or recipe.text.startswith("$G "), (
            f"{recipe}\nneither a variable assignment nor a $G command"
        )
    return commands


def next_monday(today: date) -> date:
    return today + timedelta(days=7 - today.weekday())


def with_day(text: str, monday: date) -> str:
    """The page's example Monday (7 December 2026) moved to ``monday``."""
    forms = {
        EXAMPLE_MONDAY.isoformat(): monday.isoformat(),
        (EXAMPLE_MONDAY + timedelta(days=1)).isoformat(): (monday + timedelta(days=1)).isoformat(),
        f"{EXAMPLE_MONDAY:%d/%m}": f"{monday:%d/%m}",
    }
    return re.sub("|".join(map(re.escape, forms)), lambda m: forms[m.group(0)], text)


def check_reply(recipe: Recipe, reply: Mapping[str, Any]) -> None:
    """The fields that show the recipe did what the page says."""
    kind = recipe.kind
    if kind == "health":
        assert reply == {"status": "SERVING"}, reply
    elif kind == "GetFreeSlots":
        assert reply.get("slot_starts") and reply.get("duration_minutes"), reply
    elif kind == "CreateEvent":
        assert reply["event"]["event_id"] and reply.get("created") is True, reply
    elif kind == "QueryFreeBusy":
        assert reply.get("calendars"), reply
    elif kind == "ListEvents":
        assert reply.get("events"), reply
    elif kind == "MoveEvent":
        assert reply["event"]["event_id"] and reply["event"]["time"]["start"], reply
    elif kind.startswith("Create"):
        (created,) = (value for key, value in reply.items() if key != "created")
        assert created["id"], reply
    elif kind == "SendMessage":
        assert reply.get("reply") and reply.get("conversation_id"), reply
        assert reply.get("status") == "CONVERSATION_STATUS_ACTIVE", reply
    elif kind in {"GetConversation", "HandOff", "HandBack"}:
        assert reply["conversation"]["id"], reply
    elif kind == "ListAppointments":
        assert reply.get("appointments"), reply
        assert all(a["status"] == "APPOINTMENT_STATUS_CONFIRMED" for a in reply["appointments"])
    elif kind == "CancelAppointment":
        assert reply["appointment"]["status"] == "APPOINTMENT_STATUS_CANCELLED", reply
        assert reply.get("cancelled") is True, reply


def _json(text: str, recipe: Recipe) -> dict[str, Any]:
    try:
        parsed = json.loads(text)
    except json.JSONDecodeError as error:
        raise AssertionError(f"{recipe}\nnot JSON ({error}):\n{text}") from error
    assert isinstance(parsed, dict), f"{recipe}\n{text}"
    return parsed


def check(recipe: Recipe, result: subprocess.CompletedProcess[str]) -> None:
    output = f"{recipe}\n--- exit {result.returncode}\n{result.stdout}\n--- stderr\n{result.stderr}"
    if code := recipe.expected_failure:
        assert result.returncode != 0 and f"Code: {code}" in result.stderr, output
        return
    assert result.returncode == 0, output
    if recipe.variable:
        value = result.stdout.strip()
        assert value and value != "null", output
        if recipe.runs_grpcurl and result.stderr.strip():  # ``| tee /dev/stderr``
            check_reply(recipe, _json(result.stderr, recipe))
        return
    if recipe.kind == "list":
        assert recipe.target
        expected = _LISTED[recipe.target] | {
            "grpc.health.v1.Health",
            "grpc.reflection.v1alpha.ServerReflection",
        }
        assert expected <= set(result.stdout.split()), output
    elif recipe.kind == "describe":
        match = _DESCRIBE.search(recipe.text)
        assert match and f"{match.group(2)} is a " in result.stdout, output
    else:
        try:
            check_reply(recipe, _json(result.stdout, recipe))
        except (AssertionError, KeyError, ValueError) as error:
            raise AssertionError(f"{output}\n{error!r}") from error


def run(
    recipe: Recipe, variables: Mapping[str, str], cwd: Path
) -> subprocess.CompletedProcess[str]:
    script = f"set -euo pipefail\n{recipe.text}\n"
    if recipe.variable:
        script += f'printf %s "${recipe.variable}"\n'
    return subprocess.run(
        ["bash", "-c", script],
        cwd=cwd,
        env=dict(variables),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_the_page_has_every_required_recipe() -> None:
    found = recipes(DOC.read_text())
    kinds = {recipe.kind for recipe in found}
    assert kinds >= REQUIRED_KINDS, f"missing recipes: {REQUIRED_KINDS - kinds}"
    assigned = {recipe.variable for recipe in found}
    assert {"G", *PROVIDED} <= assigned, assigned
    assert any(recipe.expected_failure == "Unauthenticated" for recipe in found)
    assert EXAMPLE_MONDAY.isoformat() in DOC.read_text()


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, Ports]]:
    """A directory like the repository root: ``.venv`` (a link) and ``.data`` of the services,
    with nothing configured: the first server generates the per-role tokens and principals."""
    root = tmp_path_factory.mktemp("operations")
    (root / ".venv").symlink_to(BIN.parent, target_is_directory=True)
    ports = Ports.free()
    with running_services(root / ".data", ports):
        yield root, ports


def test_every_recipe_runs(workdir: tuple[Path, Ports]) -> None:
    root, ports = workdir
    found = recipes(DOC.read_text())
    monday = next_monday(services_today(SALON_ZONE))
    provided = {"CAL": f"127.0.0.1:{ports.calendar}", "AGENT": f"127.0.0.1:{ports.agent}"}
    variables = {k: v for k, v in hermetic_env().items() if k not in {r.variable for r in found}}
    ran: list[str] = []
    for recipe in found:
        if recipe.variable in provided:
            variables[recipe.variable] = provided[recipe.variable]
            continue
        recipe = Recipe(recipe.line, with_day(recipe.text, monday))
        result = run(recipe, variables, root)
        check(recipe, result)
        if recipe.variable:
            variables[recipe.variable] = result.stdout
        ran.append(recipe.kind)
    assert set(ran) >= REQUIRED_KINDS, ran
    assert ran.count("SendMessage") >= 2, ran  # the question and the "sim" that books
