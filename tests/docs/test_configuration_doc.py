"""docs/configuration.md documents every setting, with its real env var name and default."""

from __future__ import annotations

import ast
import re
from enum import Enum
from pathlib import Path

import pytest
from pydantic_core import PydanticUndefined
from pydantic_settings import BaseSettings

from agenda_kit.settings import SharedSettings
from agent_service.infrastructure.settings import AgentSettings
from calendar_service.infrastructure.settings import CalendarSettings
from gateways.whatsapp.settings import WhatsAppSettings

REPO = Path(__file__).resolve().parents[2]
DOC = REPO / "docs" / "configuration.md"
CLI_CLIENTS = REPO / "agent_service" / "cli" / "clients.py"
SETTINGS: tuple[type[BaseSettings], ...] = (
    SharedSettings,
    CalendarSettings,
    AgentSettings,
    WhatsAppSettings,
)
UNSET = "unset"


def env_defaults(settings: type[BaseSettings]) -> dict[str, object]:
    """Env var name → default: the alias when there is one, else prefix + NAME."""
    prefix = str(settings.model_config.get("env_prefix", ""))
    return {
        (field.alias or f"{prefix}{name}").upper(): field.default
        for name, field in settings.model_fields.items()
    }


def all_settings() -> dict[str, object]:
    names: dict[str, object] = {}
    for settings in SETTINGS:
        names.update(env_defaults(settings))
    return names


def cli_variables() -> set[str]:
    """Every ``os.environ.get("NAME", ...)`` literal in the CLI's clients module."""
    tree = ast.parse(CLI_CLIENTS.read_text())
    return {
        node.args[0].value
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "get"
        and node.args
        and isinstance(node.args[0], ast.Constant)
        and isinstance(node.args[0].value, str)
    }


def rendered(default: object) -> str | None:
    """How the doc writes a default; None for "no default" (the doc says unset)."""
    if default is None or default == [] or default is PydanticUndefined:
        return None
    if isinstance(default, bool):
        return str(default).lower()
    if isinstance(default, Enum):
        return str(default.value)
    if isinstance(default, float):
        return f"{default:g}"
    return str(default)


def table_rows() -> dict[str, list[str]]:
    """First-column env var → the row's cells, from every Markdown table in the doc."""
    rows: dict[str, list[str]] = {}
    for line in DOC.read_text().splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        match = re.fullmatch(r"`([A-Z][A-Z0-9_]+)`", cells[0]) if line.startswith("|") else None
        if match:
            rows[match.group(1)] = cells
    return rows


@pytest.mark.parametrize("name", sorted(all_settings()))
def test_every_setting_has_a_row_with_its_default(name: str) -> None:
    rows = table_rows()
    assert name in rows, f"{name} is a setting but has no row in {DOC.name}"
    default_cell = rows[name][1]
    expected = rendered(all_settings()[name])
    if expected is None:
        assert default_cell.startswith(UNSET), f"{name}: default should read '{UNSET} …'"
    else:
        assert f"`{expected}`" in default_cell, f"{name}: default should show `{expected}`"


@pytest.mark.parametrize("name", sorted(cli_variables()))
def test_every_cli_variable_is_documented(name: str) -> None:
    assert name in table_rows(), f"{name} is read by the CLI but has no row in {DOC.name}"


def test_the_doc_lists_no_setting_that_does_not_exist() -> None:
    known = set(all_settings()) | cli_variables()
    prefixes = ("CALENDAR_", "AGENT_", "WHATSAPP_")
    documented = {name for name in table_rows() if name.startswith(prefixes)}
    assert documented - known == set()
