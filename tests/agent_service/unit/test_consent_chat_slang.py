"""Chat slang for a yes, and the friendly gestures beside it (review 17: "fechado 🤙" was read
as a change and "bele" dropped the proposal). Words and emoji are data; the rules over them:
every filler emoji beside every one-word yes or no of every language keeps the answer, alone it
answers nothing, with a question or another word it confirms nothing; every language lists the
same gestures."""

from __future__ import annotations

import pytest

from agent_service.application.consent_policy import Answer, read_answer
from agent_service.infrastructure.language.rules import language_rules

LANGUAGES = ("pt", "en", "es")
RULES = language_rules()
OTHER = {"pt": "amanhã", "en": "tomorrow", "es": "mañana"}


def test_every_language_lists_the_same_filler_gestures() -> None:
    first = set(RULES.consent("pt").filler_emoji)
    assert {"🤙", "🙌"} <= first
    for code in LANGUAGES:
        assert set(RULES.consent(code).filler_emoji) == first, code


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_filler_emoji_keeps_any_answer_and_alone_answers_nothing(language: str) -> None:
    vocabularies = RULES.consent_in(language)
    own = RULES.consent(language)
    answers = [
        (answer, word)
        for answer, words in ((Answer.YES, own.yes), (Answer.NO, own.no))
        for word in words
        if read_answer(word, vocabularies, "book").answer is answer
    ]
    assert len(answers) > 50
    for n, emoji in enumerate(own.filler_emoji):
        assert read_answer(emoji, vocabularies, "book").answer is not Answer.YES, emoji
        for answer, word in answers[n::7]:
            for said in (f"{word} {emoji}", f"{emoji} {word}", f"{word}! {emoji}{emoji}"):
                assert read_answer(said, vocabularies, "book").answer is answer, said
            if answer is Answer.YES:
                for said in (f"{word} {emoji}?", f"{word} {OTHER[language]} {emoji}"):
                    assert read_answer(said, vocabularies, "book").answer is not Answer.YES


def test_the_reported_slang_is_a_yes() -> None:
    vocabularies = RULES.consent_in("pt")
    for said in ("fechado 🤙", "bele", "bele 🤙", "suave, pode marcar", "fechado, tmj"):
        assert read_answer(said, vocabularies, "book").answer is Answer.YES, said
