"""A move by an amount (``grammar/times.shift_of``), as a property over the language data
(session 39's blind batch: "uma hora mais tarde", "push it back an hour" and "adiantar em 1
hora" were not understood as moves): a later or earlier verb of ``[times]``, up to six other
words, then an amount and a unit, is that many minutes later or earlier; so is an amount and
a unit followed by a later or earlier word; a clock time is no shift."""

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
    return hours + [(w, 1) for w in word_list(code, "times", "minute_units")]


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
