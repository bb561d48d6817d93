"""Yes and no are data ([replies] of every language file), read by one rule
(offline/intents.py): drawn from the data of each spoken language — with fillers before and
punctuation after — every yes is a yes and never a no, every refusal is a no and never a yes,
and an unsure answer is neither. Adding a language's words is enough for its yes to count."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from agent_service.infrastructure.agent.offline.intents import is_affirmative, is_negative
from agent_service.infrastructure.language.grammar.vocabulary import vocabularies


def _spell(pattern: str) -> str:
    """One plain phrase a data pattern matches (first alternative, no continuation)."""
    words = []
    for word in pattern.split():
        if word.endswith("?"):
            continue
        words.append(word.split("|")[0].removesuffix("*").replace("~", "isso"))
    return " ".join(words)


def _drawn(key: str) -> st.SearchStrategy[tuple[str, str]]:
    pairs = [(v.code, _spell(p)) for v in vocabularies() for p in v.patterns("replies", key)]
    return st.sampled_from(pairs)


def _fillers(code: str) -> list[str]:
    return [
        _spell(p) for v in vocabularies() if v.code == code for p in v.patterns("replies", "filler")
    ]


ENDINGS = st.sampled_from(["", "!", ".", " 👍"])


@settings(max_examples=80, deadline=None)
@given(_drawn("strong_yes"), ENDINGS, st.booleans(), st.data())
def test_every_strong_yes_of_every_language_is_a_yes(
    said: tuple[str, str], ending: str, lead: bool, data: st.DataObject
) -> None:
    code, phrase = said
    before = data.draw(st.sampled_from(_fillers(code))) + " " if lead else ""
    message = f"{before}{phrase}{ending}"
    assert is_affirmative(message), message
    assert not is_negative(message), message


@settings(max_examples=40, deadline=None)
@given(_drawn("weak_yes"), ENDINGS)
def test_a_weak_yes_alone_is_a_yes(said: tuple[str, str], ending: str) -> None:
    message = said[1] + ending.replace(" 👍", "")
    assert is_affirmative(message) and not is_negative(message), message


@settings(max_examples=60, deadline=None)
@given(st.one_of(_drawn("negative_start"), _drawn("negative_end")), ENDINGS)
def test_every_refusal_of_every_language_is_a_no(said: tuple[str, str], ending: str) -> None:
    message = said[1] + re.sub("👍", "", ending)
    assert is_negative(message), message
    assert not is_affirmative(message), message


@settings(max_examples=40, deadline=None)
@given(_drawn("unsure"))
def test_an_unsure_answer_is_neither(said: tuple[str, str]) -> None:
    assert not is_affirmative(said[1]) and not is_negative(said[1]), said


@settings(max_examples=40, deadline=None)
@given(_drawn("no_before"))
def test_a_bare_no_before_its_words_is_a_refusal(said: tuple[str, str]) -> None:
    message = f"no {said[1]}"
    assert is_negative(message) and not is_affirmative(message), message
