"""Every grpcurl recipe of ``docs/operations.md``, run with bash and the real grpcurl against both
services as processes, in the order of the page, as an operator would paste them — and then the
whole page a second time, which must work too, every write answered as an idempotent replay.

The ```bash blocks that use grpcurl are split into shell commands (``tests/e2e/recipes.py``).
Each runs in a fresh ``bash`` with the variables set so far, from a directory holding the
services' ``.data/`` and a link to the virtualenv, so the page's ``.venv/bin/grpcurl`` and
``$(cat .data/tokens/...)`` work unchanged. Only ``CAL``, ``AGENT`` (free ports) and ``G`` (the
binary ``.venv/bin/grpcurl`` launches) are the test's own, and the example Monday moves to the
next Monday so the bookings stay within the tenant's horizon.
"""

from __future__ import annotations

import re
from datetime import date, timedelta
from pathlib import Path

from tests.e2e.agent_processes import SALON_ZONE, Ports, ZeroConfig, hermetic_env
from tests.e2e.processes import GRPCURL, REPO
from tests.e2e.recipes import Recipe, check, recipes, run
from tests.process_clock import services_today

DOC = REPO / "docs" / "operations.md"
EXAMPLE_MONDAY = date(2026, 12, 7)
REQUIRED_KINDS = {
    "list", "describe", "health", "GetFreeSlots", "SendMessage", "ListAppointments",
    "UpdateProfessional",
}  # fmt: skip
PROVIDED = ("CAL", "AGENT")  # the addresses: the test's processes, not the documented defaults


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


def test_the_page_has_every_required_recipe() -> None:
    found = recipes(DOC.read_text())
    kinds = {recipe.kind for recipe in found}
    assert kinds >= REQUIRED_KINDS, f"missing recipes: {REQUIRED_KINDS - kinds}"
    assigned = {recipe.variable for recipe in found}
    assert {"G", *PROVIDED} <= assigned, assigned
    assert any(recipe.expected_failure == "Unauthenticated" for recipe in found)
    assert EXAMPLE_MONDAY.isoformat() in DOC.read_text()


def run_page(root: Path, ports: Ports, replay: bool) -> list[str]:
    """Every recipe of the page in order, as one shell session would; the kinds that ran."""
    found = recipes(DOC.read_text())
    monday = next_monday(services_today(SALON_ZONE))
    provided = {
        "CAL": f"127.0.0.1:{ports.calendar}",
        "AGENT": f"127.0.0.1:{ports.agent}",
        "G": GRPCURL,  # the binary .venv/bin/grpcurl launches: no Python start per call
    }
    variables = {k: v for k, v in hermetic_env().items() if k not in {r.variable for r in found}}
    ran: list[str] = []
    for recipe in found:
        if recipe.variable in provided:
            variables[recipe.variable] = provided[recipe.variable]
            continue
        recipe = Recipe(recipe.line, with_day(recipe.text, monday))
        result = run(recipe, variables, root)
        check(recipe, result, replay)
        if recipe.variable:
            variables[recipe.variable] = result.stdout
        ran.append(recipe.kind)
    return ran


def test_every_recipe_runs_and_runs_again(zero_config: ZeroConfig) -> None:
    """On the zero-config services (tests/e2e/conftest.py): the first server generated the
    per-role tokens and principals, nothing else is configured."""
    root, ports = zero_config.root, zero_config.ports
    ran = run_page(root, ports, replay=False)
    assert set(ran) >= REQUIRED_KINDS, ran
    assert ran.count("SendMessage") >= 2, ran  # the question and the "sim" that books
    assert run_page(root, ports, replay=True) == ran  # the page once more, top to bottom
