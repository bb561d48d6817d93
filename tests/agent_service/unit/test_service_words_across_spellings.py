"""Which service a message names when the catalog calls it in another language's spelling, in
a compound, or with whom it is for (blind batch 17, before any fix: "therapy", "couples
therapy", "psychotherapy", "body composition", "nutritionist" named no service of a Portuguese
catalog; "terapia" was "Terapia de Casal" rather than "Sessão de Psicoterapia"; "consulta de
seguimiento" booked "Primeira Consulta de Nutrição").

* A learned word is the same word in every spoken language's spelling (ph/f, th/t, ch/c, y/i,
  -tion/-ção/-ción): :func:`service_lexicon.cognate`.
* A word said is alike to a compound name word it ends ("terapia" of "psicoterapia").
* A service whose name says whom it is for (a qualifier kind: a couple, a private class) in
  words the message does not say loses to one the message names that does not; one that says
  it as the message does wins over one that does not, when other words name it too.
* A name said in part loses to a service the lexicon finds better named by its kinds (a
  follow-up is never a first visit).

Generated over random words and spellings, and over the lexicon's qualifier, first-visit and
follow-up phrases in every language.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from agent_service.application.service_lexicon import cognate, name_word_similarity
from agent_service.infrastructure.agent.offline.matching import service_candidates
from agent_service.infrastructure.language.lexicon import service_lexicon
from agent_service.infrastructure.language.packs import word_list
from tests.scale import size

LANGUAGES = ("pt", "en", "es")
VOWELS, CONSONANTS = "aeiou", "bdglmnprstv"
syllable = st.tuples(st.sampled_from(CONSONANTS), st.sampled_from(VOWELS)).map("".join)
# A learned root as Portuguese writes it, the letters the other languages write otherwise
# marked: t (th), f (ph), i (y), c (ch).
root = st.lists(
    st.one_of(syllable, st.sampled_from(["te", "ta", "fo", "fi", "ci", "co", "ri"])),
    min_size=3,
    max_size=5,
).map("".join)
ENDINGS = {"pt": "cao", "en": "tion", "es": "cion"}
GREEK = (("t", "th"), ("f", "ph"), ("i", "y"), ("c", "ch"))


def _spelled(word: str, picks: list[bool]) -> str:
    """``word`` with some of its letters written as the Greek-rooted spelling does."""
    out = []
    for i, letter in enumerate(word):
        other = dict(GREEK).get(letter)
        out.append(other if other and i > 0 and picks[i % len(picks)] else letter)
    return "".join(out)


@settings(max_examples=size(60, 600), deadline=None)
@given(base=root, picks=st.lists(st.booleans(), min_size=1, max_size=8), ending=st.booleans())
def test_a_word_in_another_languages_spelling_is_alike(
    base: str, picks: list[bool], ending: bool
) -> None:
    catalog_word = base + (ENDINGS["pt"] if ending else "ia")
    said = _spelled(base, picks) + (ENDINGS["en"] if ending else "y")
    assert name_word_similarity(said, catalog_word) > 0, (said, catalog_word)
    if ending:
        assert name_word_similarity(base + ENDINGS["es"], catalog_word) > 0


@settings(max_examples=size(60, 600), deadline=None)
@given(head=st.lists(syllable, min_size=2, max_size=3).map("".join), tail=root)
def test_the_tail_of_a_compound_name_word_is_alike(head: str, tail: str) -> None:
    compound = head + tail + "ia"
    assert name_word_similarity(tail + "ia", compound) > 0
    assert name_word_similarity(_spelled(tail, [True]) + "y", compound) > 0


def _word(consonants: str) -> st.SearchStrategy[str]:
    pair = st.tuples(st.sampled_from(consonants), st.sampled_from(VOWELS)).map("".join)
    return st.lists(pair, min_size=3, max_size=5).map("".join)


@settings(max_examples=size(60, 600), deadline=None)
@given(a=_word("bdgpt"), b=_word("lmnrs"))
def test_words_of_other_letters_stay_unlike_in_any_spelling(a: str, b: str) -> None:
    for said in (a, _spelled(a, [True]), a + "tion", a + "y"):
        assert name_word_similarity(said, b + "cao") == 0
        assert name_word_similarity(said, b + "ia") == 0
    assert cognate(a + "tion") == cognate(a + "cao") == cognate(a + "cion")


def _qualifier_phrases() -> list[tuple[str, str, str]]:
    """(kind, a phrase of the catalog's language, a phrase the customer says in any language)
    for every qualifier kind."""
    lexicon = service_lexicon()
    found = []
    for kind in sorted(lexicon.qualifiers):
        catalog_phrases = word_list("pt", "services", kind)
        for code in LANGUAGES:
            for phrase in word_list(code, "services", kind):
                found.append((kind, catalog_phrases[0], phrase))
    return found


def test_whom_a_service_is_for_is_said_or_the_plain_service_is_meant() -> None:
    lexicon = service_lexicon()
    for kind, catalog_phrase, said in _qualifier_phrases():
        plain, qualified = "Psicozorbania", f"Zorbania {catalog_phrase.title()}"
        if lexicon.kinds_of((plain,)) or lexicon.kinds_in("zorbania") or len(said) < 3:
            continue
        catalog = [(plain,), (qualified,), ("Corte Xiscano",)]
        assert service_candidates("quero zorbania amanha", catalog) == [0], kind
        if lexicon.kinds_in(said).keys() & lexicon.qualifiers == {kind}:
            text = f"quero zorbania {said} amanha"
            assert service_candidates(text, catalog) == [1], (kind, said)


def test_a_follow_up_is_never_a_first_visit() -> None:
    catalog = [("Primeira Consulta de Zorbania",), ("Retorno de Zorbania",)]
    for code in LANGUAGES:
        for phrase in word_list(code, "services", "follow_up"):
            for text in (f"{phrase} de zorbania", f"consulta {phrase} zorbania"):
                assert service_candidates(text, catalog) == [1], text
        for phrase in word_list(code, "services", "first_visit"):
            assert service_candidates(f"{phrase} de zorbania", catalog) == [0], phrase


def test_an_earliest_or_latest_phrase_names_no_service() -> None:
    """ "terapia de pareja, dame lo primero que tengan disponible" is no visit with "Primeira
    Consulta de Psicologia" (blind batch 17): the words of an earliest or latest phrase
    (``[ranges]``) name no service, even a service whose name has them."""
    for code in LANGUAGES:
        for key in ("earliest", "latest"):
            for phrase in word_list(code, "ranges", key):
                catalog = [(f"{phrase.title()} Zorbania",), ("Corte Xiscano",)]
                text = f"quero xiscano, {phrase}"
                assert service_candidates(text, catalog) == [1], (code, phrase)
