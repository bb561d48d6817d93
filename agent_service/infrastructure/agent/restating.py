"""What a pending action proposes, as a yes may say it back (the rule is
``application/consent_policy.read_restating``): its own day, time and names, checked against
the customer's words by the date grammar and the fact reader alike, and the words of the
conversation's language data a day, a time or an appointment is said in (only its own: "o"
is an article in Portuguese and an "or" in Spanish)."""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from datetime import datetime
from decimal import Decimal

from agent_service.application.consent_policy import Restatement, visible
from agent_service.application.fact_spans import Fact, Kind, Value
from agent_service.application.relations import name_words
from agent_service.application.text import fold_with_map, normalize
from agent_service.infrastructure.agent.deps import AgentDeps, PendingAction
from agent_service.infrastructure.agent.statement_words import statement_rules
from agent_service.infrastructure.language.grammar.vocabulary import alternation, number_words
from agent_service.infrastructure.language.grammar.when import parse_when, two_readings
from agent_service.infrastructure.language.packs import word_list
from agent_service.infrastructure.language.rules import (
    RELATIVE_DAYS,
    fact_reader,
    language_rules,
)


def restatement(deps: AgentDeps, stored: PendingAction, message: str) -> Restatement:
    """What ``stored`` proposes, as ``message`` may say it back (``consent_policy``): whether
    every day, time and name ``message`` names is the proposal's (the date grammar and the
    fact reader alike); the message with those days and times blanked out (what is left must
    be only the phrases and numbers allowed); the phrases it may use (the proposal's names,
    whole or their first word, and the conversation language's words for days, times and an
    appointment, never a part of the day); and the bare numbers (its hour and minute)."""
    target = stored.details.get("new_start") or stored.details.get("start") or ""
    try:
        instant = datetime.fromisoformat(target)
    except ValueError:
        instant = None
    if instant is None or instant.tzinfo is None:  # no instant to say back: nothing restates
        return Restatement(False, frozenset(), frozenset())
    zone = deps.tenant.zone
    local = instant.astimezone(zone)
    today = deps.turn.now.astimezone(zone)
    codes = language_rules().in_play(deps.turn.language)
    names = [name_words(stored.details.get(key, "")) for key in ("service", "professional")]
    own = codes[:1] if deps.turn.language in codes[:1] else ()  # its words in its own sense
    phrases = _restating_phrases(own) | {n for name in names for n in (name, name[:1]) if n}
    phrases |= _quantifiers(own, _items(stored))
    # "com o professor Carlos", "with Dr. Costa": a title said before a word of the proposal's
    # own professional's name (``[consent].titles``); a title alone or before another name no
    titled = [(word,) for word in names[1]] + ([names[1]] if names[1] else [])
    phrases |= {(t, *name) for t in _titles(own) for name in titled}
    clock = (local.hour, local.hour % 12 or 12, local.minute)  # "14", "2pm", "30"
    numbers = frozenset(str(n) for n in clock)
    message = visible(message)  # what the answer's reading sees: no joiner hides a word
    if _conditional(message, own) or _not_one_day(message, today, codes):
        return Restatement(False, frozenset(), frozenset())
    when = parse_when(message, today)
    if when.at is not None:  # "6 da tarde" is 18:00 as the date grammar read it: checked
        message = _without_hour_parts(message, codes)
    agrees = (
        when.day in (None, local.date())
        and when.at in (None, local.time().replace(second=0, microsecond=0))
        and when.window is None
        and _parts_of_day(codes).search(normalize(message)) is None
    )
    said = {
        (Kind.TIME, local.hour * 60 + local.minute),
        (Kind.DATE, (local.month, local.day)),
        (Kind.WEEKDAY, local.weekday()),
        (Kind.DATETIME, (local.month, local.day, local.hour * 60 + local.minute)),
        *((Kind.NAME, word) for name in names for word in name),
        *((Kind.NUMBER, Decimal(n)) for n in numbers),
    }
    blanked, timed = message, False
    facts = fact_reader(codes, deps.tenant.time_zone, (), today.date()).facts(message)
    if sum(fact.kind is Kind.DATE for fact in facts) > 1 or _after_connector(message, facts, own):
        agrees = False  # a day said twice ("mañana de mañana": in the morning) is no restatement
    for fact in facts:
        values = _clock_read(fact, own)
        if not said.intersection(values):
            agrees = False
        elif fact.kind in _BLANKED or values is not fact.values:
            blanked = blanked[: fact.start] + " " * (fact.end - fact.start) + blanked[fact.end :]
            timed = timed or fact.kind in (Kind.TIME, Kind.DATETIME)
    # A bare number is the time only when the date grammar read one and no clock said it; so
    # is the hour's number word ("a las tres está bien": no clock fact reads "tres" there).
    hours = {local.hour, local.hour % 12 or 12}
    words = {w for hour in hours for w in number_words(hour, hour) if len(w) > 2}
    bare = numbers | words if when.at is not None and not timed else frozenset()
    return Restatement(agrees, frozenset(phrases), bare, blanked)


def _clock_read(fact: Fact, codes: tuple[str, ...]) -> tuple[Value, ...]:
    """``fact``'s readings, and a whole hour said with a clock unit of ``codes``
    (``[times].clock_hours``: "onze horas", "3 horas") also as that time of day, the
    afternoon's too ("3 horas" is 03:00 or 15:00): a yes saying a proposal back says its hour
    so. Any other fact as it was read."""
    hours = [v for kind, v in fact.values if kind is Kind.DURATION and isinstance(v, int)]
    unit = _WORD.findall(normalize(fact.text))[-1:] if fact.kind is Kind.DURATION else []
    if not hours or not unit or unit[0] not in _clock_units(codes):
        return fact.values
    whole = [h // 60 for h in hours if h % 60 == 0 and 1 <= h // 60 <= 23]
    times = [(Kind.TIME, h * 60) for h in whole] + [
        (Kind.TIME, (h + 12) * 60) for h in whole if h < 12
    ]
    return (*fact.values, *times) if times else fact.values


@functools.cache
def _clock_units(codes: tuple[str, ...]) -> frozenset[str]:
    return frozenset(w for code in codes for w in word_list(code, "times", "clock_hours"))


def _without_hour_parts(message: str, codes: tuple[str, ...]) -> str:
    """``message`` with a part of the day that follows an hour blanked ("sexta às 6 da tarde",
    "a las tres de la tarde"): the date grammar read it with the hour (18:00, 15:00), so the
    time it says is checked; a part of the day said alone still is no restatement."""
    folded, index = fold_with_map(message)
    for m in reversed(list(_hour_parts(codes).finditer(folded))):
        start, end = index[m.start("part")], index[m.end("part") - 1] + 1
        message = message[:start] + " " * (end - start) + message[end:]
    return message


@functools.cache
def _hour_parts(codes: tuple[str, ...]) -> re.Pattern[str]:
    parts = [p for c in codes for key in _PART_AFTER for p in word_list(c, "times", key)]
    # an hour of the twelve a part of the day decides ("6 da tarde"), never a clock's own
    # ("14:00 à tarde": which part it is no reader checks)
    words = [
        w for c in codes for entry in word_list(c, "numbers", "cardinals")
        for w, _, n in [entry.rpartition(" ")] if 1 <= int(n) <= 12
    ]  # fmt: skip
    hour = rf"1[0-2]|0?[1-9]|{alternation(words)}"
    return re.compile(rf"(?<![\w])(?:{hour})\s+(?P<part>{alternation(parts)})(?![\w])")


def _not_one_day(message: str, today: datetime, codes: tuple[str, ...]) -> bool:
    """Whether ``message`` says no one day the proposal could be: a weekday of every week ("sí,
    los sábados a las 13": the customer asks for each one), or a date written so that it reads
    two ways ("12/1" in a month-first language: the date grammar asks, never guesses)."""
    return statement_rules(codes).recurs(message) or two_readings(message, today) is not None


def _after_connector(message: str, facts: Sequence[Fact], codes: tuple[str, ...]) -> bool:
    """Whether a date the fact reader read comes right after a word that may make it a part of
    the day or another day's ("de mañana": in the morning; "la mañana"): ``[dates]``
    ``month_connectors`` and ``not_relative_after``."""
    connectors = _connectors(codes)
    for fact in facts:
        if fact.kind is Kind.DATE:
            before = _WORD.findall(normalize(message[: fact.start]))
            if before and before[-1] in connectors:
                return True
    return False


def _conditional(message: str, codes: tuple[str, ...]) -> bool:
    """Whether ``message`` spells a yes word that may be an "if" (``[consent]``
    ``conditional_spellings``: Spanish "si" without its accent), as written, not folded."""
    return not _conditional_spellings(codes).isdisjoint(_WORD.findall(message.lower()))


@functools.cache
def _conditional_spellings(codes: tuple[str, ...]) -> frozenset[str]:
    return frozenset(w for c in codes for w in word_list(c, "consent", "conditional_spellings"))


@functools.cache
def _connectors(codes: tuple[str, ...]) -> frozenset[str]:
    return frozenset(w for c in codes for key in _CONNECTORS for w in word_list(c, "dates", key))


_CONNECTORS = ("month_connectors", "not_relative_after")
_BLANKED = frozenset({Kind.TIME, Kind.DATE, Kind.DATETIME, Kind.WEEKDAY})
"""The facts a message says the proposal's day and time with: blanked out once they agree
(a date's or a weekday's words, "01/12", "terça", need no phrase of their own)."""


def _items(stored: PendingAction) -> int:
    """How many appointments ``stored`` proposes: a visit's services ("A + B"), or the
    appointments a cancellation names."""
    ids = stored.details.get("appointment_ids", "")
    if ids:
        return len(ids.split(","))
    return stored.details.get("service", "").count(" + ") + 1


@functools.cache
def _quantifiers(codes: tuple[str, ...], items: int) -> frozenset[tuple[str, ...]]:
    """The words a yes may say a proposal of several appointments back with: all of them
    (``[appointments].all_words``), both of two (``both_words``), and their number after an
    all-of word (``all_of``: "os três", "all three"): "sim, os dois" to a visit of two
    services, "yes, all three" to a cancellation of three; none for one."""
    if items < 2:
        return frozenset()
    keys = ("all_words", "both_words") if items == 2 else ("all_words",)
    words = [w for c in codes for k in keys for w in word_list(c, "appointments", k)]
    # their number after an all-of word ("os três", "all three", "todas las cuatro")
    leads = [lead for c in codes for lead in word_list(c, "appointments", "all_of")]
    words += [f"{lead} {n}" for lead in leads for n in number_words(items, items)]
    return frozenset(tuple(_WORD.findall(w)) for w in words)


@functools.cache
@functools.cache
def _titles(codes: tuple[str, ...]) -> frozenset[str]:
    return frozenset(normalize(t) for code in codes for t in word_list(code, "consent", "titles"))


def _restating_phrases(codes: tuple[str, ...]) -> frozenset[tuple[str, ...]]:
    """The phrases (word tuples) a yes may say a proposal back with, in ``codes``:
    ``[consent].restating``, the relative days, and the phrases around a day or a time — but
    none naming a part of the day ("esta noche", "à tarde", Spanish "mañana", which is also
    the morning: another time than the proposal's maybe, which no reader checks; a relative
    day the fact reader reads as the proposal's is blanked, it needs no phrase)."""
    phrases: list[str] = []
    parts: set[str] = set()
    for code in codes:
        phrases += word_list(code, "consent", "restating")
        phrases += [w for key in _DAY_KEYS for w in word_list(code, "dates", key)]
        phrases += [w for key in _TIME_KEYS for w in word_list(code, "times", key)]
        parts |= {p.split()[-1] for key in _PARTS for p in word_list(code, "parts", key)}
    found = {tuple(_WORD.findall(phrase)) for phrase in phrases}
    return frozenset(p for p in found if parts.isdisjoint(p))


@functools.cache
def _parts_of_day(codes: tuple[str, ...]) -> re.Pattern[str]:
    """A part of the day named in any of ``codes`` ("à tarde", "tonight", "esta noche",
    "por la mañana"): no reader checks it against the proposal's time, so an answer naming
    one is no restatement."""
    phrases = set()
    for code in codes:
        phrases |= {p for key in _PARTS for p in word_list(code, "parts", key)}
        phrases |= {p for key in _PART_AFTER for p in word_list(code, "times", key)}
    nouns = {p.split()[-1] for p in phrases}
    for code in codes:  # "esta noche", "this evening": a relative day with a part of it
        days = (w for key, _ in RELATIVE_DAYS for w in word_list(code, "dates", key))
        phrases |= {p for p in days if " " in p and nouns.intersection(p.split())}
    return re.compile(rf"(?<![\w])(?:{alternation(phrases)})(?![\w])")


_PART_AFTER = ("morning_after", "afternoon_after", "evening_after")
_DAY_KEYS = (*(key for key, _ in RELATIVE_DAYS), "weekday_this", "weekday_suffixes",
             "month_connectors", "day_before")  # fmt: skip
_TIME_KEYS = ("markers", "word_markers", "hour_marks", "hour_words")
_PARTS = ("morning", "afternoon", "evening")
_WORD = re.compile(r"[^\W\d_]+")
