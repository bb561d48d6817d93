"""A move by an amount (``grammar/times.shift_of``), as a property over the language data
(session 39's blind batch: "uma hora mais tarde", "push it back an hour" and "adiantar em 1
hora" were not understood as moves): a later or earlier verb of ``[times]``, up to six other
words, then an amount and a unit, is that many minutes later or earlier; so is an amount and
a unit followed by a later or earlier word; a clock time is no shift. Session 40's blind batch
("o dia seguinte, mesmo horário" was not read): days and weeks are units too, and the
language's next and previous day ("[dates].next_day") are one day later or earlier, except
before a relative day ("the day after tomorrow" is a date, no move)."""

from __future__ import annotations

from datetime import timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from agent_service.infrastructure.language.grammar.when import shift
from agent_service.infrastructure.language.packs import word_list
from tests.scale import size

CODES = ("pt", "en", "es")
EXAMPLES = settings(max_examples=size(40, 500), deadline=None)
FILLER = {"pt": ["meu", "corte", "de", "quinta", "em", "a"], "en": ["my", "haircut", "it", "by"],
          "es": ["mi", "corte", "del", "jueves", "en"]}  # fmt: skip


def _units(code: str) -> list[tuple[str, int]]:
    hours = [(w, 60) for w in word_list(code, "times", "hour_units") if len(w) > 1]
    days = [(w, 1440) for w in word_list(code, "dates", "day_units")]
    weeks = [(w, 10080) for w in word_list(code, "dates", "week_units")]
    return hours + days + weeks + [(w, 1) for w in word_list(code, "times", "minute_units")]


@EXAMPLES
@given(code=st.sampled_from(CODES), data=st.data(), amount=st.integers(1, 90),
       later=st.booleans())  # fmt: skip
def test_a_verb_then_an_amount_is_a_shift(
    code: str, data: st.DataObject, amount: int, later: bool
) -> None:
    verb = data.draw(st.sampled_from(word_list(code, "times", "later_verbs" if later else
                                                "earlier_verbs")))  # fmt: skip
    filler = data.draw(st.lists(st.sampled_from(FILLER[code]), max_size=5))
    unit, scale = data.draw(st.sampled_from(_units(code)))
    text = " ".join([verb, *filler, str(amount), unit])
    minutes = amount * scale
    assert shift(text) == timedelta(minutes=minutes if later else -minutes), text


@EXAMPLES
@given(code=st.sampled_from(CODES), data=st.data(), amount=st.integers(1, 90),
       later=st.booleans())  # fmt: skip
def test_an_amount_then_later_or_earlier_is_a_shift(
    code: str, data: st.DataObject, amount: int, later: bool
) -> None:
    word = data.draw(st.sampled_from(word_list(code, "times", "later" if later else "earlier")))
    unit, scale = data.draw(st.sampled_from(_units(code)))
    minutes = amount * scale
    text = f"pode ser {amount} {unit} {word}"
    assert shift(text) == timedelta(minutes=minutes if later else -minutes), text


@EXAMPLES
@given(code=st.sampled_from(CODES), data=st.data(), hour=st.integers(8, 19))
def test_a_clock_time_after_a_verb_is_no_shift(code: str, data: st.DataObject, hour: int) -> None:
    verb = data.draw(st.sampled_from(word_list(code, "times", "later_verbs")))
    assert shift(f"{verb} para {hour}:00") is None


@EXAMPLES
@given(code=st.sampled_from(CODES), data=st.data(), later=st.booleans())
def test_the_next_or_previous_day_is_one_day(code: str, data: st.DataObject, later: bool) -> None:
    phrase = data.draw(st.sampled_from(word_list(code, "dates", "next_day" if later else
                                                  "previous_day")))  # fmt: skip
    filler = data.draw(st.lists(st.sampled_from(FILLER[code]), max_size=4))
    text = " ".join([*filler, "o" if code == "pt" else "the", phrase])
    assert shift(text) == timedelta(days=1 if later else -1), text


@EXAMPLES
@given(code=st.sampled_from(CODES), data=st.data(), later=st.booleans())
def test_the_next_or_previous_day_before_a_relative_day_is_no_move(
    code: str, data: st.DataObject, later: bool
) -> None:
    phrase = data.draw(st.sampled_from(word_list(code, "dates", "next_day" if later else
                                                  "previous_day")))  # fmt: skip
    relative = data.draw(st.sampled_from([*word_list(code, "dates", "tomorrow"),
                                          *word_list(code, "dates", "yesterday")]))  # fmt: skip
    assert shift(f"{phrase} {relative}") is None
