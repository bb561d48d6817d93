"""The Makefile's targets agree with themselves and with the README: ``.PHONY`` names only
targets that exist, every documented target (``## help``) is in the README's table, and the
tiers ``make test-*`` select are the markers ``tests/conftest.py`` gives the folders."""

from __future__ import annotations

import re
from pathlib import Path

from tests.conftest import TIERS

REPO = Path(__file__).resolve().parents[2]
MAKEFILE = (REPO / "Makefile").read_text()
README = (REPO / "README.md").read_text()


def phony() -> set[str]:
    match = re.search(r"^\.PHONY:((?:.*\\\n)*.*)$", MAKEFILE, re.MULTILINE)
    assert match, "no .PHONY line"
    return set(match.group(1).replace("\\\n", " ").split())


def targets() -> set[str]:
    return set(re.findall(r"^([a-z][a-z0-9-]*):", MAKEFILE, re.MULTILINE))


def documented() -> set[str]:
    return set(re.findall(r"^([a-z][a-z0-9-]*):.*?## ", MAKEFILE, re.MULTILINE))


def test_phony_names_only_real_targets_and_every_documented_one() -> None:
    assert phony() <= targets(), phony() - targets()
    assert documented() <= phony(), documented() - phony()


def test_every_documented_target_is_in_the_readme_table() -> None:
    table = {m for row in re.findall(r"^\| (.*?) \|", README, re.MULTILINE)
             for m in re.findall(r"`make ([a-z0-9-]+)`", row)}  # fmt: skip
    assert documented() <= table, documented() - table


def test_the_tier_targets_select_the_folder_markers() -> None:
    selected = set(re.findall(r'\$\(PYTEST(?:_TIERS)?\) -m "?([a-z0-9]+)', MAKEFILE))
    assert {"unit", "integration", "e2e", "reliability", "benchmark"} <= selected, selected
    assert selected - {"benchmark"} <= set(TIERS.values()), selected
