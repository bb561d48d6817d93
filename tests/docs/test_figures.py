"""Documents agree with the committed figures JSON; the renderer itself is exact."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests import figures


def test_every_marked_document_matches_its_json() -> None:
    for path in figures.marked_documents():
        text = path.read_text()
        assert figures.render_document(text) == text, (
            f"{path} disagrees with docs/figures/*.json: run `python -m tests.figures`"
        )


def test_record_merges_by_scale_and_renders_a_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("AGENDA_RECORD_FIGURES", "1")
    monkeypatch.setenv("RELIABILITY_SCALE", "full")
    figures.record("demo", {"scenarios": 1200, "rate": 0.5}, directory=tmp_path)
    monkeypatch.delenv("RELIABILITY_SCALE")
    figures.record("demo", {"scenarios": 30, "wrong | writes": 0}, directory=tmp_path)
    assert figures.load("demo", directory=tmp_path) == {
        "full": {"scenarios": 1200, "rate": 0.5},
        "reduced": {"scenarios": 30, "wrong | writes": 0},
    }
    doc = "intro\n<!-- figures:demo -->\nold\n<!-- /figures:demo -->\nend\n"
    rendered = figures.render_document(doc, directory=tmp_path)
    assert "| scenarios | 30 | 1,200 |" in rendered
    assert "| rate | — | 0.50 |" in rendered
    assert "| wrong \\| writes | 0 | — |" in rendered
    assert rendered.startswith("intro\n<!-- figures:demo -->\n| figure | reduced | full |")
    assert rendered.endswith("<!-- /figures:demo -->\nend\n")
    assert figures.render_document(rendered, directory=tmp_path) == rendered


def test_nothing_is_written_unless_recording(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("AGENDA_RECORD_FIGURES", raising=False)
    figures.record("demo", {"x": 1}, directory=tmp_path)
    assert not (tmp_path / "demo.json").exists()
