"""Small files in the kit and the calendar service too: a module over 300 lines says why on its
first line (generated protobuf code lives in ``libs/agenda``, outside both)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.agent_service.unit.test_module_sizes import long_modules_without_reason

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("package", [ROOT / "libs" / "agenda_kit", ROOT / "calendar_service"])
def test_every_module_over_300_lines_says_why_on_its_first_line(package: Path) -> None:
    assert long_modules_without_reason(package) == []
