# Over 300 lines: the offline model's date and time grammar (pt-BR and English), one parser.
"""Dates and times in customer messages (pt-BR and English), resolved against a local ``now``.

Parsing runs on folded text (lowercase, no accents, see :func:`text.fold_with_map`); the
``day_text`` echoed back is the customer's own spelling of the matched words.

Dates (the earliest mention wins; at the same position the longest one):

* ``hoje``/``hj``/``today``, ``amanhã``/``tomorrow``, ``depois de amanhã``/``(the) day after
  tomorrow``.
* Weekdays. A bare weekday (or with ``nesta/nessa/esta/essa/na/no/this/on``) means today when
  today is that weekday and either no time was given or the time is still ahead; otherwise its
  next occurrence. ``próxima/próximo/next`` (or ``... que vem``/``... next week``) means the
  first such weekday strictly after today; when that is within the week, ``alternative`` is
  the one a week later (customers mean both: the booking flow asks). ``... da semana que
  vem``/``... next week`` is that weekday of next calendar week. A pt weekday word followed
  by ``opção``/``vez`` is an ordinal ("a segunda opção"), not a date. Abbreviations:
  ``seg qua qui sáb`` and ``mon tue wed thu fri`` (``ter``, ``sex``, ``dom``, ``sat``, ``sun``
  are ordinary words).
* ``d/m`` or ``d/m/y`` in Portuguese. In English only one reading may exist: "25/12" is
  Dec 25, "12/12" Dec 12; "12/3" (Dec 3 or 12 March: English customers write both) is
  ``day=None``, so it is asked (language by :func:`text.detect_language`, default ``pt``).
* ``5 de dezembro``, ``dia 5 de dezembro``, ``Dec 5``, ``December 5th``, ``5 December``,
  ``5th of December``, optionally with a year. English month abbreviations that are also words
  (``may``, ``mar``) only count next to a day number, which is always the case here.
* ``dia 5`` / ``(on) the 5th`` (``the`` needs an ordinal suffix, "the 2 options" is not a
  date): this month when that day exists and is today or later, else the same day next month
  ("dia 31" on Nov 30 -> Dec 31), else ``None`` ("dia 30" on Jan 31: February has no 30th and
  we would rather ask than guess March).
* A date without a year is this year when not past, else next year. An explicit year in the
  past, an impossible date (31/02) or an unresolvable one gives ``day=None``.

Times (the earliest mention wins):

* A number is a time only when marked: ``às``/``as``/``at``/``pelas``/``pras``/``umas``/``por
  volta das``/``perto das``/``around`` before it,
  ``h``/``hs``/``hrs``/``horas``/``:MM`` after it, ``am``/``pm``, or a period of the day after
  it (``da manhã/tarde/noite``, ``in the morning/afternoon/evening``, ``at night``). Prices
  (``R$ 50``), counts (``2 pessoas``, ``3 cortes``) and bare numbers are never times; neither
  is a marked-by-preposition number followed by a count noun ("as 2 opções", "at 3 people").
  ``hora(s)`` alone is a duration ("demora 2 horas?"); it is a time only with ``às``/``at`` or
  a period of the day ("às 3 horas", "3 horas da tarde").
* ``meio-dia``/``meio dia``/``noon``/``midday`` is 12:00; ``meia-noite``/``midnight`` 00:00;
  ``e meia`` adds 30 minutes.
* ``half past two``, ``quarter past 4``, ``quarter to 11``, British ``half four`` (digits or
  number words one to twelve, optional am/pm; the business-hours rule below applies).
* Hours in words ("às duas e quinze", "dez e meia", "cinco da tarde", "at four", "around
  nine") count only next to a clock mark (:func:`clock_digits`); ``N e meia`` is a time.
* Business-hours heuristic: an hour from 1 to 7 with no am/pm and no period of the day, not
  written with a leading zero ("07h", "03:30" stay as written), is read as afternoon
  ("às 3" -> 15:00, "3:30" -> 15:30). Salons and clinics do not book at 3 in the morning.
* ``da tarde``/``da noite``/``pm`` add 12 to hours below 12; ``12am``/``12 da manhã`` is 00:00.
  An afternoon/evening word anywhere in the message ("tonight at 8", "hoje à noite às 8",
  "à tarde às 2") also moves hours 1..11 to the afternoon, unless am/pm was written.
* Hours must be 0..23 (1..12 with am/pm) and minutes 0..59, else ``at`` is ``None``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta

from agent_service.infrastructure.agent.offline.text import detect_language, fold_with_map

__all__ = ["When", "has_when_mention", "loose_time", "parse_when", "shift", "two_readings"]


@dataclass(frozen=True, slots=True)
class When:
    """What a message says about the appointment's date and time (local to the tenant)."""

    day: date | None
    at: time | None
    day_text: str = ""
    alternative: date | None = None
    """The other reading of "próxima terça"/"terça que vem"/"next Tuesday" when the nearest one
    is this week: a week later. Whoever books asks which one."""


PT_MONTHS = {
    "janeiro": 1, "fevereiro": 2, "marco": 3, "abril": 4, "maio": 5, "junho": 6, "julho": 7,
    "agosto": 8, "setembro": 9, "outubro": 10, "novembro": 11, "dezembro": 12,
    "jan": 1, "fev": 2, "mar": 3, "abr": 4, "mai": 5, "jun": 6, "jul": 7, "ago": 8,
    "set": 9, "out": 10, "nov": 11, "dez": 12,
}  # fmt: skip
EN_MONTHS = {
    "january": 1, "february": 2, "march": 3, "april": 4, "may": 5, "june": 6, "july": 7,
    "august": 8, "september": 9, "october": 10, "november": 11, "december": 12,
    "feb": 2, "apr": 4, "aug": 8, "sep": 9, "sept": 9, "oct": 10, "dec": 12,
}  # fmt: skip
MONTHS = {**PT_MONTHS, **EN_MONTHS}
WEEKDAYS = {
    "segunda": 0, "terca": 1, "quarta": 2, "quinta": 3, "sexta": 4, "sabado": 5, "domingo": 6,
    "monday": 0, "tuesday": 1, "tues": 1, "wednesday": 2, "thursday": 3, "thurs": 3,
    "friday": 4, "saturday": 5, "sunday": 6,
    "seg": 0, "qua": 2, "qui": 3, "sab": 5, "mon": 0, "tue": 1, "wed": 2, "thu": 3, "fri": 4,
}  # fmt: skip

_MONTH_ALT = "|".join(sorted(MONTHS, key=len, reverse=True))
# "sat"/"sun" are ordinary words too: a weekday only right before a time ("sat 11am").
_WEEKDAY_ALT = "|".join(sorted(WEEKDAYS, key=len, reverse=True)) + (
    r"|sat(?=\s+(?:at\s+)?\d)|sun(?=\s+(?:at\s+)?\d)"
)
WEEKDAYS = {**WEEKDAYS, "sat": 5, "sun": 6}
_ORD = r"(?:st|nd|rd|th|o|a)?"
_YEAR = r"(?:,?\s+(?:de\s+|of\s+)?(?P<year>\d{4}))?"
_NUM_END = r"(?![\d/]|\s*(?::\d|h(?:s|rs?|oras?)?\b|[ap]\.?m\b))"

RECENT_PAST = timedelta(days=92)
_RELATIVE = re.compile(
    r"\b(?P<rel>depois\s+de\s+amanha|(?:the\s+)?day\s+after\s+tomorrow|amanha|amnh|tomorrow|tmrw|tmr|2morrow"
    r"|hoje|hj|today|tonight|ontem|yesterday)\b"
)
_WEEKDAY = re.compile(
    r"\b(?:(?P<mod>proxima|proximo|nesta|nessa|neste|nesse|esta|essa|este|esse|na|no|next"
    r"|this\s+coming|this|coming|on)\s+)?(?P<wd>" + _WEEKDAY_ALT + r")\b(?:[\s-]*feira\b)?"
    r"(?P<next>\s+(?:que\s+vem|da\s+semana\s+que\s+vem|da\s+proxima\s+semana|next\s+week))?"
    r"(?!\s*-?\s*(?:opcao|opcoes|opcoes|vez|option))"
)
_NUMERIC = re.compile(
    r"(?:\bdia\s+)?(?<![\d/:.,$])\b(?P<a>\d{1,2})/(?P<b>\d{1,2})(?:/(?P<year>\d{2}|\d{4}))?"
    r"(?![\d/])"
)
_DAY_MONTH = re.compile(
    r"(?:\b(?:dia|on\s+the|the)\s+)?\b(?P<d>\d{1,2})" + _ORD + r"\s*(?:de\s+|of\s+)?"
    r"(?P<mon>" + _MONTH_ALT + r")\b\.?" + _YEAR
)
_EN_MONTH_ALT = "|".join(sorted(EN_MONTHS, key=len, reverse=True))
_MONTH_DAY = re.compile(
    r"\b(?P<mon>"
    + _EN_MONTH_ALT
    + r")\.?\s+(?:the\s+)?(?P<d>\d{1,2})"
    + _ORD
    + r"\b"
    + _NUM_END
    + _YEAR
)
_DAY_ONLY = re.compile(
    r"\b(?:(?:no\s+)?dia\s+|on\s+the\s+|the\s+(?=\d{1,2}(?:st|nd|rd|th)\b))"
    r"(?P<d>\d{1,2})" + _ORD + r"\b" + _NUM_END
)
_DATE_PATTERNS = (_RELATIVE, _WEEKDAY, _NUMERIC, _DAY_MONTH, _MONTH_DAY, _DAY_ONLY)

_NAMED_TIME = re.compile(
    r"\b(?P<name>meio[\s-]*dia|meia[\s-]*noite|noon|midday|midnight)\b(?P<half>\s+e\s+meia\b)?"
)
_TIME = re.compile(
    r"(?P<prefix>(?:\b(?:as|at|a\s+partir\s+das|pelas|pras|umas|(?:por\s+volta|perto)\s+das?"
    r"|around)|@)\s*)?"
    r"(?<![\d/:.,$])(?<!dia\s)\b(?P<h>\d{1,2})(?![\d/])"
    r"(?:(?P<colon>:(?P<cm>\d{2}))"
    r"|\s?(?P<hmark>horas|hora|hrs|hr|hs|h)(?![a-z])(?:\s?(?P<hm>\d{2})\b)?)?"
    r"(?P<half>\s+e\s+meia\b)?"
    r"(?:\s?(?P<ampm>[ap])\.?m\b\.?)?"
    r"(?P<period>\s+(?:(?:da|de|a)\s+(?:manha|tarde|noite|madrugada)"
    r"|in\s+the\s+(?:morning|afternoon|evening)|at\s+night|tonight)\b)?"
)
_CLOCK_WORDS = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
}  # fmt: skip
# "half four" (British, no "past") is 4:30; "quarter four" is nothing.
_PAST = re.compile(
    r"\b(?P<frac>half|quarter)\s+(?:(?P<rel>past|to)\s+)?(?P<word>\d{1,2}|"
    + "|".join(_CLOCK_WORDS)
    + r")\b(?!\s*(?:hours?|hrs?|h\b|:))(?:\s?(?P<ampm>[ap])\.?m\b\.?)?"
)
_PT_CLOCK_WORDS = {
    "uma": 1, "duas": 2, "tres": 3, "quatro": 4, "cinco": 5, "seis": 6, "sete": 7, "oito": 8,
    "nove": 9, "dez": 10, "onze": 11, "doze": 12,
}  # fmt: skip
_NUMBER_WORDS = {**_PT_CLOCK_WORDS, **_CLOCK_WORDS}
_MINUTE_WORDS = {"quarenta e cinco": 45, "quinze": 15, "vinte": 20, "dez": 10, "quarenta": 40}
_NUMBER_ALT = "|".join(sorted(_NUMBER_WORDS, key=len, reverse=True))
_MINUTE_ALT = "|".join(sorted(_MINUTE_WORDS, key=len, reverse=True))
# A number word is an hour only when a clock mark is next to it: "às/pelas/umas/at/around"
# before it, or "e meia/e quinze", "(horas) da tarde", "am/pm", "o'clock" after it.
_WORD_HOUR = re.compile(
    r"(?:(?P<before>\b(?:as|pelas|pras|umas|das|at|around|by|@)\s+)(?P<w1>" + _NUMBER_ALT + r")\b"
    r"(?!\s+(?:of|de|dos|das)\b)"
    r"|\b(?P<w2>" + _NUMBER_ALT + r")(?=\s+e\s+(?:meia|" + _MINUTE_ALT + r")\b"
    r"|\s+(?:horas?\s+)?(?:da|de)\s+(?:manha|tarde|noite|madrugada)\b"
    r"|\s?[ap]\.?m\b|\s+o\s?clock\b|\s+in\s+the\s+(?:morning|afternoon|evening)\b))"
)
_WORD_MINUTES = re.compile(r"\b(?P<h>\d{1,2})\s+e\s+(?P<m>" + _MINUTE_ALT + r")\b(?!\s+e\b)")


def clock_digits(folded: str) -> str:
    """``folded`` with clock times said in words written in digits ("às duas e quinze" ->
    "as 2:15", "dez e meia" -> "10 e meia", "at four" -> "at 4"); other number words stay."""

    def hour(match: re.Match[str]) -> str:
        word = match["w1"] or match["w2"]
        return (match["before"] or "") + str(_NUMBER_WORDS[word])

    digits = _WORD_HOUR.sub(hour, folded)
    return _WORD_MINUTES.sub(lambda m: f"{m['h']}:{_MINUTE_WORDS[m['m']]:02d}", digits)


_COUNT_NOUN = re.compile(
    r"\s*(?:%|reais|real|pessoas?|people|persons?|opcoes|opcao|options?|cortes?|servicos?"
    r"|services?|vezes|times|dolares|dollars?|anos|years|meses|months|dias|days|semanas|weeks"
    r"|minutos|minutes|filhos|kids|children|clientes)\b"
)
_PM_CONTEXT = re.compile(
    r"\b(?:tonight|this\s+(?:afternoon|evening)|in\s+the\s+(?:afternoon|evening)"
    r"|(?:a|de|da|pela)\s+(?:tarde|noite)|at\s+night)\b"
)
_PM_PERIODS = ("tarde", "noite", "afternoon", "evening", "night", "tonight")


@dataclass(frozen=True, slots=True)
class _Found:
    start: int
    end: int
    match: re.Match[str]


def _earliest(patterns: tuple[re.Pattern[str], ...], folded: str) -> _Found | None:
    """The earliest match of any pattern; at equal start, the longest."""
    best: _Found | None = None
    for pattern in patterns:
        for match in pattern.finditer(folded):
            found = _Found(match.start(), match.end(), match)
            if best is None or (found.start, -found.end) < (best.start, -best.end):
                best = found
            break
    return best


def has_when_mention(text: str) -> bool:
    """Whether ``text`` mentions a date or a time (resolvable or not)."""
    folded, _index = fold_with_map(text)
    return (
        _earliest(_DATE_PATTERNS, folded) is not None
        or _find_time(clock_digits(folded)) is not None
    )


def parse_when(text: str, now: datetime) -> When:
    """The date and time mentioned in ``text``; ``now`` is aware, in the tenant's zone."""
    folded, index = fold_with_map(text)
    clock = clock_digits(folded)
    at = _resolve_time(_find_time(clock), clock)
    found = _earliest(_DATE_PATTERNS, folded)
    if found is None:
        return When(day=None, at=at)
    day_text = text[index[found.start] : index[found.end - 1] + 1].strip()
    language = detect_language(text, "pt")
    day = _resolve_date(found.match, now, at, language)
    other = _week_later(found.match, now, day)
    return When(day=day, at=at, day_text=day_text, alternative=other)


def _week_later(match: re.Match[str], now: datetime, day: date | None) -> date | None:
    """A week after ``day`` when a "next" weekday could mean either (see :class:`When`)."""
    if day is None or "wd" not in match.re.groupindex:
        return None
    if match["next"] and ("semana" in match["next"] or "week" in match["next"]):
        return None
    is_next = match["mod"] in ("proxima", "proximo", "next") or bool(match["next"])
    return day + timedelta(days=7) if is_next and (day - now.date()).days < 7 else None


_BARE = re.compile(
    r"(?<![\d/:.,$])(?<!dia\s)(?<!the\s)\b(?P<h>\d{1,2})(?P<half>\s+e\s+meia)?\b(?![\d/:.,])"
)
_LOOSE_EPOCH = datetime(2000, 1, 3)
_AMOUNTS = {"uma": 60, "one": 60, "an": 60, "a": 60, "duas": 120, "two": 120, "meia": 30,
            "half an": 30, "half": 30}  # fmt: skip
_SHIFT = re.compile(
    r"(?<![a-z0-9])(?P<n>\d{1,3}|uma|duas|meia|one|two|an|a|half an|half)\s*"
    r"(?P<unit>horas?|h|hours?|hrs?|minutos?|min|minutes?|mins?)\s+"
    r"(?P<dir>mais tarde|depois|mais cedo|antes|later|earlier|before|after)(?![a-z])"
)


def shift(text: str) -> timedelta | None:
    """ "1 hora mais tarde", "meia hora mais cedo", "an hour later", "30 min earlier": how far
    to move the time already said; ``None`` when the message says no such thing."""
    folded, _index = fold_with_map(text)
    match = _SHIFT.search(folded)
    if match is None:
        return None
    amount = match["n"]
    hours = match["unit"].startswith("h")
    if amount.isdigit():
        minutes = int(amount) * (60 if hours else 1)
    else:
        minutes = _AMOUNTS[amount] if hours else 0
    sign = -1 if match["dir"] in ("mais cedo", "antes", "earlier", "before") else 1
    return timedelta(minutes=sign * minutes) if minutes else None


def loose_time(text: str) -> time | None:
    """A bare number read as a time ("tem como ser 10 e meia?", "make it 11 instead"): only
    for a message already known to change a time — a bare number is otherwise never a time.
    Counts ("2 pessoas"), prices, dates and "dia 5" stay numbers; hours 1..7 are afternoon."""
    folded, _index = fold_with_map(text)
    for match in _BARE.finditer(folded):
        if _COUNT_NOUN.match(folded, match.end()) or re.match(
            r"(?:st|nd|rd|th)\b", folded[match.end() :]
        ):
            continue
        return parse_when(f"as {match['h']}{' e meia' if match['half'] else ''}", _LOOSE_EPOCH).at
    return None


# --- times -------------------------------------------------------------------------------


def _find_time(folded: str) -> re.Match[str] | None:
    """The earliest marked time mention (named times included)."""
    candidates = [m for m in _TIME.finditer(folded) if _is_marked_time(m, folded)]
    for pattern in (_NAMED_TIME, _PAST):
        named = pattern.search(folded)
        if named is not None:
            candidates.append(named)
    if not candidates:
        return None
    return min(candidates, key=lambda m: m.start())


def _is_marked_time(match: re.Match[str], folded: str) -> bool:
    if match["colon"] or match["ampm"] or match["period"] or match["half"]:
        return True
    if match["hmark"] and not match["hmark"].startswith("hora"):
        return True
    if not match["prefix"]:
        return False
    return _COUNT_NOUN.match(folded, match.end()) is None


def _pm_context(at: time | None, folded: str) -> time | None:
    """A morning-looking hour said together with "tonight"/"à tarde"/"à noite" is afternoon."""
    if at is None or not 1 <= at.hour <= 11 or _PM_CONTEXT.search(folded) is None:
        return at
    return at.replace(hour=at.hour + 12)


def _resolve_time(match: re.Match[str] | None, folded: str) -> time | None:
    if match is None:
        return None
    if "frac" in match.re.groupindex:
        return _past(match, folded)
    at = _clock(match)
    if "name" in match.re.groupindex or match["ampm"] or match["period"]:
        return at
    return _pm_context(at, folded)


def _past(match: re.Match[str], folded: str) -> time | None:
    """``half past two`` 14:30, ``quarter to 11`` 10:45 (business hours without am/pm)."""
    word = match["word"]
    hour = _CLOCK_WORDS[word] if word in _CLOCK_WORDS else int(word)
    if not 1 <= hour <= 12:
        return None
    if match["rel"] is None and match["frac"] == "quarter":
        return None
    minute = 30 if match["frac"] == "half" else 15
    if match["rel"] == "to":
        hour, minute = (hour - 1) or 12, 60 - minute
    if match["ampm"]:
        return time(hour % 12 + (12 if match["ampm"] == "p" else 0), minute)
    at = time(hour + 12 if 1 <= hour <= 7 else hour, minute)
    return at if at.hour >= 12 else _pm_context(at, folded)


def _clock(match: re.Match[str]) -> time | None:
    """The time a single match denotes (named times, am/pm, periods, business hours)."""
    if "name" in match.re.groupindex:
        named_hour = 0 if match["name"].startswith(("meia", "midnight")) else 12
        return time(named_hour, 30 if match["half"] else 0)
    minute = int(match["cm"] or match["hm"] or (30 if match["half"] else 0))
    hour = _hour_24(match)
    if hour is None or not 0 <= hour <= 23 or not 0 <= minute <= 59:
        return None
    return time(hour, minute)


def _hour_24(match: re.Match[str]) -> int | None:
    """The 24-hour clock hour, after am/pm, period-of-day and business-hours rules."""
    raw = match["h"]
    hour = int(raw)
    if match["ampm"]:
        if not 1 <= hour <= 12:
            return None
        return hour % 12 + (12 if match["ampm"] == "p" else 0)
    period = (match["period"] or "").split()
    if period:
        if period[-1] in _PM_PERIODS:
            return hour + 12 if hour < 12 else hour
        return 0 if hour == 12 else hour
    if 1 <= hour <= 7 and not raw.startswith("0"):
        return hour + 12
    return hour


# --- dates -------------------------------------------------------------------------------


def _resolve_date(match: re.Match[str], now: datetime, at: time | None, lang: str) -> date | None:
    groups = match.re.groupindex
    today = now.date()
    if "rel" in groups:
        return today + timedelta(days=_relative_offset(match["rel"]))
    if "wd" in groups:
        return _weekday_date(match, now, at)
    if "a" in groups:
        return _numeric_date(match, today, lang)
    if "mon" in groups:
        return _dated(today, MONTHS[match["mon"]], int(match["d"]), match["year"])
    return _day_of_month(today, int(match["d"]))


def _relative_offset(word: str) -> int:
    if word.startswith(("depois", "the", "day")):
        return 2
    if word in ("ontem", "yesterday"):
        return -1
    return 1 if word in ("amanha", "amnh", "tomorrow", "tmrw", "tmr", "2morrow") else 0


def _weekday_date(match: re.Match[str], now: datetime, at: time | None) -> date:
    today = now.date()
    target = WEEKDAYS[match["wd"]]
    if match["next"] and ("semana" in match["next"] or "week" in match["next"]):
        # "terça da semana que vem", "tuesday next week": that day of next calendar week.
        return today + timedelta(days=7 - today.weekday() + target)
    ahead = (target - today.weekday()) % 7
    is_next = match["mod"] in ("proxima", "proximo", "next") or bool(match["next"])
    if ahead == 0 and (is_next or (at is not None and at <= now.time())):
        ahead = 7
    return today + timedelta(days=ahead)


def two_readings(text: str, now: datetime) -> tuple[str, date, date] | None:
    """An English ``m/d`` date whose two readings both exist ("12/3"): the text as written,
    the month-first and the day-first reading (so the question can name both)."""
    if detect_language(text, "pt") == "pt":
        return None
    folded, index = fold_with_map(text)
    match = _NUMERIC.search(folded)
    if match is None or _numeric_date(match, now.date(), "en") is not None:
        return None
    first, second = int(match["a"]), int(match["b"])
    month_first = _dated(now.date(), first, second, match["year"])
    day_first = _dated(now.date(), second, first, match["year"])
    if month_first is None or day_first is None:
        return None
    written = text[index[match.start("a")] : index[match.end() - 1] + 1]
    return written, month_first, day_first


def _numeric_date(match: re.Match[str], today: date, lang: str) -> date | None:
    first, second = int(match["a"]), int(match["b"])
    if lang != "pt" and first != second and first <= 12 and second <= 12:
        return None  # "12/3" from an English speaker: Dec 3 or 12 March; ask, never guess
    day, month = (first, second) if lang == "pt" else (second, first)
    if month > 12 >= day:
        day, month = month, day
    return _dated(today, month, day, match["year"])


def _dated(today: date, month: int, day: int, year_text: str | None) -> date | None:
    """An explicit date; without a year, this year if not past or only recently past (the
    customer means the date that has passed: it is refused as past, not moved a year), else
    next year."""
    if year_text is not None:
        year = int(year_text)
        return _safe_date(year + 2000 if year < 100 else year, month, day)
    for year in (today.year, today.year + 1):
        candidate = _safe_date(year, month, day)
        if candidate is not None and candidate >= today - RECENT_PAST:
            return candidate
    return None


def _day_of_month(today: date, day: int) -> date | None:
    """``dia N``: this month if not past (and it exists), else next month, else ``None``."""
    this_month = _safe_date(today.year, today.month, day)
    if this_month is not None and this_month >= today:
        return this_month
    year, month = (today.year + 1, 1) if today.month == 12 else (today.year, today.month + 1)
    return _safe_date(year, month, day)


def _safe_date(year: int, month: int, day: int) -> date | None:
    try:
        return date(year, month, day)
    except ValueError:
        return None
