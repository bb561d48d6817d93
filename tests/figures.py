"""Figures that write themselves: tests record what they measured as JSON; docs render it.

A test calls ``record("hostile_model", {"scenarios": 34, "unconfirmed writes": 0})``. With
``AGENDA_RECORD_FIGURES=1`` (set by ``make figures-record``, never by ``make test`` or
``make test-reliability``) the figures are merged into ``docs/figures/<suite>.json`` under the
run's scale (``reduced`` or ``full``); otherwise nothing is written, so no other run dirties
the tree.

A document shows a suite's figures between two markers::

    <!-- figures:hostile_model -->
    (generated table)
    <!-- /figures:hostile_model -->

``python -m tests.figures`` re-renders every marked block in README.md and docs/*.md from the
committed JSON; ``tests/docs/test_figures.py`` fails when a document disagrees with it.
"""

from __future__ import annotations

import json
import os
import re
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
FIGURES_DIR = REPO / "docs" / "figures"
SCALES = ("reduced", "full")
_BLOCK = re.compile(
    r"(<!-- figures:(?P<suite>[a-z0-9_]+) -->\n)(?P<body>.*?)(<!-- /figures:(?P=suite) -->)",
    re.DOTALL,
)


def current_scale() -> str:
    """``full`` under ``RELIABILITY_SCALE=full``, else ``reduced``."""
    return (
        "full" if os.environ.get("RELIABILITY_SCALE", "").strip().lower() == "full" else "reduced"
    )


def recording() -> bool:
    """Whether this run writes its figures (``AGENDA_RECORD_FIGURES=1``)."""
    return os.environ.get("AGENDA_RECORD_FIGURES", "") == "1"


def record(suite: str, figures: Mapping[str, Any], *, directory: Path = FIGURES_DIR) -> None:
    """Merge ``figures`` into ``<directory>/<suite>.json`` under the current scale.

    Keys are the labels shown in the documents; values are numbers or short strings. Does
    nothing unless :func:`recording` is on.
    """
    if not recording():
        return
    if not re.fullmatch(r"[a-z0-9_]+", suite):
        raise ValueError(f"suite name must be [a-z0-9_]+, got {suite!r}")
    path = directory / f"{suite}.json"
    data = load(suite, directory=directory)
    data.setdefault(current_scale(), {}).update({str(k): _plain(v) for k, v in figures.items()})
    directory.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=2, ensure_ascii=False, sort_keys=True) + "\n")


def load(suite: str, *, directory: Path = FIGURES_DIR) -> dict[str, dict[str, Any]]:
    """The recorded figures of one suite: ``{scale: {label: value}}`` (empty when none)."""
    path = directory / f"{suite}.json"
    if not path.exists():
        return {}
    data = json.loads(path.read_text())
    if not isinstance(data, dict):
        raise ValueError(f"{path} must hold an object")
    return data


def _plain(value: Any) -> Any:
    if isinstance(value, bool | int | float | str) or value is None:
        return value
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return str(value)


def _cell(value: Any) -> str:
    if value is None:
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, float):
        return f"{value:,.2f}"
    if isinstance(value, Mapping):
        return ", ".join(f"{k} {_cell(v)}" for k, v in value.items())
    if isinstance(value, list):
        return ", ".join(_cell(v) for v in value)
    return str(value).replace("|", "\\|").replace("\n", " ")


def render_table(suite: str, *, directory: Path = FIGURES_DIR) -> str:
    """The markdown table of one suite: a row per label, a column per recorded scale."""
    data = load(suite, directory=directory)
    scales = [s for s in SCALES if data.get(s)]
    if not scales:
        return f"_No figures recorded yet for `{suite}` (run `make figures-record`)._\n"
    labels: list[str] = []
    for scale in scales:
        labels += [label for label in data[scale] if label not in labels]
    lines = [
        "| figure | " + " | ".join(scales) + " |",
        "|---|" + "---|" * len(scales),
    ]
    for label in labels:
        cells = [_cell(data[scale].get(label)) for scale in scales]
        lines.append(f"| {_cell(label)} | " + " | ".join(cells) + " |")
    source = f"docs/figures/{suite}.json"
    return "\n".join(lines) + f"\n\n_Generated from `{source}` by `python -m tests.figures`._\n"


def render_document(text: str, *, directory: Path = FIGURES_DIR) -> str:
    """``text`` with every marked block replaced by its suite's generated table."""

    def replace(match: re.Match[str]) -> str:
        table = render_table(match["suite"], directory=directory)
        return f"{match.group(1)}{table}{match.group(4)}"

    return _BLOCK.sub(replace, text)


def marked_documents(root: Path = REPO) -> list[Path]:
    """README.md and docs/*.md files that hold at least one figures block."""
    candidates = [root / "README.md", *sorted((root / "docs").glob("*.md"))]
    return [p for p in candidates if p.exists() and _BLOCK.search(p.read_text())]


def main(argv: list[str]) -> int:
    """Re-render every marked document; ``--check`` only reports the ones that differ."""
    check = "--check" in argv
    stale = []
    for path in marked_documents():
        text = path.read_text()
        rendered = render_document(text)
        if rendered != text:
            stale.append(path)
            if not check:
                path.write_text(rendered)
    for path in stale:
        print(f"{'stale' if check else 'rendered'}: {path.relative_to(REPO)}")
    return 1 if check and stale else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
