"""A move said relative to the appointment's own day (session 40's blind batch: "passa meu corte
pro dia seguinte, mesmo horário" was asked "for when?"): the language's next or previous day,
or an amount of days or weeks later or earlier, is counted from the appointment's day, in
every language, with the message built from the data's own words."""

from __future__ import annotations

from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from hypothesis import given, settings
from hypothesis import strategies as st

from agent_service.infrastructure.agent.offline.appointments_flow import choose, new_time
from agent_service.infrastructure.agent.offline.catalog import appointments
from agent_service.infrastructure.language.grammar.vocabulary import Vocabulary
from agent_service.infrastructure.language.packs import word_list
from tests.agent_service.offline_results import appointment, listed

SP = ZoneInfo("America/Sao_Paulo")
NOW = datetime(2026, 11, 30, 9, 0, tzinfo=SP)  # Monday
CUT = datetime(2026, 12, 3, 10, tzinfo=SP)  # Thursday
LISTED = listed(appointment(1, "Corte social", "Lucas Almeida", CUT, ("corte", "haircut")))
MINE = {"pt": "meu corte", "en": "my haircut", "es": "mi corte"}
THE = {"pt": "o", "en": "the", "es": "el"}


def _plain(code: str, table: str, key: str) -> list[str]:
    words = [w.removesuffix("+") for w in Vocabulary(code).patterns(table, key)]
    return [w for w in words if not set(w) & set("*|?~ ")]


@settings(max_examples=60, deadline=None)
@given(code=st.sampled_from(["pt", "en", "es"]), data=st.data(), later=st.booleans(),
       same_time=st.booleans())  # fmt: skip
def test_the_next_or_previous_day_of_the_appointment(
    code: str, data: st.DataObject, later: bool, same_time: bool
) -> None:
    verb = data.draw(st.sampled_from(_plain(code, "appointments", "move_words")))
    to = data.draw(st.sampled_from(_plain(code, "appointments", "to_words")))
    day = data.draw(st.sampled_from(word_list(code, "dates", "next_day" if later else
                                              "previous_day")))  # fmt: skip
    text = f"{verb} {MINE[code]} {to} {THE[code]} {day}"
    if same_time:
        text += ", " + data.draw(st.sampled_from(word_list(code, "appointments", "same_time")))
    found = appointments(LISTED)
    picked = choose([text], found, NOW, moving=True)
    assert picked == found[0], text
    moved = CUT.date() + timedelta(days=1 if later else -1)
    assert new_time(text, picked, NOW) == (moved, time(10)), text


@settings(max_examples=60, deadline=None)
@given(code=st.sampled_from(["pt", "en", "es"]), data=st.data(), count=st.integers(1, 3),
       weeks=st.booleans())  # fmt: skip
def test_an_amount_of_days_or_weeks_later(
    code: str, data: st.DataObject, count: int, weeks: bool
) -> None:
    verb = data.draw(st.sampled_from(_plain(code, "appointments", "move_words")))
    unit = data.draw(st.sampled_from(word_list(code, "dates", "week_units" if weeks else
                                               "day_units")))  # fmt: skip
    later = data.draw(st.sampled_from(word_list(code, "times", "later")))
    text = f"{verb} {MINE[code]} {count} {unit} {later}"
    found = appointments(LISTED)
    picked = choose([text], found, NOW, moving=True)
    assert picked == found[0], text
    moved: date = CUT.date() + timedelta(days=count * (7 if weeks else 1))
    assert new_time(text, picked, NOW) == (moved, time(10)), text
