"""A move by hours and a half ("atrasa 1 hora e meia", "push it back 2 hours and a half", "me
atrasás una hora y media") moves by the half hour too: it used to read the whole hours only
(batch 12, blind: 90 minutes later would have been proposed an hour later). Generated over
every later and earlier verb of the language data, every digit amount from 1 to 3, in every
language."""

from __future__ import annotations

from datetime import timedelta
from itertools import product

import pytest

from agent_service.infrastructure.language.grammar.when import shift
from agent_service.infrastructure.language.packs import word_list

CODES = ("pt", "en", "es")


def _cases() -> list[tuple[str, timedelta]]:
    cases = []
    for code in CODES:
        hours = word_list(code, "times", "hour_units")[0]
        half = word_list(code, "times", "and_a_half")[0]
        for key, sign in (("later_verbs", 1), ("earlier_verbs", -1)):
            for verb in word_list(code, "times", key):
                for n in (1, 2, 3):
                    minutes = sign * (60 * n + 30)
                    cases.append((f"{verb} {n} {hours} {half}", timedelta(minutes=minutes)))
    return cases


@pytest.mark.parametrize(("said", "moved"), _cases())
def test_hours_and_a_half_move_by_the_half_too(said: str, moved: timedelta) -> None:
    assert shift(said) == moved, said


@pytest.mark.parametrize("code", CODES)
def test_days_and_weeks_never_move_by_part_of_a_day(code: str) -> None:
    """ "Adia 1 semana e meia", "a day and a half later": the half is an hour's only; a move by
    days or weeks keeps the time of day (review 8: 10:00 became 22:00)."""
    half = word_list(code, "times", "and_a_half")[0]
    units = (*word_list(code, "dates", "day_units"), *word_list(code, "dates", "week_units"))
    for verb in word_list(code, "times", "later_verbs"):
        for unit in units:
            moved = shift(f"{verb} 1 {unit} {half}")
            assert moved is None or moved.seconds == 0, (verb, unit, moved)


def _minute_cases() -> list[tuple[str, timedelta]]:
    """Hours and minutes ("1 hora e 30 minutos", "an hour 30", "una hora y treinta")."""
    cases = []
    for code in CODES:
        hours = word_list(code, "times", "hour_units")[0]
        minutes = word_list(code, "times", "minute_units")[0]
        joins = [*word_list(code, "times", "minute_connector"), ""]
        for verb in word_list(code, "times", "later_verbs"):
            for join, extra in product(joins, (15, 30, 45)):
                said = f"{verb} 1 {hours} {join} {extra} {minutes}".replace("  ", " ")
                cases.append((said, timedelta(minutes=60 + extra)))
    return cases


@pytest.mark.parametrize(("said", "moved"), _minute_cases())
def test_hours_and_minutes_move_by_both(said: str, moved: timedelta) -> None:
    """Review 8: "atrasa meu corte 1 hora e 30 minutos" moved by an hour (a wrong time a yes
    would write)."""
    assert shift(said) == moved, said
