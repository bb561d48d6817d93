"""A word that names no service in any language (the ``[matching].stopwords``: "una", "a",
"dos") names no kind of service, even when a longer phrase holds it ("sacar una muela" made
"una" alike "unhas": "quiero una cita con Rafael" proposed a manicure). Generated over every
such word of every language, alone and next to a third of the other such words, in turn (each
other word meets a third of them)."""

from __future__ import annotations

from agent_service.application.text import tokens
from agent_service.infrastructure.language.lexicon import service_lexicon
from agent_service.infrastructure.language.packs import spoken_languages, word_list

PAIRED = 3
"""Each function word is read next to every ``PAIRED``-th other one (a third, in turn)."""


def _stopwords() -> set[str]:
    return {
        word
        for code in spoken_languages()
        for phrase in word_list(code, "matching", "stopwords")
        for word in phrase.split()
    }


def _alone_phrases() -> set[str]:
    lexicon = service_lexicon()
    return {p for phrases in lexicon.kinds.values() for p in phrases if len(tokens(p)) == 1}


def test_a_function_word_names_no_kind_of_service() -> None:
    lexicon = service_lexicon()
    alone = {tokens(p)[0] for p in _alone_phrases()}
    inside = {
        w for ps in lexicon.kinds.values() for p in ps for w in tokens(p) if len(tokens(p)) > 1
    }
    phrases = {tuple(tokens(p)) for ps in lexicon.kinds.values() for p in ps}
    checked = sorted((_stopwords() & inside) - alone)
    assert checked, "no function word is part of a longer phrase: nothing to check"
    pairs = sorted(_stopwords() - alone)
    for i, word in enumerate(checked):
        assert lexicon.kinds_in(word) == {}, word
        assert lexicon.kinds_in(f"quero {word} cita amanha") == {}, word
        # next to a third of the other words, in turn: each word meets every third one
        for pair in pairs[i % PAIRED :: PAIRED]:
            if (word, pair) in phrases:  # "a dos" (for two) is a phrase of its own words
                continue
            assert lexicon.kinds_in(f"{word} {pair}") == {}, (word, pair)
