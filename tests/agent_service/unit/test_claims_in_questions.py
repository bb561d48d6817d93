"""A question asks in its last clause; what comes before it is stated (``application/claims``
via ``grounding.without_asking``): "Cancelei aquele horário de quinta, ok?" states a
cancellation no receipt backs. Generated from every language's ``[truth]`` outcome words and
``[consent]`` yes words (the tag a statement may end with); the outcome word inside the asking
clause ("Quer que fique marcado?") is a question, not a claim."""

from __future__ import annotations

import random

import pytest

from agent_service.application.claims import misstates
from agent_service.application.grounding import stated_head, without_asking
from agent_service.infrastructure.language.packs import data_languages
from agent_service.infrastructure.language.rules import language_rules

KINDS = ("booked", "cancelled", "moved", "confirmed")


@pytest.mark.parametrize("language", ["pt", "en", "es"])
def test_an_outcome_stated_before_a_tag_question_is_a_claim(language: str) -> None:
    rules = language_rules()
    words = [rules.claims(code) for code in data_languages()]
    claims = rules.claims(language)
    tags = [t for t in rules.consent(language).yes if len(t.split()) <= 2]
    rng = random.Random(language)
    for kind in KINDS:
        for outcome in getattr(claims, kind):
            tag = rng.choice(tags)
            stated = f"Zorvak {outcome} quelbin, {tag}?"
            assert misstates(stated, set(), words), stated
            asked = f"Zorvak quelbin, {outcome}?"
            assert not misstates(asked, set(), words), asked


def test_what_a_question_asks_is_removed_and_what_it_states_is_kept() -> None:
    assert without_asking("Cancelei o horário de quinta, ok? Mais algo?") == (
        "Cancelei o horário de quinta."
    )
    assert without_asking("Para quinta, às 10h? Certo.") == "Para quinta. Certo."
    assert without_asking("Qual horário prefere?") == ""
    assert without_asking("Tudo bem - quer marcar?") == "Tudo bem."


@pytest.mark.parametrize("language", ["pt", "en", "es"])
def test_a_tag_question_states_what_comes_before_its_tag(language: str) -> None:
    """Every yes word of up to two words (generated from ``[consent]``) as the tag: what comes
    before it is stated, and judged as a statement (``statements``); a question that asks in a
    clause of its own, or asks only, states nothing."""
    for tag in language_rules().consent(language).yes:
        if len(tag.split()) <= 2:
            assert stated_head(f"Zorvak quelbin, {tag}?") == "Zorvak quelbin", tag
    assert stated_head("Zorvak quelbin, ¿flimo drast?") == "Zorvak quelbin"
    assert stated_head("Zorvak quelbin, flimo drast trelo?") == ""
    assert stated_head("¿Zorvak quelbin?") == "" and stated_head("Zorvak quelbin?") == ""


@pytest.mark.parametrize("language", ["pt", "en", "es"])
def test_an_outcome_presented_as_already_reached_is_a_claim_even_in_a_question(
    language: str,
) -> None:
    """Every outcome word of ``[truth]`` after an ``already`` word, in the asking clause of a
    question ("Quer manter seu horário que já está confirmado?"): a claim no receipt backs;
    the same word without it asks ("Quer que fique confirmado?"), and a write of that kind
    backs it."""
    rules = language_rules()
    words = [rules.claims(code) for code in data_languages()]
    claims = rules.claims(language)
    for kind in KINDS:
        for outcome in getattr(claims, kind):
            for already in claims.already:
                asked = f"Zorvak quelbin {already} flimo {outcome}?"
                assert misstates(asked, set(), words), asked
                assert not misstates(asked, {"book", "cancel", "move"}, words), asked
            assert not misstates(f"Zorvak quelbin flimo {outcome}?", set(), words), outcome
