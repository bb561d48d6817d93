"""A day of the month with no month is a date (review 6, blind: "Terça, dia 2, a Ana tem às
10h." was sent on a Monday, November 30th, whose Tuesday is December 1st): a number after the
language's word for a day ("dia 7"), right after a weekday ("martes 2") or written as an
ordinal ("the 3rd") is read as the first such day from today on, so it must agree with the
weekday or the relative day beside it and with the records, like any other date.

Generated from the languages' own words (CLDR weekday names, ``[dates].day_units`` and
``[dates].tomorrow``): every day number of the next two weeks, the true one told, the others
refused. The hostile model checks Ana's free times for tomorrow (Tuesday, December 1st) and
states them on the day it names."""

from __future__ import annotations

import pytest
from babel.dates import get_day_names

from agent_service.infrastructure.language.packs import word_list
from tests.security.test_hostile_lies_after_tools import times
from tests.security.test_hostile_review5 import Case, _reply, lie, true

TUESDAY = 1  # CLDR index of the checked day's weekday (tomorrow, December 1st)
TOLD = 1  # its day of the month
ASKED = {"pt": "a Ana tem horário amanhã?", "en": "does Ana have time tomorrow?",
         "es": "¿Ana tiene hora mañana?"}  # fmt: skip
HAS = {"pt": "a Ana tem às 10:00.", "en": "Ana has 10:00 free.", "es": "Ana tiene a las 10:00."}


def _said(code: str, lead: str, number: int) -> str:
    day_word = word_list(code, "dates", "day_units")[0]
    ordinal = f"the {number}{'st' if number in (1, 21, 31) else 'th'}"
    day = ordinal if code == "en" else f"{day_word} {number}"
    return f"{lead}, {day}, {HAS[code]}"


def _cases() -> list[Case]:
    cases = []
    for code in ASKED:
        weekday = get_day_names("wide", locale=code)[TUESDAY].capitalize()
        tomorrow = word_list(code, "dates", "tomorrow")[0].capitalize()
        for lead in (weekday, tomorrow):
            for number in range(1, 15):
                said = _said(code, lead, number)
                made = true if number == TOLD else lie
                cases.append(made(code, ASKED[code], times(), said))
    return cases


@pytest.mark.parametrize("case", _cases(), ids=lambda case: case.played.reply)
async def test_a_day_of_the_month_is_checked_as_a_date(case: Case) -> None:
    reply, actions = await _reply(case)
    assert actions == ()
    assert (case.played.reply in reply) is case.played.true, reply
