"""The consent and truth policies' fast paths read exactly as the plain definitions they
replace, on generated texts (properties; the plain definition is the oracle):

* ``statements._holds_words`` is ``re.search(r"(?<!\\w)" + re.escape(part) + r"(?!\\w)")``;
* ``consent_policy.visible`` drops what a character-by-character filter drops, and
  ``_strange`` is "a symbol or control character that is not white space";
* a ``FactReader`` gives the same spans for a text whether it read it before or not, and the
  same as a reader that never read anything else (its kept readings are not shared state).
"""

from __future__ import annotations

import re
import unicodedata

from hypothesis import given, settings
from hypothesis import strategies as st

from agent_service.application import consent_policy, statements
from agent_service.application.fact_spans import READINGS_KEPT, FactReader
from agent_service.infrastructure.language.rules import fact_reader
from tests.scale import size

CODES = ("pt", "en", "es")
# Letters with and without accents, digits, word joiners, spaces, punctuation, currency and
# other symbols, controls, emoji with skin tones and variation selectors.
ALPHABET = st.sampled_from(
    [*"aãbçeéz_09 \t\n.,:;!?¿-'$%R€£", "\x00", "\x1c", "\u00a0", "\u200d", "\ufe0f"]
) | st.sampled_from(["\U0001f44d", "\U0001f3fb", "\U0001f3ff", "\u20e3", "\u2764", "\u00bd"])
TEXT = st.text(ALPHABET, max_size=40)


@settings(max_examples=size(300, 3000))
@given(text=TEXT, part=st.text(ALPHABET, min_size=1, max_size=6))
def test_holds_words_is_the_bounded_search(text: str, part: str) -> None:
    expected = re.search(rf"(?<!\w){re.escape(part)}(?!\w)", text) is not None
    assert statements._holds_words(text, part) is expected
    assert statements._holds_words(f"{text} {part} ", part)  # between spaces: always held


@settings(max_examples=size(300, 3000))
@given(text=TEXT)
def test_bare_and_strange_read_as_their_definitions(text: str) -> None:
    def plain_bare(value: str) -> str:
        return "".join(
            c
            for c in value
            if c not in consent_policy._INVISIBLE and not "\U0001f3fb" <= c <= "\U0001f3ff"
        )

    assert consent_policy.visible(text) == plain_bare(text)
    strange = any(unicodedata.category(c)[0] in "SC" for c in text if not c.isspace())
    assert consent_policy._strange(text) is strange


@settings(max_examples=size(100, 1000))
@given(
    texts=st.lists(
        st.text(st.sampled_from(list("Ana às 10:00 R$ 80,00 dia 3/12 segunda")), max_size=40),
        min_size=1,
        max_size=8,
    )
)
def test_a_readers_kept_readings_are_its_fresh_readings(texts: list[str]) -> None:
    shared = fact_reader(CODES, "America/Sao_Paulo", ("BRL",))
    for text in texts:
        fresh = FactReader(
            shared.calendars,
            shared.zone,
            shared.currency_words,
            shared.today,
            shared.currency_marks,
        )
        assert shared.facts(text) == fresh.facts(text) == shared.facts(text)


def test_a_reader_keeps_a_bounded_number_of_readings() -> None:
    reader = FactReader((), fact_reader(CODES, "UTC", ("BRL",)).zone)
    for number in range(READINGS_KEPT * 2):
        reader.facts(f"texto {number}")
    assert len(reader._read) == READINGS_KEPT
    assert "texto 0" not in reader._read and f"texto {2 * READINGS_KEPT - 1}" in reader._read
