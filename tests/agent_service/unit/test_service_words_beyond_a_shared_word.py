"""Which service a message names when its words are not the catalog's (blind batch 16, before
any fix: "an RPG session" booked "Sessão de Fisioterapia" for a catalog's "Reeducação Postural
Global", and "punción seca … con la misma fisio" booked the physio session, since "fisio" tied
two catalog names and the lexicon judged those two only).

* A name of three words or more, none a function word, is called by its initials as well.
* When the catalog's own words tie (a word two names share), the lexicon judges every service:
  one it names in other words is the one meant.

Generated over random catalog words, and over every kind of the built-in lexicon with each of
its phrases in each language.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from agent_service.infrastructure.agent.offline.matching import (
    STOPWORDS,
    initials,
    service_candidates,
)
from agent_service.infrastructure.language.lexicon import service_lexicon
from agent_service.infrastructure.language.packs import word_list
from tests.scale import size

LEAD = ("quero marcar {} amanhã", "book me a {} session tomorrow", "quiero {} el martes")
word = st.text(alphabet="bcdfghjklmnpqrstvwxz", min_size=2, max_size=3).map(lambda s: s + "ano")


@settings(max_examples=size(40, 400), deadline=None)
@given(
    words=st.lists(word, min_size=3, max_size=4, unique=True),
    other=st.lists(word, min_size=2, max_size=2, unique=True),
    lead=st.sampled_from(LEAD),
)
def test_a_long_name_is_called_by_its_initials(
    words: list[str], other: list[str], lead: str
) -> None:
    name = " ".join(w.capitalize() for w in words)
    short = initials(name)
    assert short == "".join(w[0] for w in words)
    catalog = [("Sessão de " + other[0].capitalize(),), (name, short), (other[1].capitalize(),)]
    if short in STOPWORDS:
        return
    assert service_candidates(lead.format(short.upper()), catalog) == [1]


def test_a_name_with_a_function_word_or_of_two_words_has_no_initials() -> None:
    assert initials("Corte de Unhas") is None
    assert initials("Drenagem Linfática") is None


def _kinds() -> list[tuple[str, str]]:
    lexicon = service_lexicon()
    return [
        (kind, phrase)
        for kind, phrases in sorted(lexicon.kinds.items())
        if kind not in lexicon.qualifiers
        for phrase in phrases
        if not set(phrase.split()) & {"fisio", "fisioterapia", "physio", "sessao", "sesion"}
    ]


def test_a_service_named_in_other_words_wins_over_a_shared_catalog_word() -> None:
    lexicon = service_lexicon()
    for kind, phrase in _kinds():
        named = [p for code in ("pt", "en", "es") for p in word_list(code, "services", kind)]
        target = named[0]
        catalog = [("Sessão Zorbano",), ("Avaliação Zorbano",), (target.title(),)]
        if any(lexicon.kinds_of(entry).get(kind) for entry in catalog[:2]):
            continue  # the shared names are of that kind themselves
        text = f"quero {phrase} com o zorbano"
        assert service_candidates(text, catalog) == [2], (kind, phrase)
