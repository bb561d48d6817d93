# Over 300 lines: the time-of-day rules of a language compile together, one pattern each.
"""Times of day in customer messages, one compiled rule set per spoken language.

* A number is a time only when marked: a ``[times].markers`` word before it ("às", "at", "a
  las"), an hour mark after it (``hour_marks``: "h"; ``hour_words`` — "horas" — only with a
  marker or a period, never before a ``per_period`` rate: "umas 4 horas por noite" is an
  amount of time), ``:MM``, am/pm, a half (``half_after``: "e meia", "y media") or a period
  (``morning_after``/``afternoon_after``/``evening_after``: "da tarde", "de la noche"). Not
  after a ``[dates].day_before`` word ("dia 5"), nor before a ``[numbers].count_nouns`` word.
* ``[times].noon``/``midnight`` are 12:00 and 00:00; a half after them adds 30 minutes.
* Fractions (``half``/``quarter`` + ``past``/``to``: "half past two", British "half four").
* Hours in words count only next to a clock mark (:func:`clock_digits`): after a
  ``word_markers`` word, or before minutes ("dez e quinze"; ``minus``: "las 5 menos cuarto"
  is 4:45), a period, am/pm or ``oclock``.
* An hour (in words or digits) and then its minutes with no word between, in a language that
  says them so (``connectorless_minutes``: "nine thirty", "2 forty-five pm"), is that clock
  time, never before a minute or hour unit ("nine fifteen minutes").
* Business hours: 1..7 with no am/pm and no period, not written with a leading zero, is
  afternoon ("às 3" -> 15:00); so is 1..11 when the message has a ``pm_context`` phrase
  ("tonight", "à tarde", "por la noche") and no am/pm.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from datetime import time, timedelta

from agent_service.infrastructure.language.grammar.vocabulary import (
    BOUND_AFTER,
    BOUND_BEFORE,
    Vocabulary,
    alternation,
    bounded,
    union,
    vocabularies,
)


@dataclass(frozen=True)
class TimeGrammar:
    """The time rules of one language."""

    vocabulary: Vocabulary
    time: re.Pattern[str]
    named: re.Pattern[str]
    fraction: re.Pattern[str] | None
    word_hour: re.Pattern[str] | None
    word_minutes: re.Pattern[str] | None
    minus_minutes: re.Pattern[str] | None
    bare_minutes: re.Pattern[str] | None
    shift: tuple[re.Pattern[str], ...]
    ahead: tuple[re.Pattern[str], ...]
    clock_words: dict[str, int]
    minute_words: dict[str, int]
    hour_marks: frozenset[str]


def _clock_words(v: Vocabulary) -> dict[str, int]:
    return {w: n for w, n in v.values("numbers", "cardinals").items() if 1 <= n <= 12}


@functools.cache
def time_grammar(v: Vocabulary) -> TimeGrammar:
    t = functools.partial(v.alt, "times")
    marks = (*v.words("times", "hour_marks"), *v.words("times", "hour_words"))
    period = (
        rf"(?:(?P<p_morning>{t('morning_after')})|(?P<p_afternoon>{t('afternoon_after')})"
        rf"|(?P<p_evening>{t('evening_after')}))"
    )
    pattern = re.compile(
        rf"(?P<prefix>(?:{BOUND_BEFORE}(?:{t('markers')})|@)\s*)?"
        r"(?<![\d/:.,$])\b(?P<h>\d{1,2})(?![\d/])"
        rf"(?:(?P<colon>:(?P<cm>\d{{2}}))|\s?(?P<hmark>{alternation(marks)})(?![a-z])"
        r"(?:\s?(?P<hm>\d{2})\b)?)?"
        rf"(?P<half>\s+(?:{t('half_after')}){BOUND_AFTER})?"
        r"(?:\s?(?P<ampm>[ap])\.?m\b\.?)?"
        rf"(?P<period>\s+{period}{BOUND_AFTER})?"
    )
    named = bounded(
        rf"(?:(?P<noon>{t('noon')})|(?P<midnight>{t('midnight')}))"
        rf"(?P<half>\s+(?:{t('half_after')}))?"
    )
    clock = _clock_words(v)
    minutes = dict(v.values("numbers", "minute_words"))
    return TimeGrammar(
        vocabulary=v,
        time=pattern,
        named=named,
        fraction=_fraction(v, clock),
        word_hour=_word_hour(v, clock, minutes, period),
        word_minutes=_word_minutes(v, minutes, "minute_connector"),
        minus_minutes=_word_minutes(v, minutes, "minus"),
        bare_minutes=_bare_minutes(v, clock),
        shift=_shift(v),
        ahead=_ahead(v),
        clock_words=clock,
        minute_words={**minutes, **v.values("times", "connectorless_minutes")},
        hour_marks=frozenset(v.words("times", "hour_marks")),
    )


def _fraction(v: Vocabulary, clock: dict[str, int]) -> re.Pattern[str] | None:
    if not v.words("times", "half") and not v.words("times", "quarter"):
        return None
    t = functools.partial(v.alt, "times")
    return re.compile(
        rf"{BOUND_BEFORE}(?:(?P<halfword>{t('half')})|{t('quarter')})\s+"
        rf"(?:(?:(?P<past>{t('past')})|(?P<to>{t('to')}))\s+)?"
        rf"(?P<word>\d{{1,2}}|{alternation(clock)}){BOUND_AFTER}"
        r"(?!\s*(?:hours?|hrs?|h\b|:))(?:\s?(?P<ampm>[ap])\.?m\b\.?)?"
    )


def _word_hour(
    v: Vocabulary, clock: dict[str, int], minutes: dict[str, int], period: str
) -> re.Pattern[str] | None:
    if not clock:
        return None
    t = functools.partial(v.alt, "times")
    words = alternation(clock)
    after = [rf"\s+(?:(?:{t('hour_words')})\s+)?{period.replace('?P<', '?P<w')}", r"\s?[ap]\.?m\b"]
    if v.words("times", "oclock"):
        after.append(rf"\s+(?:{t('oclock')})")
    if minutes or v.words("times", "half_after"):
        after.append(
            rf"\s+(?:{t('minute_connector')}|{t('minus')})\s+(?:{alternation(minutes)})\b"
            rf"|\s+(?:{t('half_after')})"
        )
    return re.compile(
        rf"(?:(?P<before>{BOUND_BEFORE}(?:{t('word_markers')})\s+)(?P<w1>{words}){BOUND_AFTER}"
        rf"(?!\s+(?:{t('not_hour_after')}){BOUND_AFTER})"
        rf"|{BOUND_BEFORE}(?P<w2>{words})(?={'|'.join(after)}))"
    )


def _bare_minutes(v: Vocabulary, clock: dict[str, int]) -> re.Pattern[str] | None:
    """An hour and then its minutes with no word between ("nine thirty", "ten fifteen",
    "2 forty-five"): ``[times].connectorless_minutes``, never before a unit ("nine fifteen
    minutes" is no time)."""
    minutes = v.values("times", "connectorless_minutes")
    if not minutes:
        return None
    units = alternation([*v.words("times", "minute_units"), *v.words("times", "hour_words")])
    hours = rf"(?:{alternation(clock)}|\d{{1,2}})"
    return re.compile(
        rf"{BOUND_BEFORE}(?P<h>{hours})[\s-]+(?P<m>{alternation(minutes)}){BOUND_AFTER}"
        rf"(?!\s+(?:{units}){BOUND_AFTER})"
    )


def _word_minutes(v: Vocabulary, minutes: dict[str, int], connector: str) -> re.Pattern[str] | None:
    if not minutes or not v.words("times", connector):
        return None
    t = functools.partial(v.alt, "times")
    return re.compile(
        rf"\b(?P<h>\d{{1,2}})\s+(?:{t(connector)})\s+(?P<m>{alternation(minutes)}){BOUND_AFTER}"
        rf"(?!\s+(?:{t('minute_connector')}){BOUND_AFTER})"
    )


def _shift(v: Vocabulary) -> tuple[re.Pattern[str], ...]:
    """ "1 hora mais tarde", "dois dias depois" (an amount of hours, minutes, days or weeks,
    then later or earlier), "adiantar ... em 1 hora", "push it back a day" (a later or earlier
    verb, then the amount within six words), and "o dia seguinte", "the previous day" (one day
    later or earlier, never "the day before yesterday": a relative day after it is a date)."""
    t = functools.partial(v.alt, "times")
    d = functools.partial(v.alt, "dates")
    amounts = alternation([*v.values("numbers", "cardinals"), *v.words("numbers", "one")])
    units = (
        rf"(?:(?P<hours>{t('hour_units')})|(?P<days>{d('day_units')})"
        rf"|(?P<weeks>{d('week_units')})|{t('minute_units')})"
    )
    connector = alternation([*v.words("times", "minute_connector"), "and"])
    minute_words = alternation(dict(v.values("numbers", "minute_words"))) or "(?!)"
    amount = (
        rf"(?P<n>\d{{1,3}}|(?P<half>{t('half_amount')})|{amounts})\s*{units}"
        rf"(?:(?P<and_half>\s+(?:{t('and_a_half')}){BOUND_AFTER})"
        rf"|\s+(?:(?:{connector})\s+)?(?P<plus>\d{{1,2}}|{minute_words})(?:\s*(?:{t('minute_units')}))?{BOUND_AFTER})?"
    )
    verbs = rf"(?:(?P<later>{t('later_verbs')})|{t('earlier_verbs')})"
    after = rf"(?:(?P<later>{t('later')})|{t('earlier')})"
    relative = alternation([*union("dates", "tomorrow"), *union("dates", "yesterday")])
    return (
        re.compile(rf"{BOUND_BEFORE}{amount}\s+{after}{BOUND_AFTER}"),
        re.compile(rf"{BOUND_BEFORE}{verbs}(?:\s+[^\s\d]+){{0,6}}?\s+{amount}{BOUND_AFTER}"),
        re.compile(
            rf"{BOUND_BEFORE}(?:(?P<later>{d('next_day')})|{d('previous_day')}){BOUND_AFTER}"
            rf"(?!\s+(?:{relative}){BOUND_AFTER})"
        ),
    )


def _ahead(v: Vocabulary) -> tuple[re.Pattern[str], ...]:
    """ "daqui a 3 horas", "in half an hour", "dentro de 90 minutos", "2 hours from now": a
    moment counted from now (``[dates].ahead_prefix``/``from_now`` around an amount of hours or
    minutes). A one-letter unit never counts ("em 15h" is a time of day)."""
    t = functools.partial(v.alt, "times")
    d = functools.partial(v.alt, "dates")
    amounts = alternation([*v.values("numbers", "cardinals"), *v.words("numbers", "one")])
    hours = alternation([unit for unit in v.words("times", "hour_units") if len(unit) > 1])
    units = rf"(?:(?P<hours>{hours})|{t('minute_units')})"
    amount = (
        rf"(?P<n>\d{{1,3}}|(?P<half>{t('half_amount')})|{amounts})\s*{units}"
        rf"(?P<more>\s+(?:{t('and_a_half')}))?"
    )
    return (
        re.compile(rf"{BOUND_BEFORE}(?:{d('ahead_prefix')})\s+{amount}{BOUND_AFTER}"),
        re.compile(rf"{BOUND_BEFORE}{amount}\s+(?:{d('from_now')}){BOUND_AFTER}"),
    )


def ahead_of(folded: str, grammars: tuple[TimeGrammar, ...]) -> tuple[re.Match[str], int] | None:
    """The first "in N hours/minutes" of ``folded`` and its minutes from now."""
    for grammar in grammars:
        match = next((m for p in grammar.ahead if (m := p.search(folded))), None)
        if match is None:
            continue
        if match["half"]:
            return (match, 30) if match["hours"] else None
        amount = match["n"]
        cardinals = grammar.vocabulary.values("numbers", "cardinals")
        count = int(amount) if amount.isdigit() else cardinals.get(amount, 1)
        minutes = count * (60 if match["hours"] else 1) + (
            30 if match["hours"] and match["more"] else 0
        )
        return (match, minutes) if minutes >= AHEAD_MINUTES else None
    return None


AHEAD_MINUTES = 30
"""A moment sooner than this is no booking's ("I'll let you know in a minute", "chego em 10
minutos")."""


def clock_digits(folded: str, grammars: tuple[TimeGrammar, ...]) -> str:
    """``folded`` with clock times said in words written in digits ("às duas e quinze" ->
    "as 2:15", "a las cinco menos cuarto" -> "a las 4:45"); other number words stay."""
    text = folded
    for grammar in grammars:
        if grammar.bare_minutes is not None:
            text = grammar.bare_minutes.sub(functools.partial(_bare, grammar), text)
        if grammar.word_hour is not None:
            text = grammar.word_hour.sub(functools.partial(_hour, grammar.clock_words), text)
        if grammar.word_minutes is not None:
            text = grammar.word_minutes.sub(functools.partial(_plus, grammar.minute_words), text)
        if grammar.minus_minutes is not None:
            text = grammar.minus_minutes.sub(functools.partial(_minus, grammar.minute_words), text)
    return text


def _hour(words: dict[str, int], match: re.Match[str]) -> str:
    return (match["before"] or "") + str(words[match["w1"] or match["w2"]])


def _bare(grammar: TimeGrammar, match: re.Match[str]) -> str:
    hour = match["h"]
    hour = str(grammar.clock_words[hour]) if hour in grammar.clock_words else hour
    return f"{hour}:{grammar.minute_words[match['m']]:02d}"


def _plus(minutes: dict[str, int], match: re.Match[str]) -> str:
    return f"{match['h']}:{minutes[match['m']]:02d}"


def _minus(minutes: dict[str, int], match: re.Match[str]) -> str:
    return f"{(int(match['h']) - 1) % 24}:{60 - minutes[match['m']]:02d}"


@functools.cache
def _count_noun() -> re.Pattern[str]:
    return re.compile(rf"\s*(?:%|{alternation(union('numbers', 'count_nouns'))}){BOUND_AFTER}")


@functools.cache
def _approximate() -> re.Pattern[str]:
    """Some time past the hour ("às 3 e pouco", "at 3 something", "las tres y pico mañana"),
    unless the words go on as an idiom of ``[times].approximate_idioms`` ("às 10 e tanto faz
    com quem", "a las 10 y tanto Ana como Bruno": 10 is the time)."""
    idioms = alternation(union("times", "approximate_idioms"))
    go_on = rf"(?!\s+(?:{idioms}){BOUND_AFTER})" if idioms else ""
    return re.compile(
        rf"\s*(?:{alternation(union('times', 'approximate_after'))}){BOUND_AFTER}{go_on}"
    )


@functools.cache
def _per_period() -> re.Pattern[str]:
    """After an hour with its unit, a rate or a run ("4 horas por noite", "8 hours a day", "6
    horas seguidas"): an amount of time, no time of day."""
    return re.compile(rf"\s*(?:{alternation(union('times', 'per_period'))}){BOUND_AFTER}")


@functools.cache
def _day_word_before() -> re.Pattern[str]:
    return re.compile(rf"{BOUND_BEFORE}(?:{alternation(union('dates', 'day_before'))})\s+$")


@functools.cache
def _pm_context() -> re.Pattern[str]:
    return bounded(alternation(union("times", "pm_context")))


def followed_by_count(folded: str, end: int) -> bool:
    return _count_noun().match(folded, end) is not None


def find_time(folded: str, grammars: tuple[TimeGrammar, ...]) -> re.Match[str] | None:
    """The earliest marked time mention of any language (named times included)."""
    candidates: list[re.Match[str]] = []
    for grammar in grammars:
        for match in grammar.time.finditer(folded):
            if _is_marked(match, folded, grammar):
                candidates.append(match)
                break
        for pattern in (grammar.named, grammar.fraction):
            found = pattern.search(folded) if pattern is not None else None
            if found is not None:
                candidates.append(found)
    return min(candidates, key=lambda m: m.start(), default=None)


def _is_marked(match: re.Match[str], folded: str, grammar: TimeGrammar) -> bool:
    if _day_word_before().search(folded, 0, match.start("h")) and not match["prefix"]:
        return False
    if _approximate().match(folded, match.end()):  # "às 3 e pouco": some time past 3
        return False
    if (
        match["hmark"]
        and match["hmark"] not in grammar.hour_marks
        and _per_period().match(folded, match.end())
    ):  # "umas 4 horas por noite": an amount of time
        return False
    if match["colon"] or match["ampm"] or match["period"] or match["half"]:
        return True
    if match["hmark"] and match["hmark"] in grammar.hour_marks:
        return True
    if not match["prefix"]:
        return False
    return not followed_by_count(folded, match.end())


def resolve_time(match: re.Match[str] | None, folded: str) -> time | None:
    if match is None:
        return None
    groups = match.re.groupindex
    if "word" in groups:
        return _fraction_time(match, folded)
    if "noon" in groups:
        return time(0 if match["midnight"] else 12, 30 if match["half"] else 0)
    minute = int(match["cm"] or match["hm"] or (30 if match["half"] else 0))
    hour = _hour_24(match)
    if hour is None or not 0 <= hour <= 23 or not 0 <= minute <= 59:
        return None
    at = time(hour, minute)
    return at if match["ampm"] or match["period"] else pm_context(at, folded)


def pm_context(at: time | None, folded: str) -> time | None:
    """A morning-looking hour said with "tonight"/"à tarde"/"por la noche" is afternoon."""
    if at is None or not 1 <= at.hour <= 11 or _pm_context().search(folded) is None:
        return at
    return at.replace(hour=at.hour + 12)


def business_hour(hour: int, written: str) -> int:
    """1..7 without am/pm or a period, not written with a leading zero, is afternoon."""
    return hour + 12 if 1 <= hour <= 7 and not written.startswith("0") else hour


def _hour_24(match: re.Match[str]) -> int | None:
    raw = match["h"]
    hour = int(raw)
    if match["ampm"]:
        if not 1 <= hour <= 12:
            return None
        return hour % 12 + (12 if match["ampm"] == "p" else 0)
    if match["period"]:
        if match["p_afternoon"] or match["p_evening"]:
            return hour + 12 if hour < 12 else hour
        return 0 if hour == 12 else hour
    return business_hour(hour, raw)


def _fraction_time(match: re.Match[str], folded: str) -> time | None:
    """``half past two`` 14:30, ``quarter to 11`` 10:45 (business hours without am/pm)."""
    word = match["word"]
    hour = int(word) if word.isdigit() else _all_clock_words().get(word, 0)
    if not 1 <= hour <= 12:
        return None
    if not (match["past"] or match["to"]) and not match["halfword"]:
        return None  # "quarter four" is nothing; "half four" is 4:30
    minute = 30 if match["halfword"] else 15
    if match["to"]:
        hour, minute = (hour - 1) or 12, 60 - minute
    if match["ampm"]:
        return time(hour % 12 + (12 if match["ampm"] == "p" else 0), minute)
    at = time(business_hour(hour, word), minute)
    return at if at.hour >= 12 else pm_context(at, folded)


@functools.cache
def _all_clock_words() -> dict[str, int]:
    return {w: n for v in vocabularies() for w, n in _clock_words(v).items()}


def says_next_or_previous_day(folded: str, grammars: tuple[TimeGrammar, ...]) -> bool:
    """Whether the shift ``folded`` says is the next or the previous day with no amount ("the
    day after", "o dia seguinte"), not "1 day after"."""
    for grammar in grammars:
        *amounts, day = grammar.shift
        if any(p.search(folded) for p in amounts):
            return False
        if day.search(folded):
            return True
    return False


def shift_of(folded: str, grammars: tuple[TimeGrammar, ...]) -> timedelta | None:
    """ "1 hora mais tarde", "adiantar em 1 hora", "push it back an hour", "o dia seguinte":
    how far to move."""
    found = [
        (grammar, match)
        for grammar in grammars
        if (match := next((m for p in grammar.shift if (m := p.search(folded))), None))
    ]
    if not found:
        return None
    # the longest reading of any language ("atrasar 2 horas e meia" is Portuguese's whole,
    # Spanish reads only "atrasar 2 horas")
    grammar, match = max(found, key=lambda gm: gm[1].end() - gm[1].start())
    amount = match.groupdict().get("n")
    if amount is None:  # the next or the previous day
        return timedelta(days=1 if match["later"] else -1)
    unit = 60 if match["hours"] else 1440 if match["days"] else 10080 if match["weeks"] else 1
    if match["half"]:
        minutes = 30 if match["hours"] else 0  # "meia hora"; half a day is no move
    else:
        count = int(amount) if amount.isdigit() else grammar.clock_words.get(amount, 1)
        minutes = count * unit + (_past_the_hour(match, grammar) if match["hours"] else 0)
    return timedelta(minutes=minutes if match["later"] else -minutes) if minutes else None


def _past_the_hour(match: re.Match[str], grammar: TimeGrammar) -> int:
    """The minutes after a move's hours: "1 hora e meia" 30, "1 hora e 15" 15, "una hora y
    treinta" 30."""
    if match["and_half"]:
        return 30
    said = match["plus"] or ""
    return int(said) if said.isdigit() else grammar.minute_words.get(said, 0)
