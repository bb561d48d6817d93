"""A word the languages know is never read as a typo of a service's word: Spanish "cuánto" is
no "canto" (singing), whatever catalog a tenant has — found when a music school's lexicon
entered (session 47: "¿cuánto cobra Rafael?" lost Rafael's prices to the singing lesson). It
may still share a stem with one ("barber" and "barbeiro", "cortar" and "corte").

Generated over every word of every language's data that is no word of the lexicon.
"""

from __future__ import annotations

from rapidfuzz import fuzz

from agent_service.application.service_lexicon import (
    FUZZY_MIN_LENGTH,
    FUZZY_RATIO,
    word_similarity,
)
from agent_service.application.text import tokens
from agent_service.infrastructure.language.lexicon import service_lexicon
from agent_service.infrastructure.language.packs import known_words, spoken_languages


def test_a_known_word_names_a_kind_only_by_a_stem_it_shares_never_as_a_typo() -> None:
    lexicon = service_lexicon()
    own = {w for phrases in lexicon.kinds.values() for p in phrases for w in tokens(p)}
    known = set().union(*(known_words(code) for code in spoken_languages())) - own
    close = 0
    for word in sorted(known):
        for kind in lexicon.kinds_in(word):
            phrase_words = {w for p in lexicon.kinds[kind] for w in tokens(p)}
            assert any(word_similarity(word, w, typo=False) > 0 for w in phrase_words), (
                word,
                kind,
            )
        close += any(
            len(word) >= FUZZY_MIN_LENGTH and fuzz.ratio(word, w) >= FUZZY_RATIO for w in own
        )
    assert close > 10, "some known words are a typo's distance from a service's word"
