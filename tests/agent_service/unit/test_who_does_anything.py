"""A question asking for people ("quem…?", "who…?", "¿quién…?") is about the catalog's people
whatever the rest of its words: routed to discovery (which lists who does what), never
answered by whichever FAQ entry shares a word with it (blind batch 14: "quem mexe com bike
elétrica aí?" got the bike-storage answer; "¿quién centra ruedas?" got "not in our FAQ").

Generated: every plain people word of every language's ``[intents].people``, before random
words that are no word of the language data (a service the lexicon does not know, any verb).
"""

from __future__ import annotations

import string

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agent_service.application.text import normalize
from agent_service.infrastructure.language.grammar.asks import asked
from agent_service.infrastructure.language.packs import known_words, language_data

CODES = ("pt", "en", "es")
PEOPLE = [
    (code, word)
    for code in CODES
    for word in language_data(code)["intents"]["people"]
    if word.isalpha()  # "profission*" is a stem, not a word said alone
]
KNOWN = frozenset().union(*map(known_words, CODES))
words = st.text(alphabet=string.ascii_lowercase, min_size=4, max_size=9).filter(
    lambda word: word not in KNOWN  # no word of the language data ("location" asks the FAQ)
)


@settings(max_examples=200)
@given(
    case=st.sampled_from(PEOPLE),
    rest=st.lists(words, min_size=1, max_size=4),
    mark=st.sampled_from(["?", " ?", "? 🙂"]),
)
def test_a_question_for_people_is_the_catalogs(
    case: tuple[str, str], rest: list[str], mark: str
) -> None:
    code, people = case
    opening = "¿" if code == "es" else ""
    text = normalize(f"{opening}{people} {' '.join(rest)}{mark}")
    asks = asked(text, code)
    assert "discovery" in asks, (text, asks)
    assert "faq" not in asks, (text, asks)


IDENTITY = [
    (code, people, word)
    for code in CODES
    for people in language_data(code)["intents"]["people"]
    if people.isalpha() and "discovery" not in asked(people, code)  # "staff": the team
    for word in language_data(code)["intents"]["people_identity"]
]


@pytest.mark.parametrize("code", CODES)
def test_who_someone_is_is_no_question_for_the_catalog(code: str) -> None:
    """ "quem é você?", "who owns the salon?", "¿con quién hablo?": a people word right before
    a word of ``[intents].people_identity`` asks who someone is (review 13: the team listing
    answered "who are you?"), unless it names a kind of service."""
    wrong = []
    for language, people, word in IDENTITY:
        if language != code:
            continue
        for rest in ("", " voce", " you", " el dueno"):
            text = normalize(f"{people} {word}{rest}?")
            if "discovery" in asked(text, code):
                wrong.append(text)
    assert not wrong, wrong
