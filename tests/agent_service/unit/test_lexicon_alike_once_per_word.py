"""The service lexicon reads which kinds a message names by finding, once per word, the
lexicon's phrase words it is alike (``ServiceLexicon._find_alike``), then the phrases whose
words follow in order; it must find exactly the phrases :func:`phrase_in` finds phrase by phrase
(the rule, a word of ``never_alike`` only as itself, a spelled word never as a typo), before
the longest-phrase rule (``test_lexicon_longest_phrase``) keeps some of their kinds. Generated over
the lexicon's own phrases in every language, typed with a letter changed, added, doubled or
dropped, among function words and random words."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from agent_service.application.service_lexicon import phrase_in
from agent_service.application.text import tokens
from agent_service.infrastructure.language.lexicon import service_lexicon
from tests.scale import size

LEXICON = service_lexicon()
PHRASES = sorted({p for phrases in LEXICON.kinds.values() for p in phrases})
FILLER = ["quero", "una", "pedir", "the", "de", "com", "para", "my", "cita", "uma", "e"]


def _reference(text: str) -> dict[str, int]:
    words = tokens(text)
    found: dict[str, int] = {}
    for kind, phrases in LEXICON._phrases.items():
        best = max(
            (
                len(p)
                for p in phrases
                if p and phrase_in(p, words, LEXICON._never_alike, LEXICON._spelled)
            ),
            default=0,
        )
        if best:
            found[kind] = best
    return found


@st.composite
def _typed(draw: st.DrawFn) -> str:
    word = draw(st.sampled_from([*PHRASES, *FILLER]))
    if len(word) < 3 or draw(st.booleans()):
        return word
    at = draw(st.integers(0, len(word) - 1))
    edit = draw(st.sampled_from(["swap", "add", "double", "drop"]))
    letter = draw(st.sampled_from("aeiorsn"))
    return {
        "swap": word[:at] + letter + word[at + 1 :],
        "add": word[:at] + letter + word[at:],
        "double": word[:at] + word[at] + word[at:],
        "drop": word[:at] + word[at + 1 :],
    }[edit]


@settings(max_examples=size(300, 3000), deadline=None)
@given(st.lists(_typed(), min_size=1, max_size=6))
def test_alike_once_per_word_finds_what_phrase_in_finds(parts: list[str]) -> None:
    text = " ".join(parts)
    found: dict[str, int] = {}
    for start, end, kind in LEXICON.spans(text):
        found[kind] = max(found.get(kind, 0), end - start)
    assert found == _reference(text), text
