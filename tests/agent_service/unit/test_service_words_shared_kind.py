"""A kind of service two catalog names share in part never overrules the customer's own words
(blind batch 18, before any fix: "una evaluación visual infantil" booked "Avaliação
Optométrica" for a catalog that has "Avaliação Visual Infantil": both names are an assessment
in part, and the shorter name, more of it an assessment, won over the two words the customer
said of the other). The lexicon overrules the salon's own words only by a kind the message says
that their winner is not.

Generated over every kind of the built-in lexicon, with each pair of its phrases in the three
languages (one in the catalog's names, the other in the message), and random catalog words.
"""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from agent_service.application.service_lexicon import word_similarity
from agent_service.application.text import tokens
from agent_service.infrastructure.agent.offline.matching import service_candidates
from agent_service.infrastructure.language.lexicon import service_lexicon
from agent_service.infrastructure.language.packs import word_list
from tests.scale import size

word = st.text(alphabet="bcdfghjklmnpqrstvwxz", min_size=2, max_size=3).map(lambda s: s + "ano")


def _unalike(one: str, other: str) -> bool:
    return not any(word_similarity(a, b) for a in tokens(one) for b in tokens(other))


def _pairs() -> list[tuple[str, str, str]]:
    """(kind, a phrase for the catalog, another for the message) none of whose words are
    alike, of every kind of service (no qualifier)."""
    lexicon = service_lexicon()
    pairs = []
    for kind in sorted(lexicon.kinds.keys() - lexicon.qualifiers):
        phrases = {p for code in ("pt", "en", "es") for p in word_list(code, "services", kind)}
        for named, said in itertools.permutations(sorted(phrases), 2):
            if _unalike(named, said) and lexicon.kinds_in(said).keys() - lexicon.qualifiers == {
                kind
            }:
                pairs.append((kind, named, said))
    return pairs


PAIRS = _pairs()


@settings(max_examples=size(60, 600), deadline=None)
@given(
    pair=st.sampled_from(PAIRS),
    words=st.lists(word, min_size=3, max_size=3, unique=True),
)
def test_a_shared_kind_leaves_the_customers_own_words_the_judge(
    pair: tuple[str, str, str], words: list[str]
) -> None:
    kind, named, said = pair
    lexicon = service_lexicon()
    first, second, other = (w.capitalize() for w in words)
    catalog = [(f"{named.title()} {first} {second}",), (f"{named.title()} {other}",)]
    if not all(lexicon.kinds_of(entry).get(kind) for entry in catalog):
        return  # the phrase is no kind of a longer name (a word of it reads otherwise)
    text = f"quero {said} {first.lower()} {second.lower()} amanhã"

    assert service_candidates(text, catalog) == [0], (kind, named, said)


def test_there_are_pairs_of_most_kinds() -> None:
    kinds = {kind for kind, _, _ in PAIRS}
    assert len(kinds) >= len(service_lexicon().kinds.keys() - service_lexicon().qualifiers) // 2


def _qualifier_pairs() -> list[tuple[str, str, str]]:
    """(a qualifier kind, a phrase of it for the catalog, another for the message) none of
    whose words are alike, of every qualifier, in the three languages."""
    lexicon = service_lexicon()
    pairs = []
    for kind in sorted(lexicon.qualifiers):
        phrases = {p for code in ("pt", "en", "es") for p in word_list(code, "services", kind)}
        for named, said in itertools.permutations(sorted(phrases), 2):
            only = lexicon.kinds_in(said).keys() & lexicon.qualifiers == {kind}
            if only and _unalike(named, said) and not lexicon.kinds_in(said).keys() - {kind}:
                pairs.append((kind, named, said))
    return pairs


@settings(max_examples=size(60, 600), deadline=None)
@given(
    pair=st.sampled_from(PAIRS),
    whom=st.sampled_from(_qualifier_pairs()),
    words=st.lists(word, min_size=2, max_size=2, unique=True),
)
def test_whom_a_service_is_for_picks_among_those_of_a_kind(
    pair: tuple[str, str, str], whom: tuple[str, str, str], words: list[str]
) -> None:
    """Blind batch 18, before any fix: "examen de la vista para mi hija" tied "Avaliação
    Optométrica" and "Avaliação Visual Infantil" (the kind's longer share of the shorter name
    made up for the qualifier): the service for whom the message says, in its own words, wins."""
    kind, named, said = pair
    qualifier, named_for, said_for = whom
    lexicon = service_lexicon()
    first, second = (w.capitalize() for w in words)
    catalog = [(f"{named.title()} {first}",), (f"{named.title()} {second} {named_for.title()}",)]
    kinds = [lexicon.kinds_of(entry) for entry in catalog]
    if not (kinds[0].get(kind) and kinds[1].get(kind) and qualifier in kinds[1]):
        return
    if qualifier in kinds[0] or not _unalike(said_for, f"{named} {first} {second}"):
        return
    text = f"quero {said} {said_for} amanhã"

    assert service_candidates(text, catalog) == [1], (kind, named, said, said_for)
