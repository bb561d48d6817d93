"""Dates in customer messages, one compiled rule set per spoken language (see ``when.py``).

Each rule is a pattern built from the language's data (``[dates]``, ``[numbers]``) and CLDR
names (``calendar_names.py``), and a resolution against the local date:

* ``relative``: ``[dates].today``/``tomorrow``/``day_after_tomorrow``/``yesterday``.
* ``in_days``: ``[dates].in_prefix`` + N + a day, week or month unit ("daqui a 3 dias", "in two
  weeks", "dentro de un mes"), or N + unit + ``[dates].from_now`` ("3 days from now"): today
  plus N units (a month is the same day N months on, or that month's last day).
* ``weekday``: a weekday name, optionally after ``[dates].weekday_this``/``weekday_next`` and
  before ``[dates].weekday_next_after`` ("que vem": the next one) or
  ``[dates].weekday_next_week_after`` ("da semana que vem": that day of next calendar week).
  A bare weekday is today when today is that day and no time or a later time was given, else
  its next occurrence; "next" is strictly after today. A weekday word right before
  ``[dates].not_weekday_after`` ("a segunda opção") is an ordinal, not a day.
* ``numeric``: d/m or d/m/y (m/d in a month-first language; see ``when.py`` for the asked case).
* ``day_month`` / ``month_day``: "5 de dezembro", "5th of December", "Dec 5" (month-first
  languages only), optionally with a year.
* ``day_only``: ``[dates].day_before`` + N ("dia 5", "el 5"; ``day_before_ordinal`` words such
  as "the" need an ordinal suffix): this month if not past, else next month; followed by
  ``[dates].next_month_connectors`` + ``[dates].next_month`` ("dia 30 do mês que vem") it is
  always next month's.
* ``next_month_day``: ``[dates].next_month`` then the day ("next month on the 30th").

A date without a year is this year unless past for long (``RECENT_PAST``: a date just passed is
meant, and the customer told so), else next year. Impossible dates resolve to ``None``.
"""

from __future__ import annotations

import calendar
import functools
import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta

from agent_service.infrastructure.language.grammar.calendar_names import (
    CalendarNames,
    calendar_names,
)
from agent_service.infrastructure.language.grammar.vocabulary import (
    BOUND_AFTER,
    BOUND_BEFORE,
    Vocabulary,
    alternation,
)

RECENT_PAST = timedelta(days=92)
NUM_END = r"(?![\d/]|\s*(?::\d|h(?:s|rs?|oras?)?\b|[ap]\.?m\b))"
NUMERIC = re.compile(
    r"(?<![\d/:.,$])\b(?P<a>\d{1,2})/(?P<b>\d{1,2})(?:/(?P<year>\d{2}|\d{4}))?(?![\d/])"
)


@dataclass(frozen=True)
class DateRule:
    kind: str
    pattern: re.Pattern[str]


@dataclass(frozen=True)
class DateGrammar:
    """The date rules of one language."""

    vocabulary: Vocabulary
    names: CalendarNames
    rules: tuple[DateRule, ...]
    cardinals: dict[str, int]

    @property
    def code(self) -> str:
        return self.vocabulary.code


def _named(names: dict[str, int]) -> str:
    return alternation(names)


def _optional_words(vocabulary: Vocabulary, key: str) -> str:
    """``(?:w1|w2)\\s+`` made optional, for a connector list."""
    return rf"(?:(?:{vocabulary.alt('dates', key)})\s+)?"


@functools.cache
def date_grammar(vocabulary: Vocabulary) -> DateGrammar:
    v = vocabulary
    w = functools.partial(v.alt, "dates")
    names = calendar_names(v)
    cardinals = dict(v.values("numbers", "cardinals"))
    suffixes = v.alt("numbers", "ordinal_suffixes")
    number = rf"(?P<n>\d{{1,3}}|{alternation([*cardinals, *v.words('numbers', 'one')])})"
    month = rf"(?P<mon>{_named(names.months)})"
    of = rf"(?:(?:{w('month_connectors')})\s+)?"
    year = rf"(?:,?\s+{of}(?P<year>\d{{4}}))?"
    day = rf"(?P<d>\d{{1,2}})(?:{suffixes})?\b"
    next_month = rf"(?:{w('next_month')})"
    connector = rf"(?:(?:{w('next_month_connectors')})\s+)?"
    units = (
        rf"(?:(?P<unit_day>{w('day_units')})|(?P<unit_week>{w('week_units')})"
        rf"|(?P<unit_month>{w('month_units')}))"
    )
    weekday = rf"(?:{_named(names.weekdays)})"
    before_time = _named(names.weekdays_before_time)
    suffix = rf"(?:[\s-]*(?:{w('weekday_suffixes')}))?"
    ordinal_day = rf"(?:{w('day_before_ordinal')})\s+(?=\d{{1,2}}(?:{suffixes})\b)"
    rules = [
        (
            "relative",
            rf"(?P<after>{w('day_after_tomorrow')})|(?P<tomorrow>{w('tomorrow')})"
            rf"|(?P<today>{w('today')})|(?P<yesterday>{w('yesterday')})",
        ),
        ("in_days", rf"(?:{w('in_prefix')})\s+{number}\s+{units}"),
        ("in_days", rf"{number}\s+{units}\s+(?:{w('from_now')})"),
        (
            "weekday",
            rf"(?:(?:(?P<next>{w('weekday_next')})|{w('weekday_this')})\s+)?"
            rf"(?P<wd>{weekday}|(?:{before_time})(?=\s+(?:\S+\s+)?\d)){suffix}"
            rf"(?:\s+(?P<nextweek>{w('weekday_next_week_after')})"
            rf"|\s+(?P<nextafter>{w('weekday_next_after')}))?"
            rf"(?![\s-]*(?:{w('not_weekday_after')}){BOUND_AFTER})",
        ),
        ("day_month", rf"(?:(?:{w('day_before')})\s+)?{day}\s*{of}{month}\.?{year}"),
        (
            "day_only",
            rf"(?:(?:{w('day_before')})\s+|{ordinal_day}){day}{NUM_END}"
            rf"(?P<nextmonth>,?\s+{connector}{next_month})?",
        ),
        (
            "next_month_day",
            rf"{next_month},?\s+{connector}(?:(?:{w('day_before')})\s+|{ordinal_day})?"
            rf"{day}{NUM_END}",
        ),
    ]
    if names.month_first:
        rules.append(("month_day", rf"{month}\.?\s+(?:{ordinal_day})?{day}{NUM_END}{year}"))
    compiled = tuple(
        DateRule(kind, re.compile(f"{BOUND_BEFORE}(?:{body}){BOUND_AFTER}")) for kind, body in rules
    )
    numeric = re.compile(rf"(?:{BOUND_BEFORE}(?:{w('day_before')})\s+)?{NUMERIC.pattern}")
    return DateGrammar(v, names, (DateRule("numeric", numeric), *compiled), cardinals)


@dataclass(frozen=True)
class DateMatch:
    """A date mention: where it is, which rule and language found it."""

    start: int
    end: int
    kind: str
    match: re.Match[str]
    grammar: DateGrammar


DAY_OF_MONTH_KINDS = frozenset({"numeric", "day_month", "month_day", "day_only"})
"""The mentions that name a day of the month (which a weekday said with them must agree with)."""


def _mentions(folded: str, grammars: tuple[DateGrammar, ...]) -> Iterator[DateMatch]:
    """Each rule's first date mention in ``folded``, every language's."""
    for grammar in grammars:
        for rule in grammar.rules:
            found = rule.pattern.search(folded)
            if found is not None:
                yield DateMatch(found.start(), found.end(), rule.kind, found, grammar)


def find_date(folded: str, grammars: tuple[DateGrammar, ...]) -> DateMatch | None:
    """The earliest date mention of any language (at the same place, the longest); a weekday
    said with a day of the month yields to it ("el lunes 7 de diciembre" is the 7th; when they
    are different days, ``weekday_clash`` has the customer asked)."""
    first = min(_mentions(folded, grammars), key=lambda m: (m.start, -m.end), default=None)
    if first is None or first.kind != "weekday":
        return first
    return next((m for m in _mentions(folded, grammars) if m.kind in DAY_OF_MONTH_KINDS), first)


def weekday_clash(
    folded: str, grammars: tuple[DateGrammar, ...], now: datetime, month_first: bool
) -> tuple[date, date] | None:
    """A weekday and a day of the month said together that are not the same day ("sexta dia
    5" when the 5th is a Saturday): the weekday's date and the date; ``None`` when they agree
    or either is missing. Neither is picked: the customer is asked."""
    mentions = list(_mentions(folded, grammars))
    named = next((m for m in mentions if m.kind == "weekday"), None)
    other = next((m for m in mentions if m.kind in DAY_OF_MONTH_KINDS), None)
    if named is None or other is None:
        return None
    by_weekday = weekday_date(named, now, None)
    by_date = resolve(other, now, None, month_first)
    if by_date is None or by_date.weekday() == by_weekday.weekday():
        return None
    return by_weekday, by_date


def resolve(found: DateMatch, now: datetime, at: time | None, month_first: bool) -> date | None:
    """The date a mention denotes (``at`` decides whether a bare weekday is still today)."""
    today, match = now.date(), found.match
    if found.kind == "relative":
        offsets = {"after": 2, "tomorrow": 1, "today": 0, "yesterday": -1}
        return today + timedelta(days=next(offsets[k] for k in offsets if match[k]))
    if found.kind == "in_days":
        return _in_days(today, match, found.grammar)
    if found.kind == "weekday":
        return weekday_date(found, now, at)
    if found.kind == "numeric":
        return numeric_date(match, today, month_first)
    if found.kind in ("day_month", "month_day"):
        month = found.grammar.names.months[match["mon"]]
        return dated(today, month, int(match["d"]), match["year"])
    if found.kind == "next_month_day" or match["nextmonth"]:
        year, month = _next_month(today)
        return safe_date(year, month, int(match["d"]))
    return day_of_month(today, int(match["d"]))


def _in_days(today: date, match: re.Match[str], grammar: DateGrammar) -> date | None:
    amount = match["n"]
    n = int(amount) if amount.isdigit() else grammar.cardinals.get(amount, 1)
    if match["unit_day"]:
        return today + timedelta(days=n)
    if match["unit_week"]:
        return today + timedelta(weeks=n)
    months = today.month - 1 + n
    year, month = today.year + months // 12, months % 12 + 1
    return date(year, month, min(today.day, calendar.monthrange(year, month)[1]))


def _weekday(found: DateMatch) -> int:
    """The weekday a weekday mention names (0 is Monday)."""
    names, said = found.grammar.names, found.match["wd"]
    return names.weekdays.get(said, names.weekdays_before_time.get(said, 0))


def weekday_date(found: DateMatch, now: datetime, at: time | None) -> date:
    match, today = found.match, now.date()
    target = _weekday(found)
    if match["nextweek"]:
        return next_week_day(found, now)
    ahead = (target - today.weekday()) % 7
    is_next = bool(match["next"] or match["nextafter"])
    if ahead == 0 and (is_next or (at is not None and at <= now.time())):
        ahead = 7
    return today + timedelta(days=ahead)


def next_week_day(found: DateMatch, now: datetime) -> date:
    """The mentioned weekday in next calendar week ("terça da semana que vem", "tuesday next
    week")."""
    today = now.date()
    return today + timedelta(days=7 - today.weekday() + _weekday(found))


def is_next_weekday(found: DateMatch) -> bool:
    """A "next Tuesday" that may mean this week's or next week's (``When.alternative``)."""
    match = found.match
    return (
        found.kind == "weekday"
        and not match["nextweek"]
        and bool(match["next"] or match["nextafter"])
    )


def numeric_date(match: re.Match[str], today: date, month_first: bool) -> date | None:
    first, second = int(match["a"]), int(match["b"])
    if month_first and first != second and first <= 12 and second <= 12:
        return None  # "12/3" in a month-first language: Dec 3 or 12 March; asked, never guessed
    day, month = (second, first) if month_first else (first, second)
    if month > 12 >= day:
        day, month = month, day
    return dated(today, month, day, match["year"])


def dated(today: date, month: int, day: int, year_text: str | None) -> date | None:
    """An explicit date; without a year, this year unless past (``RECENT_PAST``), else next."""
    if year_text is not None:
        year = int(year_text)
        return safe_date(year + 2000 if year < 100 else year, month, day)
    for year in (today.year, today.year + 1):
        candidate = safe_date(year, month, day)
        if candidate is not None and candidate >= today - RECENT_PAST:
            return candidate
    return None


def day_of_month(today: date, day: int) -> date | None:
    """``dia N``: this month if not past (and it exists), else next month, else ``None``."""
    this_month = safe_date(today.year, today.month, day)
    return this_month if this_month and this_month >= today else safe_date(*_next_month(today), day)


def _next_month(today: date) -> tuple[int, int]:
    return (today.year + 1, 1) if today.month == 12 else (today.year, today.month + 1)


def safe_date(year: int, month: int, day: int) -> date | None:
    try:
        return date(year, month, day)
    except ValueError:
        return None
