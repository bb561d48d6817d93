"""An hour said the way people say it — a number after the language's word before an hour ("às
10", "at 9", "a las diez", "às 3 e meia") — is a time, checked like "10:00" (review 9, not
blind: "A Ana tem horário terça às 10." was sent with 10:00 taken; a number up to twelve was
never read). A bare hour is that hour or the afternoon's: either one a record holds grounds it.

Generated over every language's ``[times].markers``, number words and hours.
"""

from __future__ import annotations

import json
from datetime import date

import pytest

from agent_service.application.fact_spans import FactReader, Kind
from agent_service.application.grounding import Grounding
from agent_service.infrastructure.language.packs import word_list
from agent_service.infrastructure.language.rules import fact_reader

LANGUAGES = ("pt", "en", "es")
FREE = ["09:00", "10:30", "14:00", "16:30"]
"""The free times a result lists."""


def _reader(code: str) -> FactReader:
    return fact_reader((code,), "America/Sao_Paulo", ("BRL",), date(2026, 11, 30))


def _words(code: str) -> dict[int, str]:
    found: dict[int, str] = {}
    for entry in word_list(code, "numbers", "cardinals"):
        word, _, value = entry.rpartition(" ")
        if 1 <= int(value) <= 12:
            found.setdefault(int(value), word)
    return found


def _cases() -> list[tuple[str, str, int, bool]]:
    cases = []
    for code in LANGUAGES:
        halves = word_list(code, "times", "half_after")
        for marker in word_list(code, "times", "markers"):
            for hour in range(1, 24):
                cases.append((code, f"{marker} {hour}", hour * 60, False))
                if hour in _words(code):
                    cases.append((code, f"{marker} {_words(code)[hour]}", hour * 60, False))
                cases += [
                    (code, f"{marker} {hour} {half}", hour * 60 + 30, True) for half in halves
                ]
    return cases


def _free(minutes: int) -> bool:
    said = {minutes} | ({minutes + 12 * 60} if minutes < 12 * 60 and minutes >= 60 else set())
    return any(int(t[:2]) * 60 + int(t[3:]) in said for t in FREE)


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_marked_hour_is_a_time_grounded_only_when_free(language: str) -> None:
    record = json.dumps({"result": "FREE_TIMES", "days": [{"day": "2026-12-01", "times": FREE}]})
    checked = 0
    for code, said, minutes, _ in _cases():
        if code != language:
            continue
        reader = _reader(code)
        times = [f for f in reader.facts(said) if f.kind is Kind.TIME]
        assert [f.text for f in times] == [said], said
        grounding = Grounding(reader, [record], ["oi"])
        ungrounded = [u.kind for u in grounding.ungrounded(f"Temos {said}.")]
        assert (Kind.TIME in ungrounded) is not _free(minutes), (said, ungrounded)
        checked += 1
    assert checked > 40


@pytest.mark.parametrize("code", LANGUAGES)
def test_a_marker_before_a_count_is_no_hour(code: str) -> None:
    reader = _reader(code)
    for marker in word_list(code, "times", "markers"):
        for noun in word_list(code, "numbers", "count_nouns"):
            said = f"{marker} 3 {noun}"
            assert not [f for f in reader.facts(said) if f.kind is Kind.TIME], said
