"""A weekday misspelled by one letter where a day is expected is that weekday (session 40's
fifth blind batch: "qinta", "thrusday", "juebes" were asked "which day?"); a word a language
knows is never read as one, nor a misspelling with no day expected."""

from __future__ import annotations

import string
from datetime import datetime
from zoneinfo import ZoneInfo

from hypothesis import assume, given
from hypothesis import strategies as st

from agent_service.infrastructure.language.grammar.calendar_names import calendar_names
from agent_service.infrastructure.language.grammar.vocabulary import Vocabulary
from agent_service.infrastructure.language.grammar.when import TYPO_MIN_LETTERS, parse_when
from agent_service.infrastructure.language.packs import known_words, spoken_languages

NOW = datetime(2026, 11, 30, 9, tzinfo=ZoneInfo("America/Sao_Paulo"))  # Monday
OPENER = {"pt": "na", "en": "on", "es": "el"}
CLOCK = {"pt": "às 10h", "en": "at 10am", "es": "a las 10"}
KNOWN = frozenset().union(*(known_words(code) for code in spoken_languages()))


def _names(code: str) -> list[tuple[str, int]]:
    names = calendar_names(Vocabulary(code)).weekdays
    return sorted((n, i) for n, i in names.items() if len(n) >= TYPO_MIN_LETTERS and n.isalpha())


def _edit(name: str, kind: int, at: int, letter: str) -> str:
    at %= len(name)
    if kind == 0:
        return name[:at] + name[at + 1 :]  # a letter dropped
    if kind == 1:
        return name[:at] + letter + name[at + 1 :]  # a letter changed
    if kind == 2 and at + 1 < len(name):
        return name[:at] + name[at + 1] + name[at] + name[at + 2 :]  # two swapped
    return name[:at] + letter + name[at:]  # a letter added


@given(st.sampled_from(["pt", "en", "es"]), st.data(), st.integers(0, 3), st.integers(0, 20),
       st.sampled_from(string.ascii_lowercase), st.booleans())  # fmt: skip
def test_a_weekday_one_letter_off_where_a_day_is_expected_is_that_day(
    code: str, data: st.DataObject, kind: int, at: int, letter: str, timed: bool
) -> None:
    name, index = data.draw(st.sampled_from(_names(code)))
    typo = _edit(name, kind, at, letter)
    assume(typo != name and typo not in KNOWN and len(typo) >= 4)
    near = {i for n, i in _all() if _one_edit(typo, n)}
    assume(near == {index})  # one edit from one weekday only
    text = f"barba {typo} {CLOCK[code]}" if timed else f"barba {OPENER[code]} {typo}"
    said = parse_when(text, NOW)
    assert said.day is not None and said.day.weekday() == index, text
    assert said.day_text == typo


def test_a_known_word_one_letter_off_a_weekday_is_never_read_as_it() -> None:
    names = dict(_all())
    close = {w: i for w in KNOWN for n, i in names.items() if w not in names and _one_edit(w, n)}
    assert close  # "segundo", "quinto"... exist in the data
    for word, index in close.items():
        said = parse_when(f"barba na {word} às 10h", NOW)
        assert said.day is None or said.day_text != word or said.day.weekday() != index, word


def test_no_day_expected_no_misspelling_read() -> None:
    assert parse_when("barba qinta", NOW).day is None


def _all() -> list[tuple[str, int]]:
    return [pair for code in ("pt", "en", "es") for pair in _names(code)]


def _one_edit(a: str, b: str) -> bool:
    from rapidfuzz.distance import OSA

    return OSA.distance(a, b) <= 1
