"""A window of start times with a part of the day said after its second time ("entre las 8 y
las 9 de la noche", "between 8 and 9 in the evening", "entre 9 e 11 da manhã") is that part of
the day for both times (blind batch 17, before any fix: "entre las 8 y las 9 de la noche" was
8:00 to 9:00 in the morning). Generated from the language data: every ``[ranges].between`` and
``between_and`` word, every morning, afternoon and evening phrase of ``[times]``, at every
pair of hours one apart that both read as that part of the day, in every language."""

from __future__ import annotations

from datetime import datetime, time
from itertools import product
from zoneinfo import ZoneInfo

import pytest

from agent_service.infrastructure.language.grammar.when import parse_when
from agent_service.infrastructure.language.packs import word_list

NOW = datetime(2026, 11, 30, 9, 0, tzinfo=ZoneInfo("America/Sao_Paulo"))
PARTS = {
    "morning_after": range(8, 11),
    "afternoon_after": range(1, 5),
    "evening_after": range(7, 10),
}
CASES = [
    (code, key, period)
    for code in ("pt", "en", "es")
    for key in PARTS
    for period in word_list(code, "times", key)
]


def _at(hour: int, period: str, code: str) -> time | None:
    """What the language reads for the hour alone with that part of the day."""
    marker = word_list(code, "times", "markers")[0]
    return parse_when(f"{marker} {hour} {period}", NOW).at


@pytest.mark.parametrize(("code", "key", "period"), CASES)
def test_a_part_of_day_after_a_window_is_both_ends(code: str, key: str, period: str) -> None:
    checked = 0
    for hour in PARTS[key]:
        first, second = _at(hour, period, code), _at(hour + 1, period, code)
        if first is None or second is None or not first < second:
            continue
        for between, joined in product(
            word_list(code, "ranges", "between"), word_list(code, "ranges", "between_and")
        ):
            said = f"{between} {hour} {joined} {hour + 1} {period}"
            window = parse_when(said, NOW).window
            assert window is not None and (window.start, window.end) == (first, second), said
            checked += 1
    assert checked, (code, period)
