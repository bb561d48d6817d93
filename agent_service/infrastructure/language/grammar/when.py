# Over 300 lines: every reading of "when" (day, time, window, moment ahead, typos) meets here.
"""What a message says about when: the day, the time, a window of times, the earliest.

The grammar runs every spoken language's rules over the folded text (``dates.py``,
``times.py``, ``ranges.py``; the vocabulary is each language's data file and CLDR): the
earliest date mention wins (at the same place, the longest), and the earliest marked time;
the day text echoed back is the customer's own spelling. ``[dates].not_dates`` phrases
("por la mañana") are never dates. A time said as the edge of a window ("depois das 15h") is
the window, not the time to book. A moment counted from now ("daqui a 3 horas", "in half an
hour"; ``times.ahead_of``) is that day and time, when the message names no other.

Numeric dates: d/m, unless the message's language (detected, see ``application/languages``)
writes the month first per CLDR; there "12/3" has two readings and is asked
(:func:`two_readings`), and a date with only one possible reading ("25/12") is that one.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta

from rapidfuzz.distance import OSA

from agent_service.application.text import fold_with_map
from agent_service.infrastructure.language.grammar.calendar_names import calendar_names
from agent_service.infrastructure.language.grammar.dates import (
    NUMERIC,
    DateGrammar,
    DateMatch,
    date_grammar,
    dated,
    find_date,
    is_next_weekday,
    next_week_day,
    numeric_date,
    resolve,
    weekday_clash,
)
from agent_service.infrastructure.language.grammar.ranges import (
    Window,
    says_days_span,
    says_next_week,
    time_window,
    wants_earliest,
    wants_latest,
    weekday_names,
)
from agent_service.infrastructure.language.grammar.times import (
    TimeGrammar,
    ahead_of,
    business_hour,
    clock_digits,
    find_time,
    followed_by_count,
    resolve_time,
    says_next_or_previous_day,
    shift_of,
    time_grammar,
)
from agent_service.infrastructure.language.grammar.vocabulary import (
    Vocabulary,
    alternation,
    any_of,
    union,
    vocabularies,
)
from agent_service.infrastructure.language.packs import (
    known_words,
    language_detector,
    spoken_languages,
)

EPOCH = datetime(2000, 1, 3)


@dataclass(frozen=True, slots=True)
class When:
    """What a message says about the appointment's date and time (local to the tenant)."""

    day: date | None
    at: time | None
    day_text: str = ""
    alternative: date | None = None
    """The other reading of "próxima terça"/"next Tuesday" when the nearest one is this week:
    a week later. Whoever books asks which one."""
    window: Window | None = None
    """Start times the customer wants the appointment within ("after 3", "entre 14h e 16h")."""
    earliest: bool = False
    """The customer asks for the earliest free time ("o mais cedo", "the earliest")."""
    latest: bool = False
    """The customer asks for the day's latest free time ("o último horário", "the latest")."""


@functools.cache
def _grammars() -> tuple[tuple[DateGrammar, ...], tuple[TimeGrammar, ...]]:
    spoken = vocabularies()
    return tuple(date_grammar(v) for v in spoken), tuple(time_grammar(v) for v in spoken)


def time_grammars() -> tuple[TimeGrammar, ...]:
    return _grammars()[1]


def _without_not_dates(folded: str) -> str:
    return any_of("dates", "not_dates").sub(lambda m: " " * len(m.group()), folded)


def _month_first(text: str) -> bool:
    """Whether the message is in a language that writes the month first (CLDR)."""
    language = language_detector().detect(text, "")
    return bool(language) and calendar_names(Vocabulary(language)).month_first


def has_when_mention(text: str) -> bool:
    """Whether ``text`` mentions a date or a time (resolvable or not)."""
    folded, _ = fold_with_map(text)
    dates, times = _grammars()
    if ahead_of(folded, times) is not None:
        return True
    if find_date(_without_not_dates(folded), dates) is not None:
        return True
    return find_time(clock_digits(folded, times), times) is not None


def names_only_a_weekday(text: str) -> bool:
    """Whether the only date or time ``text`` mentions is a weekday ("a Helena atende
    terça?", "¿Vanessa trabaja los lunes?"): no time of day, no date, no moment from now."""
    folded, _ = fold_with_map(text)
    dates, times = _grammars()
    if ahead_of(folded, times) is not None or find_time(clock_digits(folded, times), times):
        return False
    found = find_date(_without_not_dates(folded), dates)
    return found is not None and found.kind == "weekday"


def says_a_range(text: str) -> bool:
    """Whether ``text`` names a window of times ("das 9h às 18h", "from 9 to 6", "after 3")
    or a span of weekdays ("de segunda a sexta", "Monday to Friday"): a claim about every
    time or day inside it."""
    folded, _ = fold_with_map(text)
    times = _grammars()[1]
    return time_window(clock_digits(folded, times), times) is not None or says_days_span(folded)


def without_own_dates(text: str, code: str) -> str:
    """``text`` folded, with the day mentions of ``code``'s own date grammar blanked: a word a
    mention holds is read as part of the day, not alone (Portuguese "no sábado" is "on
    Saturday", its "no" no Spanish or English "no"; "No Saturday" is no Portuguese day). Only
    in a text with no word of another language's own: "Ana trabaja el lunes, no sábado" is
    Spanish, its "no" a denial."""
    folded, _ = fold_with_map(text)
    points = language_detector().evidence(text)
    if any(score for other, score in points.items() if other != code):
        return folded
    for grammar in _grammars()[0]:
        if grammar.code == code:
            for rule in grammar.rules:
                folded = rule.pattern.sub(lambda m: " " * len(m.group()), folded)
    return folded


def parse_when(text: str, now: datetime) -> When:
    """The date and time mentioned in ``text``; ``now`` is aware, in the tenant's zone."""
    folded, index = fold_with_map(text)
    dates, times = _grammars()
    ahead = ahead_of(folded, times)
    if ahead is not None:  # its amount is no time of day ("daqui a 3 horas" is not 15:00)
        folded = _blanked(folded, ahead[0].span())
    clock = clock_digits(folded, times)
    window = time_window(clock, times)
    found_time = find_time(clock, times)
    if window is not None and found_time is not None and _inside(found_time, window):
        found_time = None
    at = resolve_time(found_time, clock)
    earliest, latest = wants_earliest(folded), wants_latest(folded)
    found = find_date(_without_not_dates(folded), dates)
    if ahead is not None and found is None and found_time is None:
        match, minutes = ahead
        moment = now + timedelta(minutes=minutes, seconds=59)
        phrase = text[index[match.start()] : index[match.end() - 1] + 1].strip()
        return When(moment.date(), time(moment.hour, moment.minute), phrase, window=window)
    span: tuple[int, int] | None = None
    if found is None:
        found, span = _misspelled_weekday(folded, dates, found_time is not None)
    if found is None:
        return When(day=None, at=at, window=window, earliest=earliest, latest=latest)
    start, end = span or (found.start, found.end)
    day_text = text[index[start] : index[end - 1] + 1].strip()
    day = resolve(found, now, at, _month_first(text))
    if _in_next_week(folded, found):
        day = next_week_day(found, now)
    other = _week_later(found, now, day)
    return When(day, at, day_text, other, window, earliest, latest)


def _in_next_week(folded: str, found: DateMatch) -> bool:
    """A weekday said in a message that says "next week" anywhere else ("semana que vem na
    terça", "next week, Tuesday at 9"): that day of next calendar week, as "terça da semana
    que vem" is."""
    if found.kind != "weekday" or found.match["nextweek"]:
        return False
    return says_next_week(_blanked(folded, (found.start, found.end)))


def without_moments_ahead(folded: str) -> str:
    """``folded`` with its moment counted from now blanked: "in 3 hours" says when, its
    "hours" asks nothing about the opening hours."""
    ahead = ahead_of(folded, time_grammars())
    return folded if ahead is None else _blanked(folded, ahead[0].span())


def _blanked(folded: str, span: tuple[int, int]) -> str:
    start, end = span
    return folded[:start] + " " * (end - start) + folded[end:]


TYPO_MIN_LETTERS = 5
"""A weekday name this long or longer may be read misspelled by one letter (see below)."""


def _misspelled_weekday(
    folded: str, dates: tuple[DateGrammar, ...], timed: bool
) -> tuple[DateMatch | None, tuple[int, int] | None]:
    """A weekday misspelled by one letter ("qinta", "thrusday", "juebes"): a word no spoken
    language knows, one edit (a letter added, dropped, changed or two swapped) from exactly
    one weekday name of at least ``TYPO_MIN_LETTERS`` letters, where a day is expected (after
    a word that introduces one, "on", "na", "el", or in a message that names a time). Read as
    that weekday; its span is the misspelled word's. Never a word a language knows ("segundo",
    "quinto")."""
    names = _weekday_names()
    for word in re.finditer(r"[a-z]{4,}", folded):
        if word.group() in _known():
            continue
        near = [n for n in names if OSA.distance(word.group(), n, score_cutoff=1) <= 1]
        if len({names[n] for n in near}) != 1:
            continue
        before = folded[: word.start()].split()[-1:]
        if not (timed or (before and before[0] in _day_openers())):
            continue
        fixed = folded[: word.start()] + near[0] + folded[word.end() :]
        found = find_date(fixed, dates)
        if found is not None and found.kind == "weekday":
            return found, (word.start(), word.end())
    return None, None


@functools.cache
def _weekday_names() -> dict[str, int]:
    """The weekday names long enough to be read misspelled."""
    return {n: i for n, i in weekday_names().items() if len(n) >= TYPO_MIN_LETTERS and n.isalpha()}


@functools.cache
def _known() -> frozenset[str]:
    return frozenset().union(*(known_words(code) for code in spoken_languages()))


@functools.cache
def _day_openers() -> frozenset[str]:
    return frozenset(
        word for key in ("weekday_this", "day_before") for p in union("dates", key)
        for word in p.split()[-1:]
    )  # fmt: skip


def _inside(found: re.Match[str], window: Window) -> bool:
    start, end = window.span
    return start <= found.start() < end


def _week_later(found: DateMatch, now: datetime, day: date | None) -> date | None:
    """A week after ``day`` when a "next" weekday could mean either (see :class:`When`)."""
    if day is None or not is_next_weekday(found):
        return None
    return day + timedelta(days=7) if (day - now.date()).days < 7 else None


def two_readings(text: str, now: datetime) -> tuple[str, date, date] | None:
    """A ``m/d`` date of a month-first language whose two readings both exist ("12/3"): the
    text as written, the month-first and the day-first reading (the question names both)."""
    if not _month_first(text):
        return None
    folded, index = fold_with_map(text)
    match = NUMERIC.search(folded)
    if match is None or numeric_date(match, now.date(), month_first=True) is not None:
        return None
    first, second = int(match["a"]), int(match["b"])
    month_first = dated(now.date(), first, second, match["year"])
    day_first = dated(now.date(), second, first, match["year"])
    if month_first is None or day_first is None:
        return None
    written = text[index[match.start("a")] : index[match.end() - 1] + 1]
    return written, month_first, day_first


def disagreeing_days(text: str, now: datetime) -> tuple[date, date] | None:
    """A weekday and a date said together that disagree ("sexta dia 5", "Friday the 5th"
    when the 5th is a Saturday): the weekday's next date and the date (``weekday_clash``)."""
    folded, _ = fold_with_map(text)
    return weekday_clash(_without_not_dates(folded), _grammars()[0], now, _month_first(text))


def next_or_previous_day(text: str) -> bool:
    """Whether ``text``'s shift is "the day after"/"o dia seguinte" (no amount)."""
    folded, _ = fold_with_map(text)
    return says_next_or_previous_day(folded, time_grammars())


def shift(text: str) -> timedelta | None:
    """ "1 hora mais tarde", "an hour later", "media hora antes": how far to move the time
    already said; ``None`` when the message says no such thing."""
    folded, _ = fold_with_map(text)
    return shift_of(folded, time_grammars())


def direction(text: str) -> int | None:
    """ "mais cedo", "anything later?", "¿lo podemos adelantar?": which way the customer asks
    the time to go, with no amount (``[times]`` ``earlier``/``later`` and their verbs): -1
    earlier, +1 later; ``None`` when neither or both are said."""
    folded = fold_with_map(text)[0]
    earlier = any(any_of("times", key).search(folded) for key in ("earlier", "earlier_verbs"))
    later = any(any_of("times", key).search(folded) for key in ("later", "later_verbs"))
    return None if earlier == later else (-1 if earlier else 1)


@functools.cache
def _bare() -> re.Pattern[str]:
    half = alternation(union("times", "half_after"))
    return re.compile(rf"(?<![\d/:.,$])\b(?P<h>\d{{1,2}})(?P<half>\s+(?:{half}))?\b(?![\d/:.,])")


def loose_time(text: str) -> time | None:
    """A bare number read as a time ("tem como ser 10 e meia?", "make it 11 instead"): only
    for a message already known to change a time — a bare number is otherwise never a time.
    Counts ("2 pessoas"), prices, dates ("dia 5") and ordinals stay numbers; 1..7 is
    afternoon."""
    folded, _ = fold_with_map(text)
    day_words = re.compile(rf"(?:{alternation(union('dates', 'day_before'))})\s+$")
    suffix = re.compile(rf"(?:{alternation(union('numbers', 'ordinal_suffixes'))})\b")
    for match in _bare().finditer(folded):
        if followed_by_count(folded, match.end()) or suffix.match(folded, match.end("h")):
            continue
        if day_words.search(folded, 0, match.start()):
            continue
        hour = business_hour(int(match["h"]), match["h"])
        if hour <= 23:
            return time(hour, 30 if match["half"] else 0)
    return None
