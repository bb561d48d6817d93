"""The offline model reads its intent words as the conversation's language reads them
(``vocabulary.found``), generated from the data files: a word the conversation's language
knows (``known_words``) and does not list for an intent is no sign of that intent there, though
another language lists it (Spanish "fecha", a date, is Portuguese for "closes"); in a
conversation in that other language it still is.
"""

from __future__ import annotations

import pytest

from agent_service.infrastructure.agent.offline.intents import classify_intent
from agent_service.infrastructure.language.grammar.vocabulary import found, in_language
from agent_service.infrastructure.language.packs import known_words, language_data

LANGUAGES = ("pt", "en", "es")
# The lists classify_intent reads through found().
READ = [("intents", key) for key in ("booking", "booking_weak", "times_question", "anyone",
        "discovery", "faq", "policy_question")] + [("faq", "hours_question")]  # fmt: skip


def _single_words(code: str, table: str, key: str) -> set[str]:
    """The one-word phrases of ``[table].key`` of ``code``, alternatives expanded."""
    words = set()
    for phrase in language_data(code)[table][key]:
        if " " not in phrase and "~" not in phrase:
            words |= {word.rstrip("*?") for word in phrase.split("|")}
    return words


def _false_friends() -> list[tuple[str, str, str, str, str]]:
    return [
        (code, other, table, key, word)
        for code in LANGUAGES
        for other in LANGUAGES
        if other != code
        for table, key in READ
        for word in sorted(_single_words(other, table, key))
        if word in known_words(code) and not in_language(table, key, code).fullmatch(word)
    ]


FALSE_FRIENDS = _false_friends()


def test_the_data_has_false_friends_to_check() -> None:
    assert ("es", "pt", "intents", "faq", "fecha") in FALSE_FRIENDS


@pytest.mark.parametrize(("code", "other", "table", "key", "word"), FALSE_FRIENDS)
def test_a_known_word_is_read_in_the_conversations_language(
    code: str, other: str, table: str, key: str, word: str
) -> None:
    assert found(table, key, f"e {word} e", code) == []
    assert found(table, key, f"e {word} e", other) == [word]


FAQ_WORDS = [row for row in FALSE_FRIENDS if row[3] in ("faq", "hours_question")]


@pytest.mark.parametrize(("code", "other", "table", "key", "word"), FAQ_WORDS)
def test_a_known_word_asks_no_faq_in_the_conversations_language(
    code: str, other: str, table: str, key: str, word: str
) -> None:
    intent, confidence = classify_intent(word, code)
    assert intent != "faq" or confidence < 0.6, (code, word, intent, confidence)
    assert classify_intent(word, other)[0] == "faq"
