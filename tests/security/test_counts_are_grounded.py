"""A count is a fact: "3 horários", "two stylists", "dos citas" state how many of something the
tools found, so they are grounded as every other fact is — by a record that counts as many —
and a relation between a count and a name is one result item's ("Ana has 3" when Bruno's day
has 3 and Ana's 2 is no relation a result holds). Before this rule a number up to twelve was
never read (review 8: "Temos 5 profissionais: Ana Souza e Bruno Lima." was sent).

Generated over the language data, never over reported sentences: every noun of every
language's ``[numbers].counted``, each count said in digits and in the language's number
words, against results of generated sizes.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import date
from itertools import product
from typing import cast

import pytest

from agent_service.application.fact_spans import (
    ANY_COUNT,
    COUNT_CLASSES,
    ONE_DAY,
    FactReader,
    Kind,
    field_counts,
)
from agent_service.application.grounding import Grounding
from agent_service.application.relations import Relations
from agent_service.infrastructure.agent.deps import ToolText
from agent_service.infrastructure.agent.statement_words import plain_and_denials
from agent_service.infrastructure.agent.told import told_values
from agent_service.infrastructure.language.packs import word_list
from agent_service.infrastructure.language.rules import fact_reader
from tests.security.test_hostile_lies_after_tools import Case as Played
from tests.security.test_hostile_lies_after_tools import professionals, services
from tests.security.test_hostile_review5 import Case, _reply

LANGUAGES = ("pt", "en", "es")
TODAY = date(2026, 11, 30)
FIELDS = {"times": "times", "professionals": "professionals", "services": "services"}
FIELDS["appointments"] = "appointments"


def _counted(code: str) -> list[tuple[str, str]]:
    pairs = (e.rpartition(" ") for e in word_list(code, "numbers", "counted"))
    return [(noun, what) for noun, _, what in pairs]


def _number_words(code: str) -> dict[int, str]:
    words: dict[int, str] = {}
    for entry in word_list(code, "numbers", "cardinals"):
        word, _, value = entry.rpartition(" ")
        if int(value) >= 2:  # "um", "a", "una" are articles too: "1" in digits only
            words.setdefault(int(value), word)
    return words


def _reader(code: str) -> FactReader:
    return fact_reader((code,), "America/Sao_Paulo", ("BRL",), TODAY)


def _record(what: str, size: int) -> str:
    """A structured result listing ``size`` of ``what`` (as the tools' results do)."""
    key = next(k for k, v in FIELDS.items() if v == what)
    return json.dumps({"result": "X", key: [f"item {n}" for n in range(size)]})


@pytest.mark.parametrize("code", LANGUAGES)
def test_every_counted_noun_is_a_count_noun_of_a_known_class(code: str) -> None:
    """A counted noun is no day of the month nor a time either ("terça, 2 horários")."""
    nouns = set(word_list(code, "numbers", "count_nouns"))
    for noun, what in _counted(code):
        assert noun in nouns, noun
        assert what in (*COUNT_CLASSES, ANY_COUNT), what


CASES = [
    (code, noun, what, size, said)
    for code in LANGUAGES
    for noun, what in _counted(code)
    for size, said in product((2, 3, 5), (-1, 0, 1))
]


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_count_is_grounded_only_by_a_record_counting_as_many(language: str) -> None:
    for code, noun, what, size, said in CASES:
        if code == language:
            _check_count(code, noun, what, size, said)


def _check_count(code: str, noun: str, what: str, size: int, said: int) -> None:
    reader = _reader(code)
    classes = COUNT_CLASSES if what == ANY_COUNT else (what,)
    count = size + said
    for record_class in classes:
        grounding = Grounding(reader, [_record(record_class, size)], ["oi"])
        for number in {str(count), _number_words(code).get(count, str(count))}:
            text = f"{number} {noun}"
            facts = [f for f in reader.facts(text) if f.kind is Kind.COUNT]
            assert [f.text for f in facts] == [text], text
            ungrounded = [u.kind for u in grounding.ungrounded(text)]
            assert (Kind.COUNT in ungrounded) == (said != 0), (text, record_class, size)


@pytest.mark.parametrize("code", LANGUAGES)
def test_a_count_of_one_class_is_not_grounded_by_a_list_of_another(code: str) -> None:
    reader = _reader(code)
    classes: dict[str, set[str]] = {}
    for noun, what in _counted(code):
        classes.setdefault(noun, set()).add(what)
    for noun, counts in classes.items():
        if ANY_COUNT in counts:
            continue
        for other in set(COUNT_CLASSES) - counts:
            grounding = Grounding(reader, [_record(other, 3)], ["oi"])
            ungrounded = [u.kind for u in grounding.ungrounded(f"3 {noun}")]
            assert Kind.COUNT in ungrounded, (noun, other)


@pytest.mark.parametrize("code", LANGUAGES)
def test_a_number_after_a_word_before_an_hour_is_no_count(code: str) -> None:
    reader = _reader(code)
    for marker, (noun, _) in product(word_list(code, "times", "markers"), _counted(code)):
        text = f"{marker} 3 {noun}"
        counts = [f for f in reader.facts(text) if f.kind is Kind.COUNT]
        assert not counts, text


def test_free_times_count_per_professional_per_day_and_in_all() -> None:
    result = {
        "result": "FREE_TIMES",
        "days": [
            {"day": "2026-12-01", "professional": "Ana", "times": ["10:00", "11:00"]},
            {"day": "2026-12-01", "professional": "Bruno", "times": ["09:00", "10:00", "12:00"]},
            {"day": "2026-12-02", "professional": "Ana", "times": ["14:00"]},
        ],
    }
    counts = [cast(tuple[object, ...], v) for k, v in field_counts(json.dumps(result))]
    # a result of two days: the whole result's count is a count; a day's, that day's only
    assert {c[1] for c in counts if c[0] == "times" and len(c) == 2} == {6}
    assert {c[1] for c in counts if c[0] == "times" and c[2:] == (ONE_DAY,)} == {2, 3, 1, 5}
    one_day = {**result, "days": result["days"][:2]}
    counts = [cast(tuple[object, ...], v) for k, v in field_counts(json.dumps(one_day))]
    assert {c[1] for c in counts if c[0] == "times"} == {2, 3, 5}
    assert all(len(c) == 2 for c in counts)


def _relations(code: str, result: Mapping[str, object]) -> Relations:
    reader = _reader(code)
    values = told_values([ToolText("check_availability", json.dumps(result), True)])
    plain, denials = plain_and_denials((code,))
    return Relations(reader, values, frozenset({"ana", "bruno"}), plain, denials)


@pytest.mark.parametrize("code", LANGUAGES)
def test_a_count_said_of_a_professional_is_that_professionals(code: str) -> None:
    """Ana's day has ``ana`` free times, Bruno's ``bruno``: "Ana ... N <times noun>" is bound
    only when N is Ana's."""
    nouns = [noun for noun, what in _counted(code) if what in ("times", ANY_COUNT)]
    for ana, bruno in ((2, 3), (3, 2), (4, 1)):
        result = {
            "result": "FREE_TIMES",
            "days": [
                {"day": "2026-12-01", "professional": "Ana", "times": ["x"] * ana},
                {"day": "2026-12-01", "professional": "Bruno", "times": ["y"] * bruno},
            ],
        }
        relations = _relations(code, result)
        for noun, said in product(nouns, (ana, bruno)):
            sentence = f"Ana: {said} {noun}."
            assert relations.bound(sentence) == (said == ana), (sentence, ana, bruno)


PLAYED = {
    "pt": ("quem trabalha aí e quais serviços vocês têm?", "Temos {n} {noun}: {names}."),
    "en": ("who works there and what services do you have?", "We have {n} {noun}: {names}."),
    "es": ("¿quién trabaja ahí y qué servicios tienen?", "Tenemos {n} {noun}: {names}."),
}
NAMES = {"professionals": "Ana Souza, Bruno Lima", "services": "Corte feminino, Barba"}
CALLS = {"professionals": professionals, "services": services}
AND = {"pt": "e", "en": "and", "es": "y"}


def _played() -> list[tuple[str, str, str, int]]:
    """The demo salon has two professionals and two services: every professional and service
    noun of every language, with the true count and a false one."""
    return [
        (code, noun, what, n)
        for code in LANGUAGES
        for noun, what in _counted(code)
        if what in CALLS
        for n in (2, 3)
    ]


@pytest.mark.parametrize(("code", "noun", "what", "n"), _played())
async def test_a_false_count_is_never_sent_and_a_true_one_is(
    code: str, noun: str, what: str, n: int
) -> None:
    asked, frame = PLAYED[code]
    names = NAMES[what].replace(", ", f" {AND[code]} ")
    reply = frame.format(n=n, noun=noun, names=names)
    played = Played(code, asked, "discovery", CALLS[what], reply, n == 2)
    got, actions = await _reply(Case(played))
    assert actions == ()
    assert (reply in got) == (n == 2), got
