"""A yes to a kind of change may carry the pronouns a language writes onto its verb: Spanish
"muévela", "cancélala", "agéndamela" (review 17: "sí, muévela" was asked again while "sí,
cancélala" booked — only some forms were listed). A rule of the language's ``[morphology]``
(``enclitics``, ``enclitic_lists.consent``, ``enclitic_never_last``), never a list of forms:
generated over every language's kind lists and pronouns; the form is a yes to its own kind only,
no form ends in a pronoun that makes another form of the verb ("cancelase"), and a form beside
another word or a question confirms nothing."""

from __future__ import annotations

import pytest

from agent_service.application.consent_policy import Answer, read_answer
from agent_service.infrastructure.language.packs import language_data, word_list
from agent_service.infrastructure.language.rules import CHANGE_KINDS, language_rules

LANGUAGES = ("pt", "en", "es")
OTHER = {"pt": "amanhã", "en": "tomorrow", "es": "mañana"}
YES = {"pt": "sim", "en": "yes", "es": "sí"}
LISTS = ("yes", "no", "filler", "farewell", "unsure", "unclear", "no_book", "no_cancel",
         "no_reschedule")  # fmt: skip


def _morphology(code: str) -> tuple[tuple[str, ...], frozenset[str], tuple[str, ...]]:
    morphology = language_data(code)["morphology"]
    return (
        tuple(morphology["enclitics"]),
        frozenset(morphology["enclitic_never_last"]),
        tuple(morphology["enclitic_lists"]["consent"]),
    )


def _commands(code: str, kind: str) -> list[str]:
    """The kind's own one-word yes words that may be a command (the grammar's rule)."""
    return [
        w
        for w in word_list(code, "consent", f"yes_{kind}")
        if w.isalpha() and len(w) >= 4 and w[-1] in "aeiour"
    ]


def _forms(code: str, kind: str) -> list[str]:
    pronouns, never_last, lists = _morphology(code)
    if f"yes_{kind}" not in lists:
        return []
    endings = [p for p in pronouns if p not in never_last]
    endings += [a + b for a in pronouns for b in pronouns if b not in never_last]
    return [verb + ending for verb in _commands(code, kind) for ending in endings]


def test_a_language_that_writes_pronouns_onto_verbs_names_its_consent_lists() -> None:
    pronouns, never_last, lists = _morphology("es")
    assert pronouns and never_last <= set(pronouns)
    assert set(lists) == {f"yes_{kind}" for kind in CHANGE_KINDS}
    for code in ("pt", "en"):  # "cancela-o" is two words: no pronoun is written onto a verb
        assert _morphology(code)[0] == () and _morphology(code)[2] == ()


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("kind", CHANGE_KINDS)
def test_a_kinds_verb_with_its_pronouns_is_a_yes_to_that_kind_only(
    language: str, kind: str
) -> None:
    vocabulary = language_rules().consent_in(language)
    forms = _forms(language, kind)
    if language == "es":
        assert len(forms) > 50, kind
    for form in forms:
        for said in (form, f"{YES[language]}, {form}", f"{form} por favor"):
            assert read_answer(said, vocabulary, kind).answer is Answer.YES, (said, kind)
        for other in CHANGE_KINDS:
            if other != kind and form not in _forms(language, other):
                got = read_answer(f"{YES[language]}, {form}", vocabulary, other).answer
                assert got is not Answer.YES, (form, other)


@pytest.mark.parametrize("kind", CHANGE_KINDS)
def test_no_form_ends_in_a_pronoun_that_makes_another_form_of_the_verb(kind: str) -> None:
    """ "cancelase" (if it were cancelled) is no command: "se" only before another pronoun."""
    vocabulary = language_rules().consent_in("es")
    pronouns, never_last, _ = _morphology("es")
    for verb in _commands("es", kind):
        for last in never_last:
            for said in (verb + last, *(verb + first + last for first in pronouns)):
                assert read_answer(said, vocabulary, kind).answer is not Answer.YES, said
        assert read_answer(verb + "selo", vocabulary, kind).answer is Answer.YES, verb


@pytest.mark.parametrize("kind", CHANGE_KINDS)
def test_a_form_is_in_no_other_consent_list_and_never_confirms_with_more(kind: str) -> None:
    lists = {
        word for code in LANGUAGES for key in LISTS for word in word_list(code, "consent", key)
    }
    vocabulary = language_rules().consent_in("es")
    for form in _forms("es", kind):
        assert form not in lists, form
        for said in (f"{form}?", f"¿{form}?", f"{form} {OTHER['es']}", f"sí, {form} xyzzy"):
            assert read_answer(said, vocabulary, kind).answer is not Answer.YES, said


def test_the_reported_move_is_a_yes() -> None:
    vocabulary = language_rules().consent_in("es")
    assert read_answer("sí, muévela", vocabulary, "reschedule").answer is Answer.YES
    assert read_answer("sí, cancélala", vocabulary, "cancel").answer is Answer.YES
    assert read_answer("sí, agéndamela", vocabulary, "book").answer is Answer.YES
