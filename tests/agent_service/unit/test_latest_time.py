"""The latest time of a day, and an ordinal counted from the end, over the times the customer
saw (session 40's blind batch: "barba com o Rafael amanhã no último horário" booked 11:00, the
fifth of a page of five nobody was shown, after "sim")."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from hypothesis import given
from hypothesis import strategies as st

from agent_service.infrastructure.agent.listings import page
from agent_service.infrastructure.agent.offline.availability_flow import SHOWN, Wanted
from agent_service.infrastructure.language.grammar.when import parse_when
from agent_service.infrastructure.language.packs import word_list

NOW = datetime(2026, 11, 30, 9, tzinfo=ZoneInfo("America/Sao_Paulo"))
CODES = ("pt", "en", "es")
TIMES = [f"{h:02d}:{m:02d}" for h in range(9, 18) for m in (0, 30)]


@given(st.sampled_from(CODES), st.data())
def test_every_latest_phrase_asks_for_the_latest(code: str, data: st.DataObject) -> None:
    phrase = data.draw(st.sampled_from(word_list(code, "ranges", "latest")))
    said = parse_when(f"barba amanha {phrase}", NOW)
    assert said.latest and not said.earliest, phrase


@given(st.integers(1, len(TIMES)), st.booleans())
def test_the_latest_is_the_last_time_that_fits_never_the_last_of_a_page(
    count: int, listed: bool
) -> None:
    fitting = TIMES[:count]
    wanted = Wanted(None, None, False, "", pick_last=True, listed=listed)
    assert wanted.pick(fitting) == fitting[-1]


@given(st.sampled_from(CODES), st.data(), st.integers(1, len(TIMES)), st.booleans())
def test_the_last_one_counts_over_the_page_seen_else_over_every_time(
    code: str, data: st.DataObject, count: int, listed: bool
) -> None:
    last = data.draw(st.sampled_from(word_list(code, "matching", "last")))
    fitting = TIMES[:count]
    wanted = Wanted(None, None, False, f"o {last}", listed=listed)
    shown = page(fitting, SHOWN)
    assert wanted.pick(fitting) == (shown[-1] if listed else fitting[-1])


@given(st.integers(1, len(TIMES)), st.booleans())
def test_the_earliest_is_the_first_time_page_or_not(count: int, listed: bool) -> None:
    fitting = TIMES[:count]
    wanted = Wanted(None, None, True, "", listed=listed)
    assert wanted.pick(fitting) == fitting[0]
