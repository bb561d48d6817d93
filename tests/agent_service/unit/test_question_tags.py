"""A question that checks the proposal ends with a tag ("¿a las 10, no?", "é amanhã, não?",
"tomorrow, no?"): the tag asks for a yes, it declines nothing, and the question is never a yes.
Session 41's blind batch found "¿a las 10, no?" read as a no: the proposal was turned down and
the customer read the tool's code ("No fue posible: TURNED DOWN: ..."). The tags are every
one-word no of each language's ``[consent].no``, never written here.
"""

from __future__ import annotations

import random

import pytest

from agent_service.application.consent_policy import Answer, read_answer
from agent_service.infrastructure.agent.outcome_text import failure_note
from agent_service.infrastructure.agent.tools.results import Failed
from agent_service.infrastructure.language.rules import language_rules

LANGUAGES = ("pt", "en", "es")
CHECKED = {"pt": ["amanhã", "com o Rafael", "às 10h"], "en": ["tomorrow", "with Rafael", "at 10"],
           "es": ["mañana", "con Rafael", "a las 10"]}  # fmt: skip


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_no_that_tags_a_question_declines_nothing(language: str) -> None:
    rng = random.Random(f"tags-{language}")
    vocabulary = language_rules().consent(language)
    tags = [word for word in vocabulary.no if " " not in word]
    assert tags
    for tag in tags:
        for shape in ("{}, {}?", "{} {}?", "¿{}, {}?"):
            message = shape.format(rng.choice(CHECKED[language]), tag)
            reading = read_answer(message, language_rules().consent_in(language), "book")
            assert reading.answer is Answer.OTHER, message
            assert not reading.unwanted, message


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_no_alone_or_first_still_declines(language: str) -> None:
    consent = language_rules().consent_in(language)
    for word in language_rules().consent(language).no[:8]:
        assert read_answer(f"{word}?", consent, "book").unwanted, word
        assert read_answer(f"{word}, {CHECKED[language][0]}", consent, "book").unwanted, word


def test_a_failure_note_loses_every_code_that_leads_it() -> None:
    note = "NOT DONE: TURNED DOWN: você acabou de recusar exatamente isso"
    failed = Failed(result="NOT_DONE", reason="turned_down", note=note)
    assert failure_note(failed) == "você acabou de recusar exatamente isso"
    plain = Failed(result="NOT_DONE", reason="turned_down", note="Horário: 10h")
    assert failure_note(plain) == "Horário: 10h"


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_hedged_answer_is_never_a_yes(language: str) -> None:
    """Every ``[consent].unsure`` phrase ("acho que sim", "I guess so", "creo que sí": a blind
    probe of session 41 found the Portuguese one read as a yes), alone or beside a yes word,
    confirms nothing and is an answer (the proposal is not asked again as if unanswered)."""
    consent = language_rules().consent_in(language)
    vocabulary = language_rules().consent(language)
    for phrase in vocabulary.unsure:
        for message in (phrase, f"{phrase}!", f"{vocabulary.yes[0]}, {phrase}"):
            reading = read_answer(message, consent, "book")
            assert reading.answer is not Answer.YES and reading.answered, message
