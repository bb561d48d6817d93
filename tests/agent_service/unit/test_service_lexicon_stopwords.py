"""A word that names no service in any language ([matching].stopwords: articles, booking
verbs, greetings) names a kind of service only by being one of the lexicon's words, never by
likeness: Spanish "una" is no "unas" (uñas, nails), "pedir una cita" no "pedi" (a pedicure).
Generated from every language's data, alone and inside a sentence."""

from __future__ import annotations

import pytest

from agent_service.infrastructure.language.lexicon import service_lexicon
from agent_service.infrastructure.language.packs import language_data

LEXICON = service_lexicon()
OWN = {word for phrases in LEXICON.kinds.values() for phrase in phrases for word in phrase.split()}
STOPWORDS = sorted(
    {
        (code, word)
        for code in ("pt", "en", "es")
        for phrase in language_data(code)["matching"]["stopwords"]
        for word in phrase.split()
        if word not in OWN
    }
)


@pytest.mark.parametrize(("code", "word"), STOPWORDS)
def test_a_stopword_names_no_kind_of_service(code: str, word: str) -> None:
    assert LEXICON.kinds_in(word) == {}, word
    assert LEXICON.kinds_in(f"quero {word} barba") == {"beard": 1}


def test_a_lexicon_word_still_names_its_kind_and_a_typo_of_it_too() -> None:
    assert LEXICON.kinds_in("unas") == {"manicure": 1}  # Spanish uñas, folded
    assert LEXICON.kinds_in("pedicura") == {"pedicure": 1}
    assert LEXICON.kinds_in("barbaa") == {"beard": 1}
