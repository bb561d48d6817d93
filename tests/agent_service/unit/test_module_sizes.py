"""Small files: no module of the agent service grows past 300 lines without saying why on its
first line (``# Over 300 lines: <reason>``), so a long file is a decision, not an accident."""

from __future__ import annotations

from pathlib import Path

LIMIT = 300
REASON = "# Over 300 lines: "
SERVICE = Path(__file__).resolve().parents[3] / "agent_service"


def long_modules_without_reason(root: Path) -> list[str]:
    found = []
    for path in sorted(root.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        if len(text.splitlines()) > LIMIT and not text.startswith(REASON):
            found.append(str(path.relative_to(root.parent)))
    return found


def test_every_module_over_300_lines_says_why_on_its_first_line() -> None:
    assert long_modules_without_reason(SERVICE) == []


def test_the_check_finds_a_long_module_without_a_reason(tmp_path: Path) -> None:
    package = tmp_path / "service"
    package.mkdir()
    (package / "long.py").write_text("x = 1\n" * (LIMIT + 1))
    (package / "explained.py").write_text(REASON + "a table\n" + "x = 1\n" * LIMIT)
    (package / "short.py").write_text("x = 1\n" * LIMIT)
    assert long_modules_without_reason(package) == ["service/long.py"]
