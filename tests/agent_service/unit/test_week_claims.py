"""Claims about a week in the truth check's readings (session 40's hostile batch): a span of
weekdays is a range whatever its "from"; a weekday's plural is that weekday; a word a day
mention of the conversation's own language holds is no denial, a foreign day's is."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from agent_service.application.text import normalize
from agent_service.infrastructure.language.grammar.calendar_names import calendar_names
from agent_service.infrastructure.language.grammar.vocabulary import Vocabulary
from agent_service.infrastructure.language.grammar.when import says_a_range, without_own_dates
from agent_service.infrastructure.language.packs import word_list
from agent_service.infrastructure.language.rules import language_rules

CODES = ("pt", "en", "es")


def _weekdays(code: str) -> list[str]:
    """The date grammar's weekday names (singular: "no domingos" is no Portuguese)."""
    return sorted(w for w in calendar_names(Vocabulary(code)).weekdays if " " not in w)


@given(st.sampled_from(CODES), st.data())
def test_a_span_of_two_weekdays_is_a_range(code: str, data: st.DataObject) -> None:
    first, last = (data.draw(st.sampled_from(_weekdays(code))) for _ in range(2))
    lists = set(word_list(code, "matching", "and_words"))
    joints = [f" {w} " for w in word_list(code, "ranges", "to_day") if w not in lists]
    joint = data.draw(st.sampled_from([*joints, "-", " - ", "/", " – "]))
    assert says_a_range(f"Ana {first}{joint}{last}"), (first, joint, last)


@given(st.sampled_from(CODES), st.data())
def test_two_weekdays_joined_by_and_are_a_list_no_range(code: str, data: st.DataObject) -> None:
    first, last = (data.draw(st.sampled_from(_weekdays(code))) for _ in range(2))
    joint = data.draw(st.sampled_from(word_list(code, "matching", "and_words")))
    assert not says_a_range(f"Ana {first} {joint} {last}"), (first, joint, last)


@given(st.sampled_from(CODES), st.data())
def test_one_weekday_is_no_range(code: str, data: st.DataObject) -> None:
    day = data.draw(st.sampled_from(_weekdays(code)))
    assert not says_a_range(f"Ana {day}")


@given(st.sampled_from(CODES), st.integers(0, 6))
def test_a_weekdays_plural_is_that_weekday(code: str, index: int) -> None:
    names = dict(language_rules().calendar(code).weekdays)
    plural = [w for w, i in language_rules().calendar(code).weekdays if i == index]
    assert any(w.endswith("s") for w in plural) and all(names[w] == index for w in plural)


@given(st.sampled_from(_weekdays("pt")))
def test_portuguese_no_before_its_own_weekday_is_part_of_the_day(day: str) -> None:
    assert "no" not in without_own_dates(f"A Ana atende no {day}", "pt").split()


@given(st.sampled_from(_weekdays("en")))
def test_no_before_a_foreign_weekday_stays_a_word(day: str) -> None:
    assert "no" in without_own_dates(f"No {day.title()}.", "pt").split()
    assert normalize("No") == "no"
