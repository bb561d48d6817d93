"""Language as data: the files' shape, and the detector's rules over any set of profiles."""

from __future__ import annotations

import re
import tomllib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agent_service.application.languages import LanguageDetector, LanguageProfile
from agent_service.application.text import normalize
from agent_service.infrastructure.agent.messages import LOCALE_FILES
from agent_service.infrastructure.language import (
    data_languages,
    language_data,
    language_detector,
    spoken_languages,
)
from agent_service.infrastructure.language.packs import DATA_DIR, word_list


def _shape(value: object) -> object:
    if isinstance(value, dict):
        return {key: _shape(item) for key, item in value.items() if key not in ("code", "name")}
    return type(value).__name__


def test_every_language_file_has_the_same_tables_and_keys() -> None:
    shapes = {code: _shape(dict(language_data(code))) for code in data_languages()}
    assert {"pt", "en", "es"} <= set(shapes)
    first = shapes["en"]
    assert all(shape == first for shape in shapes.values()), shapes


def _atoms(value: str) -> list[str]:
    """The words of an entry (a pattern's ``*``, ``?``, ``~`` and ``|`` are syntax)."""
    return [word for word in re.split(r"[\s|]+", re.sub(r"[*?~]", "", value)) if word]


def test_every_word_in_every_file_is_folded() -> None:
    for path in DATA_DIR.glob("*.toml"):
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        for table in data.values():
            if not isinstance(table, dict):
                continue
            for values in table.values():
                if isinstance(values, list):
                    words = [w for v in values for w in _atoms(v)]
                    assert [w for w in words if normalize(w) != w] == [], path.name


def test_a_language_is_spoken_only_with_its_message_catalog() -> None:
    assert set(spoken_languages()) == set(data_languages()) & set(LOCALE_FILES)
    assert set(language_detector().codes) == set(spoken_languages())


def test_each_spoken_language_is_told_apart_by_its_own_words() -> None:
    detector = language_detector()
    for code in detector.codes:
        own = detector.exclusive_words(code)
        assert own, code
        text = " ".join(sorted(own)[:3])
        other = next(c for c in detector.codes if c != code)
        assert detector.detect(text, other) == code


_WORDS = st.text(alphabet="abcdefghij", min_size=2, max_size=6)


@st.composite
def _profiles(draw: st.DrawFn) -> list[LanguageProfile]:
    count = draw(st.integers(min_value=2, max_value=4))
    vocab = draw(st.lists(_WORDS, min_size=count * 2, max_size=count * 4, unique=True))
    shared = vocab[0]  # one word every language uses: evidence for none
    chunks = [vocab[1 + i :: count] for i in range(count)]
    return [LanguageProfile(f"l{i}", frozenset([shared, *chunk])) for i, chunk in enumerate(chunks)]


@settings(max_examples=60, deadline=None)
@given(profiles=_profiles(), data=st.data())
def test_a_text_of_one_languages_own_words_is_that_language(
    profiles: list[LanguageProfile], data: st.DataObject
) -> None:
    detector = LanguageDetector(profiles)
    target = data.draw(st.sampled_from(profiles))
    own = sorted(detector.exclusive_words(target.code))
    if not own:
        return
    words = data.draw(st.lists(st.sampled_from(own), min_size=1, max_size=5))
    shared = sorted(set.intersection(*(set(p.words) for p in profiles)))
    text = " ".join([*words, *shared])
    default = data.draw(st.sampled_from([p.code for p in profiles]))
    assert detector.detect(text, default) == target.code
    assert detector.conversation_language(text, None, default) == (target.code, True)


@settings(max_examples=60, deadline=None)
@given(profiles=_profiles(), data=st.data())
def test_no_evidence_or_a_tie_keeps_the_default(
    profiles: list[LanguageProfile], data: st.DataObject
) -> None:
    detector = LanguageDetector(profiles)
    default = data.draw(st.sampled_from([p.code for p in profiles]))
    assert detector.detect("12 34 zzzz", default) == default
    assert detector.conversation_language("ok", None, default) == (default, False)
    a, b = profiles[0], profiles[1]
    one_each = " ".join(
        [sorted(detector.exclusive_words(a.code))[0], sorted(detector.exclusive_words(b.code))[0]]
    )
    assert detector.detect(one_each, default) == default


@settings(max_examples=60, deadline=None)
@given(profiles=_profiles(), data=st.data())
def test_a_settled_language_changes_only_on_a_clear_lead(
    profiles: list[LanguageProfile], data: st.DataObject
) -> None:
    detector = LanguageDetector(profiles, switch_margin=2)
    settled, other = data.draw(st.permutations(profiles))[:2]
    word = sorted(detector.exclusive_words(other.code))[0]
    assert detector.conversation_language(word, settled.code, settled.code) == (settled.code, True)
    two = f"{word} {word}"
    assert detector.conversation_language(two, settled.code, settled.code) == (other.code, True)


def test_an_unknown_language_has_no_data() -> None:
    with pytest.raises(ValueError, match="no language data"):
        language_data("xx")


def test_a_unit_word_two_languages_write_the_same_is_evidence_for_neither() -> None:
    """Session 40's blind batch: "que dias o Rafael trabalha?" was answered in Spanish, its one
    piece of evidence "dias", a word Portuguese writes the same. Every day, week and hour unit
    two spoken languages share is no language's own word."""
    detector = language_detector()
    units = {
        code: {w for t, k in _UNITS for w in word_list(code, t, k) if " " not in w}
        for code in detector.codes
    }
    for code in detector.codes:
        for other in detector.codes:
            if other != code:
                assert not (units[code] & units[other]) & detector.exclusive_words(code)
    shared = set.intersection(*(units[c] for c in ("pt", "es")))
    assert shared  # the languages do share some ("dias", "hora"...)
    for word in shared:
        assert detector.detect(f"que {word} o Rafael zzz?", "en") == "en"


_UNITS = (("dates", "day_units"), ("dates", "week_units"), ("times", "hour_units"))
