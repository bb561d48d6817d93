"""The README's Performance table is generated from the committed bench/results/summary.json."""

from __future__ import annotations

import json

import pytest

from bench import summary


def test_the_readme_table_matches_the_committed_summary() -> None:
    committed = json.loads(summary.SUMMARY.read_text())
    readme = summary.README.read_text()
    assert summary.with_table(readme, committed) == readme, (
        "README.md's Performance table disagrees with bench/results/summary.json: run "
        "`.venv/bin/python -m bench.summary` (or `make bench`) and commit both"
    )


def test_a_changed_figure_is_detected() -> None:
    committed = json.loads(summary.SUMMARY.read_text())
    committed["rows"][0]["figure"] += " (edited)"
    readme = summary.README.read_text()
    assert summary.with_table(readme, committed) != readme


def test_every_row_comes_from_a_run_and_missing_figures_stay_visible() -> None:
    rows = summary.summarize({"meta": {"generated_at": "t", "quick": True}})["rows"]
    assert rows and all({"benchmark", "figure", "goal", "met"} <= set(row) for row in rows)
    assert all(row["met"] in {"yes", "no", "—"} for row in rows)


def test_a_readme_without_markers_is_refused() -> None:
    with pytest.raises(ValueError, match="bench:summary"):
        summary.with_table("# no markers", {"generated_at": "t", "rows": []})


def test_a_missed_goal_gets_its_most_specific_reason() -> None:
    general, specific = "agent CPU per turn", "agent CPU per turn / the frameworks' floor"
    assert general in summary.WHY_MISSED and specific in summary.WHY_MISSED
    rows = summary.summarize(
        {
            "meta": {"generated_at": "t", "quick": True},
            "turn_overhead": {
                "cpu_ms_per_turn": {"agent": 30.0},
                "framework_floor_ms_per_turn": {"as_measured": {"total": 10.0}},
            },
        }
    )["rows"]
    (row,) = [r for r in rows if r["benchmark"].startswith(specific)]
    assert row["met"] == "no" and row["why"] == summary.WHY_MISSED[specific]
