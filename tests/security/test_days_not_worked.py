"""A day a free-times result says is not worked (the business closed, the professional's day
off) holds no relation: "A Carla trabalha segunda", "Carla works on Monday", "Carla atiende el
lunes" were sent after Carla's day off on Monday (review 14's post-hoc probes: 6 lies), since a
day off's professional and weekday were told as one item while a closed day's were not.

Generated over every boolean flag of a result's day (``tools.results.DayTimes``: each must be a
flag of a day not worked, ``told.NOT_WORKED_FLAGS``), every weekday name of each language
(Babel's, as the fact reader reads them) and the day's date: bound when the day has free times,
never when a flag says it is not worked.
"""

from __future__ import annotations

import json
from datetime import date, timedelta

import pytest

from agent_service.application.relations import Relations
from agent_service.infrastructure.agent.deps import ToolText
from agent_service.infrastructure.agent.statement_words import plain_and_denials
from agent_service.infrastructure.agent.told import NOT_WORKED_FLAGS, told_values
from agent_service.infrastructure.agent.tools.results import DayTimes
from agent_service.infrastructure.language.rules import fact_reader, language_rules

LANGUAGES = ("pt", "en", "es")
TODAY = date(2026, 11, 30)  # a Monday
FLAGS = sorted(name for name, field in DayTimes.model_fields.items() if field.annotation is bool)


def test_every_flag_of_a_day_is_one_of_a_day_not_worked() -> None:
    """A new flag on a day must be decided here: told as an item, or as a day not worked."""
    assert FLAGS and set(FLAGS) <= set(NOT_WORKED_FLAGS), FLAGS


def _relations(code: str, flag: str | None, day: date) -> Relations:
    result = {
        "result": "FREE_TIMES",
        "time_zone": "America/Sao_Paulo",
        "days": [
            {
                "day": day.isoformat(),
                "weekday": "x",
                "professional": "Carla Mendes",
                "service": "Manicure",
                "minutes": 40,
                "times": [] if flag else ["09:00", "10:00"],
                "utc_offset": "-03:00",
                **({flag: True} if flag else {}),
            }
        ],
    }
    values = told_values([ToolText("check_availability", json.dumps(result), True)])
    plain, denials = plain_and_denials((code,))
    reader = fact_reader((code,), "America/Sao_Paulo", ("BRL",), TODAY)
    return Relations(reader, values, frozenset({"carla", "mendes", "manicure"}), plain, denials)


@pytest.mark.parametrize("code", LANGUAGES)
@pytest.mark.parametrize("flag", FLAGS)
def test_a_day_not_worked_relates_no_professional_to_it(code: str, flag: str) -> None:
    names = {index: name for name, index in language_rules().calendar(code).weekdays}
    for offset in range(6):
        day = TODAY + timedelta(days=offset)
        said = [f"Carla Mendes {names[day.weekday()]}", f"Carla Mendes {day:%d/%m}"]
        worked, not_worked = _relations(code, None, day), _relations(code, flag, day)
        for sentence in said:
            assert worked.bound(sentence), sentence  # the twin: a day with free times
            assert not not_worked.bound(sentence), (flag, sentence)
