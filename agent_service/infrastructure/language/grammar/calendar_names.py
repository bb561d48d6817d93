"""Weekday and month names and the numeric date order of a language, from Babel (CLDR).

* Weekdays: CLDR's wide and abbreviated names, folded, without a trailing period; a wide name
  that ends in one of the language's ``[dates].weekday_suffixes`` ("segunda-feira") also
  counts without it ("segunda"). ``[dates].weekday_extra`` adds informal spellings CLDR does
  not have ("thurs"). Abbreviations that are also ordinary words are split off: those in
  ``[dates].abbreviations_never`` never count, those in ``[dates].abbreviations_before_time``
  count only right before a time ("sat 11am", "dom às 10").
* Months: CLDR's wide and abbreviated names, plus ``[dates].month_extra``.
* Order: day first unless the language's CLDR short date pattern puts the month first
  ("M/d/yy"); a month-first language writes "Dec 5" as well as "5 December".
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Literal

from babel import Locale
from babel.dates import get_date_format, get_day_names, get_month_names

from agent_service.application.text import normalize
from agent_service.infrastructure.language.grammar.vocabulary import Vocabulary


@dataclass(frozen=True)
class CalendarNames:
    """One language's weekday names (Monday = 0) and month names (January = 1)."""

    weekdays: dict[str, int]
    weekdays_before_time: dict[str, int]
    months: dict[str, int]
    month_first: bool


def _fold(name: str) -> str:
    return normalize(name).rstrip(".")


@functools.cache
def calendar_names(vocabulary: Vocabulary) -> CalendarNames:
    locale = Locale.parse(vocabulary.code)
    suffixes = vocabulary.words("dates", "weekday_suffixes")
    weekdays: dict[str, int] = {}
    widths: tuple[Literal["wide"], Literal["abbreviated"]] = ("wide", "abbreviated")
    for width in widths:
        for day, name in get_day_names(width, locale=locale).items():
            folded = _fold(name)
            weekdays[folded] = day
            for suffix in suffixes:
                bare = folded.removesuffix(suffix).rstrip(" -")
                if bare != folded:
                    weekdays[bare] = day
    weekdays |= {word: day - 1 for word, day in vocabulary.values("dates", "weekday_extra").items()}
    never = set(vocabulary.words("dates", "abbreviations_never"))
    late = set(vocabulary.words("dates", "abbreviations_before_time"))
    months: dict[str, int] = {}
    for width in widths:
        months |= {_fold(name): n for n, name in get_month_names(width, locale=locale).items()}
    months |= dict(vocabulary.values("dates", "month_extra"))
    pattern = get_date_format("short", locale=locale).pattern
    return CalendarNames(
        weekdays={w: d for w, d in weekdays.items() if w not in never | late},
        weekdays_before_time={w: d for w, d in weekdays.items() if w in late},
        months=months,
        month_first=pattern.find("M") < pattern.find("d"),
    )
