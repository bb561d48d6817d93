"""Shell recipes of the docs as an operator pastes them: the ```bash blocks that use grpcurl,
split into commands (a command may span lines: quoted JSON, trailing backslashes), each run in
a fresh ``bash`` with the variables set so far, and their output checked.

Each command is either a variable assignment (``TENANT=$($G ... | jq -r .tenant.id)``) or a
``$G`` command. A comment ``# fails: CODE`` means the command must fail with that status.
``tests/e2e/test_operations_recipes.py`` runs docs/operations.md twice in a row with it (the
second pass must show every write as an idempotent replay), ``tests/e2e/test_make_run.py``
the README's Google Calendar block.
"""

from __future__ import annotations

import json
import re
import subprocess
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

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
    source: str = "docs/operations.md"

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
        assert method, f"{self.source}:{self.line}: no method in {self.text!r}"
        return method.rsplit("/", 1)[1]

    @property
    def expected_failure(self) -> str | None:
        match = _FAILS.search(self.text)
        return match.group(1) if match else None

    def __str__(self) -> str:
        return f"{self.source}:{self.line}: {self.text}"


def _complete(command: str) -> bool:
    """Whether bash parses ``command`` as complete (no open quote, no trailing backslash)."""
    if command.rstrip().endswith("\\"):
        return False
    parsed = subprocess.run(["bash", "-n", "-c", command], capture_output=True, check=False)
    return parsed.returncode == 0


def recipes(
    markdown: str, source: str = "docs/operations.md", marker: str | None = None
) -> list[Recipe]:
    """The shell commands of the ```bash blocks that use grpcurl, in order; with ``marker``,
    only those of the first block after the line holding it."""
    found: list[Recipe] = []
    lines = markdown.splitlines()
    index = 0 if marker is None else next(i for i, line in enumerate(lines) if marker in line)
    while index < len(lines):
        if lines[index].strip() != "```bash":
            index += 1
            continue
        end = lines.index("```", index + 1)
        block = lines[index + 1 : end]
        if any("$G " in line or "grpcurl" in line for line in block):
            found += _commands(block, first_line=index + 2, source=source)
            if marker is not None:
                break
        index = end + 1
    return found


def _commands(block: list[str], first_line: int, source: str) -> list[Recipe]:
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
            commands.append(Recipe(start, text, source))
            pending = []
    assert not pending, f"{source}:{start}: unterminated command {pending}"
    for recipe in commands:
        assert recipe.variable or recipe.text.startswith("$G "), (
            f"{recipe}\nneither a variable assignment nor a $G command"
        )
    return commands


def check_reply(recipe: Recipe, reply: Mapping[str, Any], replay: bool = False) -> None:
    """The fields that show the recipe did what the page says. On a ``replay`` (the page run
    a second time) every write must be an idempotent replay: the same event, tenant, record
    or stored reply, a cancel that finds the appointment already cancelled."""
    kind = recipe.kind
    if kind == "health":
        assert reply == {"status": "SERVING"}, reply
    elif kind == "GetFreeSlots":
        assert reply.get("slot_starts") and reply.get("duration_minutes"), reply
    elif kind == "CreateEvent":
        assert reply["event"]["event_id"] and reply.get("created", False) is not replay, reply
    elif kind == "QueryFreeBusy":
        assert reply.get("calendars"), reply
    elif kind == "ListEvents":
        assert reply.get("events"), reply
    elif kind == "MoveEvent":
        assert reply["event"]["event_id"] and reply["event"]["time"]["start"], reply
    elif kind.startswith("Create"):
        (created,) = (value for key, value in reply.items() if key != "created")
        assert created["id"], reply
    elif kind == "UpdateProfessional":
        assert reply["professional"]["id"] and reply["professional"]["calendar_id"], reply
    elif kind == "SendMessage":
        assert reply.get("reply") and reply.get("conversation_id"), reply
        assert reply.get("status") == "CONVERSATION_STATUS_ACTIVE", reply
        assert reply.get("duplicate", False) is replay, reply  # a message id answers once
    elif kind in {"GetConversation", "HandOff", "HandBack"}:
        assert reply["conversation"]["id"], reply
    elif kind == "ListAppointments":
        assert reply.get("appointments"), reply
    elif kind == "CancelAppointment":
        assert reply["appointment"]["status"] == "APPOINTMENT_STATUS_CANCELLED", reply
        assert reply.get("cancelled", False) is not replay, reply


def _json(text: str, recipe: Recipe) -> dict[str, Any]:
    try:
        parsed = json.loads(text)
    except json.JSONDecodeError as error:
        raise AssertionError(f"{recipe}\nnot JSON ({error}):\n{text}") from error
    assert isinstance(parsed, dict), f"{recipe}\n{text}"
    return parsed


def check(recipe: Recipe, result: subprocess.CompletedProcess[str], replay: bool = False) -> None:
    output = f"{recipe}\n--- exit {result.returncode}\n{result.stdout}\n--- stderr\n{result.stderr}"
    if code := recipe.expected_failure:
        assert result.returncode != 0 and f"Code: {code}" in result.stderr, output
        return
    assert result.returncode == 0, output
    if recipe.variable:
        value = result.stdout.strip()
        assert value and value != "null", output
        if recipe.runs_grpcurl and result.stderr.strip():  # ``| tee /dev/stderr``
            check_reply(recipe, _json(result.stderr, recipe), replay)
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
            check_reply(recipe, _json(result.stdout, recipe), replay)
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
