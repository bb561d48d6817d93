# Over 300 lines: one recogniser of fact shapes; its patterns share one span bookkeeping.
"""Fact-like spans of a text, recognised by their shape — never by a list of example phrases.

Rules (pure; weekday, month, unit and currency names come from CLDR through the language port):

* **url**: ``scheme://…``, ``www.…`` or ``host.tld/…``; **email**: ``local@host.tld``;
* **datetime**: ISO 8601 (``2026-12-01T10:00:00-03:00``): read in the business's zone, it also
  counts as its **date**, **time** and **weekday**;
* **date**: ``dd/mm[/yyyy]`` (either order: ``12/01`` may be 12 January or December 12), ISO
  ``yyyy-mm-dd``, or a day next to a month name ("1 de dezembro", "December 1st", "dez. 1");
  with no month (a reader given ``today``), a day of the month after the language's word for
  a day ("dia 7", "día 15"), right after a weekday ("terça, 2", "martes 2") or written as an
  ordinal ("the 2nd"): the first such day from today on (this month's, else next month's);
* **time**: ``10:00``, ``10h``, ``10h30``, ``10 am``, ``2:30 p.m.`` (minutes after midnight);
  an ``Nh`` time may also be a **duration** of N hours; and a number up to 23 (digits or a number
  word) after a word before an hour ("às 10", "at 9", "a las diez", "às 3 e meia"): that hour,
  or the afternoon's (a bare 10 is 10:00 or 22:00) — not before a count noun ("as 3 opções");
* **money**: an amount next to a currency symbol (any Unicode currency sign, optionally after
  up to three capital letters: ``R$``, ``US$``), an ISO 4217 code, or a name of the
  business's currency ("80 reais"); marked with another currency than the business's ("US$
  40" for a salon in reais) it is that currency's amount, no price of the business;
  **percent**: ``10%``;
* **duration**: an amount next to a CLDR minute or hour word ("30 min", "1 hora", "2 hours"),
  the amount in digits or a number word of the language data ("uma hora", "half an hour",
  "media hora");
* **phone**: a run of digits with separators holding 8–15 digits;
* **count**: a number (digits, or a number word of two or more) before a noun the language data
  says the tools' results count (``[numbers].counted``: "3 horários", "two stylists", "dos
  citas"), one word between at most ("5 free slots"), not after a word before an hour ("às 3
  temos horários"): that many of what the noun counts (free times, professionals, services,
  appointments; "options" any of them);
* **weekday**: a CLDR weekday name (wide, or its first part: "segunda" of "segunda-feira");
* **relative day** (a reader given ``today``): a word of the language data naming a day by
  its distance from today ("amanhã", "tomorrow", "pasado mañana"), read as that day's **date**
  (not its weekday: "amanhã" is no Tuesday a week later) — not after a word that makes it a
  part of the day ("por la mañana"), nor in a list of parts of the day;
* **number**: any other number; **name**: a capitalised word that does not start a sentence.

Spans do not overlap: the earlier kind in this list wins.
"""

from __future__ import annotations

import functools
import json
import re
import sys
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from decimal import Decimal, InvalidOperation
from enum import StrEnum
from typing import TypedDict
from zoneinfo import ZoneInfo

from agent_service.application.text import fold_with_map


@dataclass(frozen=True, slots=True)
class CalendarWords:
    """One language's calendar and unit names from CLDR, folded: weekday names (index 0 =
    Monday; the wide names and their first part, "segunda" of "segunda-feira"), month names
    (index 1 = January; wide and abbreviated), the words of a duration in minutes and in hours
    (every CLDR length, singular and plural), and the ISO 4217 currency codes."""

    weekdays: tuple[tuple[str, int], ...]
    months: tuple[tuple[str, int], ...]
    minute_words: tuple[str, ...]
    hour_words: tuple[str, ...]
    currency_codes: tuple[str, ...] = ()
    amounts: tuple[tuple[str, Decimal], ...] = ()
    """Number words an amount of a duration may be said in ("uma" 1, "half an" 0.5)."""
    relative_days: tuple[tuple[str, int], ...] = ()
    """Words naming a day by its distance from today ("amanha" 1, "today" 0)."""
    not_relative_after: tuple[str, ...] = ()
    """Words after which a relative day's word is a part of the day ("la" of "por la
    mañana")."""
    day_parts: tuple[str, ...] = ()
    """Words naming a part of the day ("tarde", "noite"): a relative day's word in a list
    with one is a part of the day too ("(mañana, tarde)")."""
    day_words: tuple[str, ...] = ()
    """The language's word for a day ("dia"): a number after it is a day of the month."""
    day_articles: tuple[str, ...] = ()
    """Words before a day's number that make it an ordinal date ("the" of "the 2nd")."""
    count_nouns: tuple[str, ...] = ()
    """Nouns a number counts ("horários", "slots"): "terça, 2 horários" is no day of the month."""
    counted: tuple[tuple[str, str], ...] = ()
    """Nouns whose count the tools' results hold, each with what it counts (one of
    ``COUNT_CLASSES``, or ``ANY_COUNT``): "3 horários" is a count of free times."""
    hour_markers: tuple[str, ...] = ()
    """Words before an hour ("às", "at", "a las"): a number after one is an hour, no count."""
    half_after: tuple[str, ...] = ()
    """Words after an hour that make it half past ("e meia", "y media")."""


class Kind(StrEnum):
    URL = "url"
    EMAIL = "email"
    DATETIME = "datetime"
    DATE = "date"
    TIME = "time"
    MONEY = "money"
    PERCENT = "percent"
    DURATION = "duration"
    PHONE = "phone"
    WEEKDAY = "weekday"
    COUNT = "count"
    NUMBER = "number"
    NAME = "name"


Value = tuple[Kind, object]


@dataclass(frozen=True, slots=True)
class Fact:
    """One span: what it says (``values``: every reading of it, e.g. a time or a duration),
    as written, and where."""

    values: tuple[Value, ...]
    text: str
    start: int
    end: int

    @property
    def kind(self) -> Kind:
        return self.values[0][0]


@functools.cache
def _currency_signs() -> str:
    return (
        "".join(
            chr(c)
            for c in range(0x20, min(sys.maxunicode, 0x20CF) + 1)
            if unicodedata.category(chr(c)) == "Sc"
        )
        + "\ufdfc\ufe69\uff04\uffe0\uffe1\uffe5\uffe6"
    )


_AMOUNT = r"\d{1,3}(?:[.,\u00a0 ]\d{3})*(?:[.,]\d{1,2})?|\d+(?:[.,]\d{1,2})?"
# Every pattern starts only where its run starts (a look-behind), so a long run of digits or
# letters costs one attempt, not one per character: linear time on any text.
_URL = re.compile(
    r"(?:https?://|(?<![\w.-])www\.)[^\s<>\"')\]]+"
    r"|(?<![\w.-])[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,}/[^\s<>\"')\]]*",
    re.I,
)
_EMAIL = re.compile(r"(?<![\w.+-])[\w.+-]{1,64}@[\w-]+(?:\.[\w-]+)+")
_ISO = re.compile(
    r"\b(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::\d{2}(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?\b"
)
_NUMERIC_DATE = re.compile(r"(?<![\d/])(\d{1,2})/(\d{1,2})(?:/(\d{2}|\d{4}))?(?![\d/])")
_CLOCK = re.compile(
    r"(?<![\d:])([01]?\d|2[0-3])(?::([0-5]\d)|\s?h\s?([0-5]\d)|\s?h(?:rs?)?)(?:\s?min)?(?![\w:])",
    re.I,
)
_AMPM = re.compile(r"(?<![\d:])(1[0-2]|0?[1-9])(?::([0-5]\d))?\s?([ap])\.?\s?m\b\.?", re.I)
_PERCENT = re.compile(r"(?<![\d.,])(" + _AMOUNT + r")\s?%")
_PHONE = re.compile(r"(?<![\w+])\+?\(?\d[\d\s().-]{6,22}\d(?![\w])")
_NUMBER = re.compile(r"(?<![\w])\d+(?:[.,]\d+)*(?![\w])")
_WORD = re.compile(r"[^\W\d_]+(?:['’-][^\W\d_]+)*")
LOOK_BACK = 80
"""How far back a word looks for the end of the sentence before it."""
_ENUMERATOR = re.compile(r"(?:(?:^|\n)[ \t]*[-*•]?[ \t]*\d{1,2}[.)]|(?<![\w(])\d{1,2}\))(?=\s)")
"""A list's item number ("1. Corte" at the start of a line, "1) booking; 2) seeing"): layout,
no fact.
(Ordinals, "1ª", "2º", "1st", are no number: the letter after the digits ends the match.)"""


READINGS_KEPT = 256
"""Texts whose readings a reader keeps (a turn reads its reply and tool results a few times)."""


def _alternatives(words: Iterable[str]) -> str:
    """``words`` as a regex alternation, the longest first (so a longer name wins)."""
    return "|".join(re.escape(w) for w in sorted(set(words), key=len, reverse=True))


@dataclass(frozen=True, slots=True)
class _Patterns:
    """A reader's patterns built from its calendar words, compiled once."""

    money: tuple[re.Pattern[str], ...]
    currency_words: re.Pattern[str] | None
    durations: re.Pattern[str] | None
    hour_words: frozenset[str]
    amount_words: dict[str, Decimal]
    relative_days: re.Pattern[str] | None
    day_offsets: dict[str, int]
    day_parts: re.Pattern[str] | None
    month_dates: tuple[tuple[re.Pattern[str], int, int], ...]
    weekdays: re.Pattern[str] | None
    month_days: tuple[re.Pattern[str], ...]
    counts: re.Pattern[str] | None
    counted: dict[str, tuple[str, ...]]
    marked_hours: re.Pattern[str] | None

    @classmethod
    def of(cls, reader: FactReader) -> _Patterns:
        signs = re.escape(_currency_signs())
        iso = sorted({code for c in reader.calendars for code in c.currency_codes}, key=len)
        marker = rf"(?:[A-Z]{{0,3}}[{signs}]|\b(?:{'|'.join(iso) or '(?!)'})\b)"
        money = (
            re.compile(rf"(?<![A-Z]){marker}\s?({_AMOUNT})(?!\d)"),
            re.compile(rf"(?<![\d.,])({_AMOUNT})\s?{marker}"),
        )
        words = _alternatives(reader.currency_words)
        hours = frozenset(w for c in reader.calendars for w in c.hour_words)
        units = _alternatives([w for c in reader.calendars for w in c.minute_words] + [*hours])
        names = _alternatives(reader.months)
        day = r"(\d{1,2})(?:º|o|st|nd|rd|th)?"
        month_dates = (
            (re.compile(rf"(?<!\d){day}\s(?:de\s|of\s)?({names})\b\.?"), 1, 2),
            (re.compile(rf"\b({names})\.?\s{day}\b"), 2, 1),
        )
        weekdays = _alternatives(reader.weekdays)
        amount_words = {w: n for c in reader.calendars for w, n in c.amounts if len(w) > 1}
        spoken = _alternatives(amount_words)
        amount = rf"\d+(?:[.,]\d+)?|{spoken}" if spoken else r"\d+(?:[.,]\d+)?"
        offsets = {w: n for c in reader.calendars for w, n in reversed(c.relative_days)}
        relative = _alternatives(offsets)
        parts = {w for c in reader.calendars for w in c.not_relative_after}
        not_part = "".join(rf"(?<!\b{re.escape(w)}\s)" for w in sorted(parts))
        parts_of_day = {w for c in reader.calendars for w in c.day_parts}
        return cls(
            money=money,
            currency_words=(
                re.compile(rf"(?<![\w.,])({_AMOUNT})\s?(?:{words})\b") if words else None
            ),
            durations=(re.compile(rf"(?<![\w.,:])({amount})\s?({units})\b\.?") if units else None),
            hour_words=hours,
            amount_words=amount_words,
            relative_days=(
                re.compile(rf"{not_part}(?<![\w-])({relative})(?![\w-])")
                if relative and reader.today is not None
                else None
            ),
            day_offsets=offsets,
            day_parts=(
                re.compile(rf"(?<![\w-])({_alternatives(parts_of_day)})(?![\w-])")
                if parts_of_day
                else None
            ),
            month_dates=month_dates if names else (),
            weekdays=re.compile(rf"(?<![\w-])({weekdays})(?![\w-])") if weekdays else None,
            month_days=_month_day_patterns(reader, weekdays) if reader.today is not None else (),
            **_count_patterns(reader, amount_words),
            marked_hours=_marked_hour_pattern(reader, amount_words),
        )


def _marked_hour_pattern(
    reader: FactReader, amount_words: dict[str, Decimal]
) -> re.Pattern[str] | None:
    """A word before an hour, then the hour (group 1: digits or a number word), an hour mark
    or word at most, and a half (group 2) — never before a count noun or a clock's minutes."""
    markers = {w for c in reader.calendars for w in c.hour_markers}
    if not markers:
        return None
    words = [w for w, n in amount_words.items() if n == n.to_integral() and 1 <= n <= 12]
    hours = _alternatives(["h", *{w for c in reader.calendars for w in c.hour_words}])
    halves = _alternatives({w for c in reader.calendars for w in c.half_after})
    parts = _alternatives({w for c in reader.calendars for w in c.day_parts})
    # a number word is an hour only where a clock's hour ends: "a las dos", "às três da
    # tarde", "a las dos y media" — "de las dos maneras" counts
    ends = "|".join(f"(?:{w})" for w in (hours, halves, rf"(?:\w+\s){{0,2}}(?:{parts})") if w)
    spoken = rf"(?:{_alternatives(words)})(?=\s*(?:[^\w\s]|$|{ends}))" if words else ""
    number = rf"\d{{1,2}}|{spoken}" if spoken else r"\d{1,2}"
    half = rf"(\s(?:{halves}))?" if halves else "()"
    counts = _alternatives({w for c in reader.calendars for w in c.count_nouns})
    not_counted = rf"(?!\s+(?:{counts})\b)" if counts else ""
    return re.compile(
        rf"(?<![\w-])(?:{_alternatives(markers)})\s+({number})(?![\d:.,/]\d)"
        rf"(?:\s?(?:{hours})\b)?{half}{not_counted}(?![\w-])"
    )


class _CountPatterns(TypedDict):
    counts: re.Pattern[str] | None
    counted: dict[str, tuple[str, ...]]


def _count_patterns(reader: FactReader, amount_words: dict[str, Decimal]) -> _CountPatterns:
    """``counts``: a number (group 1) and, one word between at most, a counted noun (group 2);
    ``counted``: each noun's classes."""
    counted: dict[str, tuple[str, ...]] = {}
    for calendar in reader.calendars:
        for noun, what in calendar.counted:
            classes = COUNT_CLASSES if what == ANY_COUNT else (what,)
            counted[noun] = tuple(dict.fromkeys((*counted.get(noun, ()), *classes)))
    if not counted:
        return {"counts": None, "counted": counted}
    words = [w for w, n in amount_words.items() if n == n.to_integral() and n >= 2]
    number = rf"\d{{1,3}}|{_alternatives(words)}" if words else r"\d{1,3}"
    markers = {w for c in reader.calendars for w in c.hour_markers}
    not_hour = "".join(rf"(?<!\b{re.escape(w)}\s)" for w in sorted(markers))
    pattern = (
        rf"(?<![\w:.,/$]){not_hour}({number})\s+(?:[^\W\d_]{{2,}}\s+)?"
        rf"({_alternatives(counted)})(?![\w-])"
    )
    return {"counts": re.compile(pattern), "counted": counted}


def _month_day_patterns(reader: FactReader, weekdays: str) -> tuple[re.Pattern[str], ...]:
    """A day of the month with no month (group 1): after a day word, right after a weekday
    (a comma and a day word between at most), or an ordinal; never a clock time's hour."""
    number = r"(\d{1,2})(?![\d:.,/]\d|\s?(?:h|hs|am|pm|a\.m|p\.m)\b)"
    day_words = _alternatives([w for c in reader.calendars for w in c.day_words])
    patterns = [re.compile(r"(?<!\d)(\d{1,2})(?:st|nd|rd|th)\b")]
    if day_words:
        patterns.append(re.compile(rf"(?<![\w-])(?:{day_words})\s{number}(?:º|o)?(?!\w)"))
    if weekdays:
        between = rf",?\s(?:(?:{day_words})\s)?" if day_words else r",?\s"
        counts = _alternatives([w for c in reader.calendars for w in c.count_nouns])
        counted = rf"(?!\s+(?:{counts})\b)" if counts else ""
        patterns.append(
            re.compile(rf"(?<![\w-])(?:{weekdays}){between}{number}(?:º|o)?(?!\w){counted}")
        )
    return tuple(patterns)


@dataclass(frozen=True, slots=True, eq=False)
class FactReader:
    """Reads the fact spans of texts in the business's ``zone`` and ``currency``, with the
    calendar words of the languages in play (hashed by identity: build one per setting). Its
    patterns are compiled once, and the readings of the last ``READINGS_KEPT`` texts are kept:
    one reply is read by several rules."""

    calendars: tuple[CalendarWords, ...]
    zone: ZoneInfo
    currency_words: tuple[str, ...] = ()
    today: date | None = None
    """The business's today: relative days ("amanhã") are read only when it is known."""
    currency_marks: tuple[str, ...] = ()
    """The business's currencies' codes and symbols ("BRL", "R$"): an amount marked with
    another ("US$ 40") is another currency's, grounded by no price of the business."""
    weekdays: dict[str, int] = field(init=False)
    months: dict[str, int] = field(init=False)
    _patterns: _Patterns = field(init=False, repr=False)
    _read: dict[str, tuple[Fact, ...]] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "weekdays", {w: i for c in self.calendars for w, i in c.weekdays})
        object.__setattr__(self, "months", {w: i for c in self.calendars for w, i in c.months})
        object.__setattr__(self, "_patterns", _Patterns.of(self))
        object.__setattr__(self, "_read", {})

    def facts(self, text: str) -> tuple[Fact, ...]:
        """The fact spans of ``text``, in order (see the module's rules)."""
        known = self._read.get(text)
        if known is None:
            known = self._facts(text)
            if len(self._read) >= READINGS_KEPT:
                del self._read[next(iter(self._read))]  # the oldest reading
            self._read[text] = known
        return known

    @property
    def day_words(self) -> tuple[str, ...]:
        """The languages' words for a day and before a day's number ("dia", "the")."""
        return tuple(w for c in self.calendars for w in (*c.day_words, *c.day_articles))

    def relative(self, fact: Fact) -> bool:
        """Whether ``fact`` is a relative day's word ("amanhã")."""
        return fact.kind is Kind.DATE and _fold_word(fact.text) in self._patterns.day_offsets

    def _facts(self, text: str) -> tuple[Fact, ...]:
        found: list[Fact] = []
        taken = bytearray(len(text) + 1)
        folded, index = fold_with_map(text)
        for kind_facts in (
            self._urls(text),
            _emails(text),
            self._iso(text),
            _numeric_dates(text),
            _clock_times(text),
            self._marked_hours(folded, index, text),
            self._money(text, folded, index),
            _percents(text),
            self._durations(folded, index, text),
            self._month_dates(folded, index, text),
            self._month_days(folded, index, text),
            self._relative_days(folded, index, text),
            _phones(text),
            self._weekdays(folded, index, text),
            self._counts(folded, index, text),
            _numbers(text),
            self._names(text),
        ):
            for fact in kind_facts:
                if not any(taken[fact.start : fact.end]):
                    found.append(fact)
                    taken[fact.start : fact.end] = b"\x01" * (fact.end - fact.start)
        return tuple(sorted(found, key=lambda f: f.start))

    def _urls(self, text: str) -> Iterable[Fact]:
        for m in _URL.finditer(text):
            raw = m.group().rstrip(".,;:!?")
            value = re.sub(r"^(?:https?://)?(?:www\.)?", "", raw.lower()).rstrip("/")
            yield Fact(((Kind.URL, value),), raw, m.start(), m.start() + len(raw))

    def _iso(self, text: str) -> Iterable[Fact]:
        for m in _ISO.finditer(text):
            year, month, day, hour = m.groups()[:4]
            try:
                if hour is None:
                    date = datetime(int(year), int(month), int(day))
                    yield _fact(
                        m, (Kind.DATE, (date.month, date.day)), (Kind.WEEKDAY, date.weekday())
                    )
                    continue
                moment = datetime.fromisoformat(m.group().replace(" ", "T").replace("Z", "+00:00"))
            except ValueError:
                continue
            local = moment.astimezone(self.zone) if moment.tzinfo else moment
            yield _fact(
                m,
                (Kind.DATETIME, (local.month, local.day, local.hour * 60 + local.minute)),
                (Kind.DATE, (local.month, local.day)),
                (Kind.TIME, local.hour * 60 + local.minute),
                (Kind.WEEKDAY, local.weekday()),
            )

    def _money(self, text: str, folded: str, index: list[int]) -> Iterable[Fact]:
        for pattern in self._patterns.money:
            for m in pattern.finditer(text):
                amount = amount_of(m.group(1))
                if amount is None:
                    continue
                mark = m.group()[: m.start(1) - m.start()] + m.group()[m.end(1) - m.start() :]
                foreign = self.currency_marks and mark.strip() not in self.currency_marks
                yield _fact(m, (Kind.MONEY, (mark.strip(), amount) if foreign else amount))
        if self._patterns.currency_words is not None:
            for m in self._patterns.currency_words.finditer(folded):
                amount = amount_of(m.group(1))
                if amount is not None:
                    yield _mapped(text, index, m, (Kind.MONEY, amount))

    def _durations(self, folded: str, index: list[int], text: str) -> Iterable[Fact]:
        if self._patterns.durations is None:
            return
        words = self._patterns.amount_words
        for m in self._patterns.durations.finditer(folded):
            amount = words.get(m.group(1)) or amount_of(m.group(1))
            if amount is None:
                continue
            scale = 60 if m.group(2) in self._patterns.hour_words else 1
            yield _mapped(text, index, m, (Kind.DURATION, int(amount * scale)))

    def _month_dates(self, folded: str, index: list[int], text: str) -> Iterable[Fact]:
        for pattern, day_group, month_group in self._patterns.month_dates:
            for m in pattern.finditer(folded):
                number, month = int(m.group(day_group)), self.months[m.group(month_group)]
                if 1 <= number <= 31:
                    yield _mapped(text, index, m, (Kind.DATE, (month, number)))

    def _month_days(self, folded: str, index: list[int], text: str) -> Iterable[Fact]:
        if self.today is None:
            return
        for pattern in self._patterns.month_days:
            for m in pattern.finditer(folded):
                day = _next_month_day(self.today, int(m.group(1)))
                if day is not None:  # the number on ("2nd", "2"), never the word before it
                    start, end = index[m.start(1)], index[m.end() - 1] + 1
                    value = (Kind.DATE, (day.month, day.day))
                    yield Fact((value,), text[start:end], start, end)

    def _relative_days(self, folded: str, index: list[int], text: str) -> Iterable[Fact]:
        if self._patterns.relative_days is None or self.today is None:
            return
        for m in self._patterns.relative_days.finditer(folded):
            if self._among_parts(folded, m):
                continue
            day = self.today + timedelta(days=self._patterns.day_offsets[m.group(1)])
            yield _mapped(text, index, m, (Kind.DATE, (day.month, day.day)))

    def _among_parts(self, folded: str, match: re.Match[str]) -> bool:
        """Whether a relative day's word is an item of a list of parts of the day: a part of
        the day beside it, with only a comma or a slash between ("(mañana, tarde)")."""
        parts = self._patterns.day_parts
        if parts is None:
            return False
        after = re.match(r"\s*[,/]\s*", folded[match.end() :])
        if after and parts.match(folded, match.end() + after.end()):
            return True
        before = re.search(r"(\w+)\s*[,/]\s*$", folded[max(0, match.start() - 40) : match.start()])
        return bool(before and parts.fullmatch(before.group(1)))

    def _weekdays(self, folded: str, index: list[int], text: str) -> Iterable[Fact]:
        if self._patterns.weekdays is None:
            return
        for m in self._patterns.weekdays.finditer(folded):
            yield _mapped(text, index, m, (Kind.WEEKDAY, self.weekdays[m.group(1)]))

    def _marked_hours(self, folded: str, index: list[int], text: str) -> Iterable[Fact]:
        if self._patterns.marked_hours is None:
            return
        for m in self._patterns.marked_hours.finditer(folded):
            said = self._patterns.amount_words.get(m.group(1)) or amount_of(m.group(1))
            if said is None or not 0 <= said <= 23:
                continue
            minutes = 30 if m.group(2) else 0
            hours = [int(said)] + ([int(said) + 12] if 1 <= said < 12 else [])
            yield _mapped(text, index, m, *((Kind.TIME, h * 60 + minutes) for h in hours))

    def _counts(self, folded: str, index: list[int], text: str) -> Iterable[Fact]:
        if self._patterns.counts is None:
            return
        for m in self._patterns.counts.finditer(folded):
            amount = self._patterns.amount_words.get(m.group(1)) or amount_of(m.group(1))
            after = index[m.end(1) - 1] + 1
            if amount is None or not text[after : after + 1].isspace():
                continue  # "3) serviços": a list's number, not a count (folding drops the ")")
            classes = self._patterns.counted[m.group(2)]
            yield _mapped(text, index, m, *((Kind.COUNT, (c, int(amount))) for c in classes))

    def _names(self, text: str) -> Iterable[Fact]:
        for m in _WORD.finditer(text):
            word = m.group()
            if word[0].isupper() and len(word) > 1 and not _starts_sentence(text, m.start()):
                yield Fact(((Kind.NAME, _fold_word(word)),), word, m.start(), m.end())


def name_parts(value: object) -> list[str]:
    """The letter runs of a folded name of two letters or more ("teste's" → ["teste"])."""
    return list(_name_parts(str(value)))


_LETTER_RUNS = re.compile(r"[^\W\d_]+")


@functools.lru_cache(maxsize=4096)  # the catalog's and the results' names, read turn after turn
def _name_parts(text: str) -> tuple[str, ...]:
    return tuple(part for part in _LETTER_RUNS.findall(text) if len(part) >= 2)


def _next_month_day(today: date, number: int) -> date | None:
    """The first day numbered ``number`` from ``today`` on: this month's, else next month's."""
    for month_offset in range(3):
        year, month = divmod(today.month - 1 + month_offset, 12)
        try:
            day = date(today.year + year, month + 1, number)
        except ValueError:
            continue
        if day >= today:
            return day
    return None


def _fact(match: re.Match[str], *values: Value) -> Fact:
    return Fact(tuple(values), match.group(), match.start(), match.end())


def _mapped(text: str, index: list[int], match: re.Match[str], *values: Value) -> Fact:
    start, end = index[match.start()], index[match.end() - 1] + 1
    return Fact(tuple(values), text[start:end], start, end)


def _fold_word(word: str) -> str:
    return fold_with_map(word)[0].strip().lower()


def _starts_sentence(text: str, position: int) -> bool:
    """Whether a word at ``position`` starts a sentence or a line (after a bullet, a quote or
    an emoji too); a period after a capitalised word of up to three letters ("Av.", "Dr.") is
    an abbreviation, not the end of a sentence."""
    before = text[max(0, position - LOOK_BACK) : position].rstrip(" \t\"'“”‘’([{«*_")
    line = before.rsplit("\n", 1)[-1]
    if not any(char.isalnum() for char in line):
        return "\n" in before or position <= LOOK_BACK
    if before[-1] not in ".!?…:;":
        return False
    abbreviation = re.search(r"([^\W\d_]+)\.$", before)
    word = abbreviation.group(1) if abbreviation else ""
    return not (word and len(word) <= 3 and word[0].isupper())


def amount_of(raw: str) -> Decimal | None:
    """``80``, ``80,00``, ``1.200,50``, ``1,200.50`` → a Decimal with two places."""
    text = raw.replace("\u00a0", "").replace(" ", "")
    last = max(text.rfind(","), text.rfind("."))
    if last >= 0 and len(text) - last - 1 in (1, 2):
        whole, cents = re.sub(r"[.,]", "", text[:last]), text[last + 1 :]
        text = f"{whole}.{cents}"
    else:
        text = re.sub(r"[.,]", "", text)
    try:
        return Decimal(text).quantize(Decimal("0.01"))
    except InvalidOperation:
        return None


def _emails(text: str) -> Iterable[Fact]:
    for m in _EMAIL.finditer(text):
        yield _fact(m, (Kind.EMAIL, m.group().lower()))


def _numeric_dates(text: str) -> Iterable[Fact]:
    for m in _NUMERIC_DATE.finditer(text):
        first, second = int(m.group(1)), int(m.group(2))
        readings: list[Value] = []
        if 1 <= first <= 31 and 1 <= second <= 12:
            readings.append((Kind.DATE, (second, first)))
        if 1 <= second <= 31 and 1 <= first <= 12:
            readings.append((Kind.DATE, (first, second)))
        if readings:
            yield Fact(tuple(readings), m.group(), m.start(), m.end())


def _clock_times(text: str) -> Iterable[Fact]:
    for m in _AMPM.finditer(text):
        hour = int(m.group(1)) % 12 + (12 if m.group(3).lower() == "p" else 0)
        yield _fact(m, (Kind.TIME, hour * 60 + int(m.group(2) or 0)))
    for m in _CLOCK.finditer(text):
        hour, minute = int(m.group(1)), int(m.group(2) or m.group(3) or 0)
        values: list[Value] = [(Kind.TIME, hour * 60 + minute)]
        if m.group(2) is None:  # "2h", "1h30": a time of day or a duration
            values.append((Kind.DURATION, hour * 60 + minute))
        yield Fact(tuple(values), m.group(), m.start(), m.end())


def _percents(text: str) -> Iterable[Fact]:
    for m in _PERCENT.finditer(text):
        amount = amount_of(m.group(1))
        if amount is not None:
            yield _fact(m, (Kind.PERCENT, amount))


def _phones(text: str) -> Iterable[Fact]:
    for m in _PHONE.finditer(text):
        digits = re.sub(r"\D", "", m.group())
        if 8 <= len(digits) <= 15:
            yield _fact(m, (Kind.PHONE, digits[-8:]))


def _numbers(text: str) -> Iterable[Fact]:
    """Every other number, small ones too ("Horários livres: 4.", "say 10?"): a number no
    other shape reads is still a fact, grounded or refused like any other."""
    layout = {m.end() - 1 for m in _ENUMERATOR.finditer(text)}
    for m in _NUMBER.finditer(text):
        amount = amount_of(m.group())
        if amount is not None and m.end() not in layout:
            yield _fact(m, (Kind.NUMBER, amount))


DURATION_FIELD = "minutes"
"""The field of a structured tool result that holds a length in minutes."""
_DURATION_FIELD = re.compile(rf'"{DURATION_FIELD}"\s*:\s*(\d+)')


def field_durations(text: str) -> set[Value]:
    """The lengths a JSON tool result's ``minutes`` fields hold ("30 min" is one of them)."""
    return {(Kind.DURATION, int(minutes)) for minutes in _DURATION_FIELD.findall(text)}


COUNT_CLASSES = ("times", "professionals", "services", "appointments")
"""What a count counts (``[numbers].counted``)."""
ANY_COUNT = "options"
"""A noun that counts whatever is listed ("2 opções")."""
COUNTED_FIELDS = {
    "times": "times",
    "professionals": "professionals",
    "offered_by": "professionals",
    "working_that_day": "professionals",
    "services": "services",
    "options": "services",
    "appointments": "appointments",
}
"""The lists of a structured tool result whose length is a count, and what each counts."""
DAY_FIELD = "day"
ONE_DAY = "day"
"""The mark of a count that is one day's (``(what, n, ONE_DAY)``): true only of that day."""


def field_counts(text: str) -> set[Value]:
    """The counts a JSON tool result holds: each counted list's length, and the free times of
    one day (every professional's) and of the whole result added up. In a result of several
    days, a day's free times (one list's, or the day's added up) are marked as that day's
    (``ONE_DAY``): "11 horários" is no count of a result of two days unless a day is said."""
    try:
        data = json.loads(text) if text.startswith(("{", "[")) else None
    except ValueError:
        return set()
    found: set[Value] = set()
    per_day: dict[object, int] = {}
    day_lists: list[int] = []
    stack = [data]
    while stack:
        node = stack.pop()
        if isinstance(node, list):
            stack.extend(node)
        elif isinstance(node, dict):
            dated = DAY_FIELD in node
            for key, value in node.items():
                if isinstance(value, list):
                    what = COUNTED_FIELDS.get(key)
                    if what == "times" and dated:
                        day_lists.append(len(value))
                    elif what is not None:
                        found.add((Kind.COUNT, (what, len(value))))
                    stack.append(value)
                elif isinstance(value, dict):
                    stack.append(value)
            times = node.get("times")
            if isinstance(times, list):
                day = node.get(DAY_FIELD)
                per_day[day] = per_day.get(day, 0) + len(times)
    several = len(per_day) > 1
    for count in (*day_lists, *per_day.values()):
        found.add((Kind.COUNT, ("times", count, ONE_DAY) if several else ("times", count)))
    if per_day:
        found.add((Kind.COUNT, ("times", sum(per_day.values()))))
    return found


def values_of(facts: Sequence[Fact]) -> set[Value]:
    """Every reading of every span."""
    return {value for fact in facts for value in fact.values}
