"""A word of the conversation's own language is read in that language only (the consent rule
of ``application/consent_policy``, "languages in play"), generated from the data files.

* Every word the conversation's language knows (``known_words``: its data file and its
  system sentences) that is no consent word of its own — Portuguese "vale" (a voucher), Spanish
  "ya" (already) — is no answer there, whichever language reads it as a yes or a no.
* A consent word of another language that the conversation's language does not know is still
  read in that language's sense (a customer may answer "yes" in a Portuguese conversation).
"""

from __future__ import annotations

import re

import pytest

from agent_service.application.consent_policy import Answer, ConsentVocabulary, read_answer
from agent_service.infrastructure.language.rules import language_rules

RULES = language_rules()
LANGUAGES = ("pt", "en", "es")
_TOKEN = re.compile(r"[^\W_]+")


def _single_words(vocabulary: ConsentVocabulary, kinds: bool = True) -> dict[str, str]:
    """The one-word phrases of ``vocabulary`` with what they are (yes, no or filler; the yes
    words of one kind of change among the yes words when ``kinds``)."""
    kinds_yes = [w for _, words in vocabulary.yes_by_kind for w in words] if kinds else []
    found: dict[str, str] = {}
    for label, phrases in (("filler", vocabulary.filler), ("no", vocabulary.no),
                           ("yes", (*vocabulary.yes, *kinds_yes))):  # fmt: skip
        found.update({p: label for p in phrases if len(_TOKEN.findall(p)) == 1})
    return found


OWN = {code: _single_words(RULES.consent(code)) for code in LANGUAGES}


def _false_friends(code: str) -> list[tuple[str, str]]:
    """(word, other language) pairs: a yes or no word of the other language that ``code``
    knows in another sense."""
    known = RULES.known_words(code)
    every_own_word = {w for p in OWN[code] for w in _TOKEN.findall(p)}
    return [
        (word, other)
        for other in LANGUAGES
        if other != code
        for word, label in OWN[other].items()
        if label in ("yes", "no") and word in known and word not in every_own_word
    ]


FALSE_FRIENDS = [(code, word, other) for code in LANGUAGES for word, other in _false_friends(code)]


def test_the_data_has_false_friends_to_check() -> None:
    """The property below is not vacuous: each language knows some other language's answer
    word in another sense (Portuguese "vale", Spanish "ya", English "show")."""
    assert {code for code, _, _ in FALSE_FRIENDS} == set(LANGUAGES)


@pytest.mark.parametrize(("code", "word", "other"), FALSE_FRIENDS)
@pytest.mark.parametrize("form", ["{}", "{}!", "{}, {}", "{} por favor"])
def test_a_word_of_the_conversations_language_is_no_foreign_answer(
    code: str, word: str, other: str, form: str
) -> None:
    text = form.format(word, word)
    reading = read_answer(text, RULES.consent_in(code), "book")
    assert reading.answer is Answer.OTHER, (code, text, other, reading)
    assert word in reading.leftover.lower()


PLAIN = {code: _single_words(RULES.consent(code), kinds=False) for code in LANGUAGES}


def _foreign_answers(code: str) -> list[tuple[str, str, str]]:
    """(word, other language, yes or no): a plain answer word of the other language that
    ``code`` does not know and no language reads otherwise."""
    known = RULES.known_words(code)
    readings: dict[str, set[str]] = {}
    for other in LANGUAGES:
        for word, label in OWN[other].items():
            readings.setdefault(word, set()).add(label)
    return [
        (word, other, label)
        for other in LANGUAGES
        if other != code
        for word, label in PLAIN[other].items()
        if label in ("yes", "no") and word not in known and readings[word] == {label}
    ]


FOREIGN = [(code, *row) for code in LANGUAGES for row in _foreign_answers(code)]


@pytest.mark.parametrize(("code", "word", "other", "label"), FOREIGN)
def test_a_foreign_answer_word_the_conversation_does_not_know_is_still_read(
    code: str, word: str, other: str, label: str
) -> None:
    reading = read_answer(word, RULES.consent_in(code), "book")
    assert reading.answer is Answer(label), (code, word, other, reading)
