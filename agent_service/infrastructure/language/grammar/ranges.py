# Over 300 lines: every span a customer gives instead of one time or one day (windows, parts of
# the day, the earliest and latest, day ranges) reads here, from one set of compiled patterns.
"""Spans the customer gives instead of one time or one day.

* Part of the day (:func:`part_of_day`): the first ``[parts].morning``/``afternoon``/
  ``evening`` phrase of any language, after ``[parts].greetings`` ("boa tarde", "good
  morning") are taken out; morning is 00:00–12:00, afternoon 12:00–18:00, evening from 18:00.
* A window of start times (:func:`time_window`): ``[ranges].before`` + a time ("antes do
  meio-dia", "before 3pm": starts before it), ``[ranges].after`` + a time ("depois das 15h",
  "after 3": starts from it on), ``[ranges].between`` + a time + ``[ranges].between_and`` + a
  time ("entre 14h e 16h", "between 1 and 3pm", "de las 10 a las 12": starts from the first,
  before the second). The number after a range word is an hour even without other marks; a
  second time's am/pm carries to the first when the first has none, and a part of the day
  said after the second time is both times' ("entre las 8 y las 9 de la noche": 20:00 to
  21:00). A window and a part of the day combine (both must hold).
* When the customer must be gone (``Window.done_by``): a time after ``[ranges].leave_by``
  ("preciso sair até 9h30", "I need to be done by 9", "salir antes de las 12") or before
  ``[ranges].leave_after`` ("a las 12 ya me tengo que ir"): the service ends by then, so its
  starts are those up to that time less the service's length (``Window.ending_by``) — never
  a start at that time.
* The earliest (:func:`wants_earliest`): a ``[ranges].earliest`` phrase ("o mais cedo", "the
  earliest", "lo antes posible"): the first free start that fits everything else said; the
  latest (:func:`wants_latest`, ``[ranges].latest``: "o último horário", "the latest slot", "a
  última hora"): the day's last free start that fits.
* Several days (:func:`day_range`): ``[ranges].from_day`` weekday ``[ranges].to_day`` weekday,
  ``[ranges].until`` weekday, ``[ranges].this_week``, ``next_week``, ``weekend``,
  ``next_days``.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta

from agent_service.infrastructure.language.grammar.calendar_names import calendar_names
from agent_service.infrastructure.language.grammar.times import (
    TimeGrammar,
    business_hour,
    find_time,
    followed_by_count,
    resolve_time,
)
from agent_service.infrastructure.language.grammar.vocabulary import (
    BOUND_AFTER,
    BOUND_BEFORE,
    Vocabulary,
    alternation,
    any_of,
    bounded,
    union,
    vocabularies,
)

PARTS = {
    "morning": (time(0), time(12)),
    "afternoon": (time(12), time(18)),
    "evening": (time(18), time(23, 59)),
}
NEXT_DAYS = 3
""""nos próximos dias": today and the next three days."""


@dataclass(frozen=True, slots=True)
class Window:
    """Start times from ``start`` (inclusive) to ``end`` (exclusive); either may be open."""

    start: time | None = None
    end: time | None = None
    span: tuple[int, int] = (0, 0)
    """Where the window was said, in the folded text."""
    done_by: time | None = None
    """When the customer must be gone: the service ends by then (``ending_by``)."""

    def holds(self, at: time) -> bool:
        return (self.start is None or at >= self.start) and (self.end is None or at < self.end)

    def ending_by(self, minutes: int) -> Window:
        """The window of starts of a service of ``minutes`` that ends by ``done_by``."""
        if self.done_by is None:
            return self
        last = datetime.combine(date.min, self.done_by) - timedelta(minutes=minutes - 1)
        end = last.time() if last.date() == date.min else time(0)
        if self.end is not None:
            end = min(end, self.end)
        return Window(self.start, end, self.span)


def without_greetings(folded: str) -> str:
    """``folded`` with greetings blanked (same length), so "boa tarde" is no afternoon."""
    return any_of("parts", "greetings").sub(lambda m: " " * len(m.group()), folded)


@functools.cache
def _parts() -> re.Pattern[str]:
    groups = "|".join(f"(?P<{name}>{alternation(union('parts', name))})" for name in PARTS)
    return re.compile(f"{BOUND_BEFORE}(?:{groups}){BOUND_AFTER}")


def part_of_day(folded: str) -> str | None:
    """``morning``/``afternoon``/``evening``: the first one ``folded`` names; the words of an
    earliest or latest phrase name none ("o mais tarde possível", "lo más tarde posible": the
    day's last time, not the afternoon)."""
    for phrases in (any_of("ranges", "earliest"), any_of("ranges", "latest")):
        folded = phrases.sub(lambda m: " " * len(m.group()), folded)
    match = _parts().search(without_greetings(folded))
    if match is None:
        return None
    return next(name for name in PARTS if match[name])


def part_window(part: str) -> tuple[time, time]:
    return PARTS[part]


def _loose(group: str) -> str:
    """A time right after a range word (digits, or noon/midnight as ``<group>n``), in
    ``group``."""
    noon = alternation([*union("times", "noon"), *union("times", "midnight")])
    return (
        rf"(?:(?P<{group}>\d{{1,2}}(?::\d{{2}}|\s?h(?:\d{{2}})?)?(?:\s?[ap]\.?m\b\.?)?)"
        rf"|(?P<{group}n>{noon}))"
    )


def _markers() -> str:
    """The markers that may stand before a time ("às", "at"), optional."""
    return rf"(?:(?:{alternation(union('times', 'markers'))})\s+)?"


@functools.cache
def _window_patterns() -> tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str]]:
    r = functools.partial(union, "ranges")
    markers = _markers()
    first, second = _loose("t1"), _loose("t2")
    before = bounded(rf"(?:{alternation(r('before'))})\s+{markers}{first}")
    after = bounded(rf"(?:{alternation(r('after'))})\s+{markers}{first}")
    between = bounded(
        rf"(?:{alternation(r('between'))})\s+{markers}{first}\s*"
        rf"(?:{alternation(r('between_and'))})\s+{markers}{second}"
    )
    return before, after, between


@functools.cache
def _period() -> re.Pattern[str]:
    """A part of the day said after a time ("da noite", "in the evening", "de la tarde")."""
    keys = ("morning_after", "afternoon_after", "evening_after")
    return re.compile(rf"\s+(?:{alternation([w for k in keys for w in union('times', k)])})\b")


def _hour_in(text: str, grammars: tuple[TimeGrammar, ...]) -> time | None:
    """The time ``text`` (an hour and a part of the day) says."""
    return resolve_time(find_time(text, grammars), text)


def _hour(text: str, named: str | None, grammars: tuple[TimeGrammar, ...]) -> time | None:
    """A time said right after a range word: marked by that word."""
    if named:
        return resolve_time(find_time(named, grammars), named)
    digits = re.match(r"(\d{1,2})(?::(\d{2})|\s?h(\d{2})?)?(?:\s?([ap])\.?m)?", text)
    if digits is None:
        return None
    hour, minute = int(digits[1]), int(digits[2] or digits[3] or 0)
    if digits[4]:
        if not 1 <= hour <= 12:
            return None
        hour = hour % 12 + (12 if digits[4] == "p" else 0)
    else:
        hour = business_hour(hour, digits[1])
    return time(hour, minute) if hour <= 23 and minute <= 59 else None


@functools.cache
def _leave_patterns() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """A time the customer must be gone by: after a ``[ranges].leave_by`` phrase ("preciso
    sair até 9h30", "done by 9am") or before a ``leave_after`` one ("a las 12 ya me tengo que
    ir")."""
    r = functools.partial(union, "ranges")
    loose, markers = _loose("t1"), _markers()
    by = bounded(rf"(?:{alternation(r('leave_by'))})\s+{markers}{loose}")
    then = bounded(rf"{markers}{loose}[\s,]+(?:{alternation(r('leave_after'))})")
    return by, then


def _gone_by(folded: str, grammars: tuple[TimeGrammar, ...]) -> Window | None:
    for pattern in _leave_patterns():
        found = pattern.search(folded)
        if found is None or followed_by_count(folded, found.end()):
            continue
        at = _hour(found["t1"] or "", found["t1n"], grammars)
        if at is not None:
            return Window(span=found.span(), done_by=at)
    return None


def time_window(folded: str, grammars: tuple[TimeGrammar, ...]) -> Window | None:
    """The window of start times ``folded`` asks for, or ``None`` (see the module)."""
    gone = _gone_by(folded, grammars)
    if gone is not None:
        return gone
    before, after, between = _window_patterns()
    found = between.search(folded)
    period = _period().match(folded, found.end()) if found is not None else None
    if found is not None and period is not None and found["t1"] and found["t2"]:
        # "entre las 8 y las 9 de la noche": the period after the window is both ends'.
        said = period.group().strip()
        first, second = (_hour_in(f"{found[g]} {said}", grammars) for g in ("t1", "t2"))
        if first is not None and second is not None and first < second:
            return Window(first, second, (found.start(), period.end()))
    if found is not None and not followed_by_count(folded, found.end()):
        second = _hour(found["t2"] or "", found["t2n"], grammars)
        first_text = found["t1"] or ""
        pm_second = found["t2"] and re.search(r"[ap]\.?m", found["t2"])
        if second is not None and pm_second and found["t1"] and not re.search(r"[ap]", first_text):
            first_text += " " + found["t2"].strip()[-2:]
        first = _hour(first_text, found["t1n"], grammars)
        if first is not None and second is not None and first < second:
            return Window(first, second, found.span())
    for pattern, opens in ((before, False), (after, True)):
        found = pattern.search(folded)
        if found is None or followed_by_count(folded, found.end()):
            continue
        at = _hour(found["t1"] or "", found["t1n"], grammars)
        if at is not None:
            return Window(at, None, found.span()) if opens else Window(None, at, found.span())
    return None


def wants_earliest(folded: str) -> bool:
    """ "o mais cedo possível", "first thing", "bem cedinho" — never negated ("não muito cedo",
    "I can't come early") or too much ("cedo demais", "too early", "a bit early"):
    :func:`_meant`."""
    return _meant(any_of("ranges", "earliest"), folded)


def wants_latest(folded: str) -> bool:
    return _meant(any_of("ranges", "latest"), folded)


def _meant(pattern: re.Pattern[str], folded: str) -> bool:
    """A phrase of ``pattern`` with no negation word (``[corrections].negation``) in its clause,
    before or after it, and no ``[ranges].excess`` word right before or after it ("não, quero
    o mais cedo" still asks for the earliest; "muito cedo não dá", "early doesn't work" and
    "a bit early" do not)."""
    negation, excess = _word_set("corrections", "negation"), _word_set("ranges", "excess")
    for match in pattern.finditer(folded):
        before = _TOKENS.findall(_CLAUSE_BREAK.split(folded[: match.start()])[-1])
        after = _TOKENS.findall(_CLAUSE_BREAK.split(folded[match.end() :])[0])
        if negation.isdisjoint([*before, *after]) and excess.isdisjoint([*before[-1:], *after[:1]]):
            return True
    return False


_TOKENS = re.compile(r"[a-z0-9']+")
_CLAUSE_BREAK = re.compile(r"[,.;:!?¿¡]")


@functools.cache
def _word_set(table: str, key: str) -> frozenset[str]:
    return frozenset(union(table, key))


# --- several days -------------------------------------------------------------------------


@functools.cache
def weekday_names() -> dict[str, int]:
    """Every spoken language's folded weekday names (Monday = 0)."""
    names: dict[str, int] = {}
    for vocabulary in vocabularies():
        names |= calendar_names(vocabulary).weekdays
    return names


@functools.cache
def _day_range_patterns() -> dict[str, re.Pattern[str]]:
    r = functools.partial(union, "ranges")
    suffixes = alternation(union("dates", "weekday_suffixes"))
    weekday = rf"({alternation(weekday_names())})(?:[\s-]*(?:{suffixes}))?"
    article = rf"(?:(?:{alternation(r('day_articles'))})\s+)?"
    return {
        "span": bounded(
            rf"(?:{alternation(r('from_day'))})\s+{article}{weekday}\s+"
            rf"(?:{alternation(r('to_day'))})\s+{article}{weekday}"
        ),
        "until": bounded(rf"(?:{alternation(r('until'))})\s+{article}{weekday}"),
        # a span said as a claim, its "from" left out: "segunda a sexta", "Monday to Friday",
        # "Monday-Friday", "seg/sex", "segunda–sexta" (folding makes a dash a space); an "and"
        # joins a list of days, no span: "segunda e sábado"
        "claim": bounded(
            rf"{article}{weekday}(?:\s+(?:{_span_joints()})\s+|\s*[-/]\s*|\s+)"
            rf"{article}{weekday}"
        ),
        "weekday": bounded(weekday),
        **{
            key: any_of("ranges", key) for key in ("this_week", "next_week", "weekend", "next_days")
        },
    }


def _span_joints() -> str:
    """The words that join two days into a span without a "from": ``[ranges].to_day`` but
    the words that join a list (``[matching].and_words``)."""
    lists = set(union("matching", "and_words"))
    return alternation(w for w in union("ranges", "to_day") if w not in lists)


def says_days_span(folded: str) -> bool:
    """Whether ``folded`` names a span of weekdays ("de segunda a sexta", "Monday to Friday",
    "hasta el viernes"): a claim about every day inside it."""
    patterns = _day_range_patterns()
    return any(patterns[key].search(folded) for key in ("span", "until", "claim"))


def says_next_week(folded: str) -> bool:
    """Whether ``folded`` says "next week" (``[ranges].next_week``) anywhere."""
    return _day_range_patterns()["next_week"].search(folded) is not None


def day_range(folded: str, today: date) -> tuple[date, date] | None:
    """The days a question spans, or ``None`` (one day or none); see the module."""
    patterns = _day_range_patterns()
    weekdays = weekday_names()
    span = patterns["span"].search(folded)
    if span:
        first = _next(today, weekdays[span.group(1)])
        return first, _next(first, weekdays[span.group(2)])
    until = patterns["until"].search(folded)
    if until:
        return today, _next(today, weekdays[until.group(1)])
    if patterns["this_week"].search(folded):
        return today, today + timedelta(days=max(0, 5 - today.weekday()))
    if patterns["next_week"].search(folded) and not patterns["weekday"].search(folded):
        monday = today + timedelta(days=7 - today.weekday())
        return monday, monday + timedelta(days=5)
    if patterns["weekend"].search(folded):
        saturday = today if today.weekday() == 6 else _next(today, 5)
        return saturday, saturday + timedelta(days=1 if saturday.weekday() == 5 else 0)
    if patterns["next_days"].search(folded):
        return today, today + timedelta(days=NEXT_DAYS)
    return None


def _next(start: date, weekday: int) -> date:
    return start + timedelta(days=(weekday - start.weekday()) % 7)


__all__ = [
    "PARTS",
    "Vocabulary",
    "Window",
    "day_range",
    "part_of_day",
    "part_window",
    "says_days_span",
    "time_window",
    "wants_earliest",
    "wants_latest",
    "weekday_names",
    "without_greetings",
]
