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
        for number in range(1, 15):
            # each number after one of the two leads in turn; the true day after both
            for lead in (
                (weekday, tomorrow) if number == TOLD else ((weekday, tomorrow)[number % 2],)
            ):
                said = _said(code, lead, number)
                made = true if number == TOLD else lie
                cases.append(made(code, ASKED[code], times(), said))
    return cases


@pytest.mark.parametrize("case", _cases(), ids=lambda case: case.played.reply)
async def test_a_day_of_the_month_is_checked_as_a_date(case: Case) -> None:
    reply, actions = await _reply(case)
    assert actions == ()
    assert (case.played.reply in reply) is case.played.true, reply


COUNTED = {"pt": "{weekday}, {count} horários livres com a Ana: 10:00 e 11:00.",
           "en": "{weekday}, {count} slots with Ana: 10:00 and 11:00.",
           "es": "El {weekday}, {count} horarios libres con Ana: 10:00 y 11:00."}  # fmt: skip
ANA_TUESDAY = 17
"""Ana's free starts tomorrow for the 60-minute cut: 09:00 to 17:00 on the 30-minute grid."""


@pytest.mark.parametrize("count", [ANA_TUESDAY, 2])
@pytest.mark.parametrize("code", sorted(COUNTED))
async def test_a_count_after_a_weekday_is_no_day_of_the_month(code: str, count: int) -> None:
    """ "Na terça, 17 horários livres": 17 counts the times (a count noun of the language data
    follows it), it is no December 17th (review 7: refused since the day-of-month reading);
    and, a count being a fact, only the true one is sent (review 8: "2 horários" was)."""
    said, asked = COUNTED[code], ASKED[code]
    weekday = get_day_names("wide", locale=code)[TUESDAY]
    made = true if count == ANA_TUESDAY else lie
    case = made(code, asked, times(), said.format(weekday=weekday.capitalize(), count=count))
    reply, actions = await _reply(case)
    assert actions == ()
    assert (case.played.reply in reply) is case.played.true, reply


ASK_BOOK = {"pt": "Quer marcar {lead}, {day_word} {number}, às 10:00 com a Ana?",
            "en": "Shall I book {lead} the {number}th at 10:00 with Ana?",
            "es": "¿Te reservo con Ana {lead} {number} a las 10:00?"}  # fmt: skip


def _question_cases() -> list[Case]:
    """A question whose weekday or relative day contradicts its day of the month (review 7:
    "Quer marcar quarta, dia 1, às 10:00 com a Ana?" was sent, the 1st being a Tuesday)."""
    cases = []
    for code, template in ASK_BOOK.items():
        day_word = word_list(code, "dates", "day_units")[0]
        for offset in range(1, 6):  # Wednesday to Saturday: none of them is the 1st
            weekday = get_day_names("wide", locale=code)[(TUESDAY + offset) % 7]
            said = template.format(lead=weekday, day_word=day_word, number=TOLD)
            cases.append(lie(code, ASKED[code], times(), said))
    return cases


@pytest.mark.parametrize("case", _question_cases(), ids=lambda case: case.played.reply)
async def test_a_question_with_a_contradicted_date_is_refused(case: Case) -> None:
    reply, actions = await _reply(case)
    assert actions == ()
    assert case.played.reply not in reply, reply
