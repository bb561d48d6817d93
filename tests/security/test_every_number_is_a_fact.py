"""Every number a reply says is a fact, whatever words are around it, and a record's number is
one it states. Before this rule a bare integer up to twelve was no fact at all ("Horários
livres da Ana na terça: 4.", "Ana is free Tuesday, say 10?" were sent with 10:00 taken), and
any other number was grounded by a part of a record's dates and times (the "04" of
"2026-12-04", the "30" of "10:30"). A count of free times told without a day is the whole
result's: one day's count is told of that day only ("A Ana tem 11 horários livres." was sent
over a result of two days, 11 being Tuesday's).

Generated, never the reported sentences: free-time results of random days and times, numbers
taken from the parts of their dates and times, ordinary words around them that are no word of
the language data, in every language; counted nouns and weekday names of each language.
"""

from __future__ import annotations

import json
import string
from datetime import date, timedelta

import pytest
from babel.dates import format_date
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from agent_service.application.grounding import Grounding
from agent_service.infrastructure.language.packs import word_list
from agent_service.infrastructure.language.rules import fact_reader
from tests.scale import size

LANGUAGES = ("pt", "en", "es")
TODAY = date(2026, 11, 30)
EXAMPLES = settings(max_examples=size(60, 600))
LOCALES = {"pt": "pt_BR", "en": "en", "es": "es"}


def _known_words() -> frozenset[str]:
    """Every word of the data's markers and counted nouns: the fillers are none of them."""
    words: set[str] = set()
    for code in LANGUAGES:
        for section, key in (("times", "markers"), ("numbers", "counted")):
            for entry in word_list(code, section, key):
                words.update(entry.split())
    return frozenset(words)


KNOWN = _known_words()
fillers = st.lists(
    st.text(alphabet=string.ascii_lowercase, min_size=2, max_size=7).filter(
        lambda w: w not in KNOWN
    ),
    min_size=0,
    max_size=3,
)
starts = st.lists(
    st.tuples(st.integers(0, 6), st.integers(8, 19), st.sampled_from([0, 15, 30, 45])),
    min_size=1,
    max_size=8,
)


def _result(slots: list[tuple[int, int, int]]) -> tuple[str, set[int]]:
    """A free-times result of these (day offset, hour, minute) starts, and every number a
    part of its dates and times spells."""
    days: dict[date, list[str]] = {}
    parts: set[int] = set()
    for offset, hour, minute in sorted(set(slots)):
        day = TODAY + timedelta(days=offset)
        days.setdefault(day, []).append(f"{hour:02d}:{minute:02d}")
        parts |= {day.day, day.month, day.year, hour, minute}
    listed = [
        {"day": day.isoformat(), "professional": "Ana Souza", "times": times}
        for day, times in days.items()
    ]
    return json.dumps({"result": "FREE_TIMES", "days": listed}), parts


@EXAMPLES
@given(
    code=st.sampled_from(LANGUAGES),
    slots=starts,
    before=fillers,
    after=fillers,
    pick=st.integers(0, 100),
)
def test_a_number_only_a_part_of_a_records_dates_and_times_spells_is_refused(
    code: str, slots: list[tuple[int, int, int]], before: list[str], after: list[str], pick: int
) -> None:
    record, parts = _result(slots)
    number = sorted(parts)[pick % len(parts)]
    assume(number < 100)  # a year is four digits: no hour, count or price of a reply
    reader = fact_reader((code,), "America/Sao_Paulo", ("BRL",), TODAY)
    grounding = Grounding(reader, [record], ["oi"])
    words = " ".join([*before, str(number), *after])
    text = f"Ana Souza {words}."
    ungrounded = [u.text for u in grounding.ungrounded(text)]
    assert any(str(number) in u for u in ungrounded), (text, record)


@EXAMPLES
@given(code=st.sampled_from(LANGUAGES), number=st.integers(0, 999), before=fillers)
def test_a_number_a_record_states_grounds_the_same_number(
    code: str, number: int, before: list[str]
) -> None:
    reader = fact_reader((code,), "America/Sao_Paulo", ("BRL",), TODAY)
    grounding = Grounding(reader, [f"Rua das Flores, {number}. Sala {number}"], ["oi"])
    text = f"Rua das Flores {' '.join(before)} {number}."
    assert [u.text for u in grounding.ungrounded(text)] == [], text


def _times_nouns(code: str) -> list[str]:
    pairs = (entry.rpartition(" ") for entry in word_list(code, "numbers", "counted"))
    return [noun for noun, _, what in pairs if what in ("times", "options")]


def _weekday(code: str, day: date) -> str:
    return format_date(day, "EEEE", locale=LOCALES[code])


@pytest.mark.parametrize("code", LANGUAGES)
def test_one_days_count_is_told_of_that_day_only(code: str) -> None:
    """Ana has ``counts[i]`` free times on day i: a count told without a day is the whole
    result's; one day's, only beside that day's weekday."""
    reader = fact_reader((code,), "America/Sao_Paulo", ("BRL",), TODAY)
    for counts in ((3, 5), (4, 1, 2), (6, 2)):
        days = [TODAY + timedelta(days=1 + n) for n in range(len(counts))]
        listed = [
            {"day": day.isoformat(), "professional": "Ana Souza", "times": ["x"] * count}
            for day, count in zip(days, counts, strict=True)
        ]
        grounding = Grounding(reader, [json.dumps({"days": listed})], ["oi"])
        total = sum(counts)
        for noun in _times_nouns(code):
            for count, day in zip(counts, days, strict=True):
                alone = f"Ana Souza: {count} {noun}."
                assert grounding.ungrounded(alone), alone
                dated = f"Ana Souza: {count} {noun}, {_weekday(code, day)}."
                assert not grounding.ungrounded(dated), dated
            whole = f"Ana Souza: {total} {noun}."
            assert not grounding.ungrounded(whole), whole


@EXAMPLES
@given(
    code=st.sampled_from(LANGUAGES),
    amount=st.integers(1, 999),
    shape=st.sampled_from(["R$ {n},00", "{n}%", "{n} min"]),
    before=fillers,
)
def test_a_bare_number_is_no_price_percentage_or_length_of_a_record(
    code: str, amount: int, shape: str, before: list[str]
) -> None:
    """ "Ana is free Tuesday, say 55?" when a service costs R$ 55,00: a bare number is grounded
    only by a bare number of a record (review 13: sent)."""
    reader = fact_reader((code,), "America/Sao_Paulo", ("BRL",), TODAY)
    grounding = Grounding(reader, [f"Escova: {shape.format(n=amount)}"], ["oi"])
    text = f"Ana Souza {' '.join(before)} {amount}."
    assert any(str(amount) in u.text for u in grounding.ungrounded(text)), text
