# Over 300 lines: one judge of a reply's facts; every kind of fact and its sources together.
"""Grounded replies: every fact-like span of a model's text must come from somewhere true.

Rules (pure; spans are recognised by ``fact_spans``):

* **Records** are what the business's systems said: this conversation's tool results as the
  model saw them (an FAQ answer only from a ``search_faq`` of *this* turn), the tenant's
  catalog (names, aliases, prices, durations), the turn's context (business, date, the
  customer's own appointments and the pending action).
* Money, percentages, times, durations and counts state the business's prices and calendar:
  only records ground them. Inside a question ("às 15h?") the customer's own words ground them
  too — asking back is not stating (a time a question offers must also be free in this
  turn's results, or the customer's own: ``statements``). A count ("3 horários", "two
  stylists") is grounded by a record that counts as many: a list of that many in a
  structured result (a professional's free times, one day's or the whole result's added up,
  the professionals, the services, the customer's appointments) or the same count in a
  record's words; in a result of several days, one day's count only in a sentence that names
  a day ("A Ana tem 11 horários." is refused when 11 is Tuesday's of a result of Tuesday and
  Wednesday).
* A date is a calendar fact: it is grounded when it falls in the booking window (today to
  the booking horizon) or a record has it, and a weekday named next to it (within a few
  characters) must be that date's weekday ("terça, 09/12" is refused when the 9th is a
  Wednesday). A weekday alone states nothing checkable.
* An id (UUID) is grounded only by the very same id in a record or the customer's words;
  a made-up one is not sent.
* Phones, e-mails, links, other numbers and capitalised names are grounded by records or by
  the customer's own words (their phone, their name, a professional they named); a record's
  number is one it states bare, never a part of its dates, times, phones or links ("4" is no
  number of "2026-12-04") nor a price, a percentage or a length ("55" is no number of "R$
  55,00").
* A capitalised word that is a common word of a spoken language (its data files and the
  system's own sentences) is no name.

* What a statement may be in a turn that changed nothing (courtesy, or told from this turn's
  tools, and the customer's appointments only as recorded) is ``statements``'s rule;
  :meth:`Grounding.told_this_turn` is its "told from this turn's tools".

A span is grounded when one of its readings is (``12/01`` as 12 January or December 12); an
ISO date-time needs its date and time together. Fails closed: no sources, nothing grounded.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import cast

from agent_service.application.fact_spans import (
    ONE_DAY,
    Fact,
    FactReader,
    Kind,
    Value,
    amount_of,
    field_counts,
    field_durations,
    name_parts,
    values_of,
)
from agent_service.application.text import normalize

RECORDS_ONLY = frozenset(
    {Kind.MONEY, Kind.PERCENT, Kind.TIME, Kind.DATETIME, Kind.DURATION, Kind.COUNT}
)
NEXT_TO = 14  # how many characters apart a weekday and a date are one ("terça, 01/12")
_SENTENCE = re.compile(r"(?:[^.!?…\n]|(?<=\d)\.(?=\d))*(?:[.!?…]+|\n|$)")
_CLAUSE = re.compile(r"[^.!?…;:\n]+")
_UUID = re.compile(r"\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b", re.I)
_DIGITS = re.compile(r"\d+(?:[.,]\d+)*")
_WORDS = re.compile(r"[^\W\d_]+")
MIN_QUOTED = 12
"""A reply clause of at least this many letters found word for word in a tool result of this
turn tells what the tool returned."""
MAX_SOURCE_CHARS = 20_000
"""Each source text is read up to this many characters (a 10 MB tool argument echoed in a
retry costs nothing)."""


@dataclass
class _Pool:
    values: set[Value] = field(default_factory=set)
    words: set[str] = field(default_factory=set)
    ids: set[str] = field(default_factory=set)
    _texts: list[str] = field(default_factory=list)
    _word_runs: list[str] = field(default_factory=list)

    def add(self, reader: FactReader, texts: Iterable[str]) -> None:
        for raw in texts:
            values, words, folded, word_run = _contribution(reader, raw[:MAX_SOURCE_CHARS])
            self.values |= values
            self.words |= words
            self._texts.append(folded)
            self._word_runs.append(word_run)
            self.ids |= {m.lower() for m in _UUID.findall(raw[:MAX_SOURCE_CHARS])}
        self.__dict__.pop("text", None)  # joined again when next read
        self.__dict__.pop("words_text", None)

    @functools.cached_property
    def text(self) -> str:
        """Every source's folded text, a line each (joined once, not grown text by text)."""
        return "".join("\n" + text for text in self._texts)

    @functools.cached_property
    def words_text(self) -> str:
        """Every source's words, space-separated, a line each."""
        return "".join("\n" + run for run in self._word_runs)

    def grounds(self, fact: Fact, dated: bool = False) -> bool:
        """Whether a record holds ``fact``; ``dated``: its sentence names a day (a count may
        then be that one day's)."""
        if fact.kind is Kind.DATETIME:
            return fact.values[0] in self.values
        return any(self._reading(value, dated) for value in fact.values)

    def _reading(self, value: Value, dated: bool) -> bool:
        kind, said = value
        if value in self.values:
            return True
        if kind is Kind.COUNT and dated:
            return (kind, (*cast(tuple[str, int], said), ONE_DAY)) in self.values
        if kind in (Kind.URL, Kind.EMAIL):
            return str(said) in self.text
        return False


@functools.lru_cache(maxsize=1024)  # tool results repeat turn after turn (kept history)
def _contribution(
    reader: FactReader, raw: str
) -> tuple[frozenset[Value], frozenset[str], str, str]:
    """What one source text grounds: its facts' readings and numbers, its words, its folded
    text and its words space-separated."""
    text = _UUID.sub(" ", raw)
    facts = reader.facts(text)
    values = set(values_of(facts))
    values |= {(Kind.NUMBER, amount_of(m.group())) for m in _standalone_numbers(text, facts)}
    values |= field_durations(text)
    values |= field_counts(text)
    folded = normalize(text)
    words = _WORDS.findall(folded)
    return frozenset(values), frozenset(words), folded, " ".join(words)


_COMPOSITE = frozenset(
    {Kind.URL, Kind.EMAIL, Kind.DATETIME, Kind.DATE, Kind.TIME, Kind.PHONE, Kind.MONEY,
     Kind.PERCENT, Kind.DURATION}
)  # fmt: skip
"""Facts whose numbers are of another kind: their parts ("04" of "2026-12-04", "10" of
"10:30") and amounts (the 55 of "R$ 55,00", the 30 of "30 min") are no bare number a record
states ("say 55?" is no price)."""


def _standalone_numbers(text: str, facts: Sequence[Fact]) -> Iterable[re.Match[str]]:
    """The numbers of a source text that are not a part of a date, time, phone or link."""
    parts = [(fact.start, fact.end) for fact in facts if fact.kind in _COMPOSITE]
    for m in _DIGITS.finditer(text):
        if not any(start <= m.start() < end for start, end in parts):
            yield m


@dataclass(frozen=True, slots=True)
class Ungrounded:
    """A span nothing grounds: its kind and the text as the model wrote it."""

    kind: Kind
    text: str


class Grounding:
    """Judges a model's text against ``records`` and the ``customer``'s words (see rules);
    ``window`` is the booking window (first and last day) dates are read in."""

    def __init__(
        self,
        reader: FactReader,
        records: Sequence[str],
        customer: Sequence[str],
        common_words: frozenset[str] = frozenset(),
        window: tuple[date, date] | None = None,
        this_turn: Sequence[str] = (),
    ) -> None:
        self._reader = reader
        self._window = window
        self._this_turn = _Pool()
        self._this_turn.add(reader, this_turn)
        self._records = _Pool()
        self._records.add(reader, records)
        self._customer = _Pool()
        self._customer.add(reader, customer)
        self._common = common_words

    def ungrounded(self, text: str) -> list[Ungrounded]:
        """The spans of ``text`` that nothing grounds, in order."""
        found = [Ungrounded(Kind.NUMBER, m) for m in self._unknown_ids(text)]
        text = _UUID.sub(lambda m: " " * len(m.group()), text)
        questions = _question_spans(text)
        facts = self._reader.facts(text)
        dated_counts = _with_a_day(text, facts)
        for fact in facts:
            if fact.kind is Kind.NAME:
                if not self._unknown_name(fact):
                    continue
                found.append(Ungrounded(fact.kind, fact.text))
                continue
            dated = self._dated(fact, facts, text) if fact.kind is Kind.DATE else None
            if dated is False:
                found.append(Ungrounded(fact.kind, fact.text))  # "quarta, dia 1": no such day
                continue
            if fact.kind is Kind.WEEKDAY or dated:
                continue
            if self._records.grounds(fact, fact.start in dated_counts):
                continue
            asked = any(start <= fact.start < end for start, end in questions)
            if (fact.kind not in RECORDS_ONLY or asked) and self._customer.grounds(fact):
                continue
            found.append(Ungrounded(fact.kind, fact.text))
        return found

    def _unknown_ids(self, text: str) -> list[str]:
        """The ids (UUIDs) of ``text`` that no record and no word of the customer has."""
        known = self._records.ids | self._customer.ids
        return [m for m in _UUID.findall(text) if m.lower() not in known]

    def told_this_turn(self, text: str) -> bool:
        """Whether ``text`` tells something a tool returned in this turn: one of its ids, a
        fact span this turn's tool results ground, or a clause a tool returned word for word."""
        if any(m.lower() in self._this_turn.ids for m in _UUID.findall(text)):
            return True
        if any(self._quoted(clause) for clause in _CLAUSE.findall(text)):
            return True
        facts = self._reader.facts(text)
        dated_counts = _with_a_day(text, facts)
        return any(self._backed(fact, fact.start in dated_counts) for fact in facts)

    def _quoted(self, clause: str) -> bool:
        """A clause a tool of this turn returned, word for word (e.g. the calendar's
        localized "try again later")."""
        words = " ".join(_WORDS.findall(normalize(clause)))
        return len(words) >= MIN_QUOTED and words in self._this_turn.words_text

    def _backed(self, fact: Fact, dated: bool) -> bool:
        if fact.kind is Kind.NAME:
            return all(part in self._this_turn.words for part in name_parts(fact.values[0][1]))
        return self._this_turn.grounds(fact, dated)

    def heard(self, fact: Fact) -> bool:
        """Whether the customer's own words hold ``fact`` (a time asked back)."""
        return self._customer.grounds(fact)

    def common_word(self, fact: Fact) -> bool:
        """Whether a name's every part is a common word of the languages ("Cheque", "Tarifa
        Free": capitalised words, not someone's name, even when the customer said them)."""
        return all(part in self._common for part in name_parts(fact.values[0][1]))

    def _unknown_name(self, fact: Fact) -> bool:
        known = self._common | self._records.words | self._customer.words
        return any(part not in known for part in name_parts(fact.values[0][1]))

    def _apposed(self, text: str, fact: Fact, other: Fact) -> bool:
        """Two dates said as one ("amanhã (01/12)", "amanhã, dia 1"): only punctuation and the
        language's word for a day between them, never "e"/"ou"/"and" (two days)."""
        gap = normalize(text[min(fact.end, other.end) : max(fact.start, other.start)])
        return _apposed(self._reader.day_words).fullmatch(gap) is not None

    def _dated(self, fact: Fact, facts: Sequence[Fact], text: str) -> bool | None:
        """A date in the booking window whose neighbouring weekday and relative day, if any,
        agree (True); one a neighbour contradicts (False: no record makes it so, "quarta, dia
        1" when the 1st is a Tuesday); else None (not in the window: the records may hold it)."""
        if self._window is None:
            return None
        first, last = self._window
        days: list[date] = []
        for kind, reading in fact.values:
            if kind is not Kind.DATE:
                continue
            month, number = cast(tuple[int, int], reading)
            for year in (first.year, first.year + 1):
                day = _day(year, month, number)
                if day is not None and first <= day <= last:
                    days.append(day)
        near = [other for other in facts if _next_to(fact, other)]
        named = {other.values[0][1] for other in near if other.kind is Kind.WEEKDAY}
        # a relative day beside a date is the same day ("amanhã (01/12)"), never another
        relative = self._reader.relative(fact)
        told = {
            cast(tuple[int, int], reading)
            for other in near
            if other.kind is Kind.DATE
            and self._reader.relative(other) != relative
            and self._apposed(text, fact, other)
            for kind, reading in other.values
        }
        if not days:
            return None
        return any(
            (not named or day.weekday() in named) and (not told or (day.month, day.day) in told)
            for day in days
        )


_DAYS = frozenset({Kind.DATE, Kind.DATETIME, Kind.WEEKDAY})


def _with_a_day(text: str, facts: Sequence[Fact]) -> set[int]:
    """Where the counts of ``text`` start whose sentence names a day ("11 horários na terça")."""
    counts = [fact.start for fact in facts if fact.kind is Kind.COUNT]
    if not counts:
        return set()
    days = [fact.start for fact in facts if fact.kind in _DAYS]
    spans = [(m.start(), m.end()) for m in _SENTENCE.finditer(text)]
    return {
        start
        for start in counts
        if any(a <= start < b and any(a <= day < b for day in days) for a, b in spans)
    }


@functools.lru_cache(maxsize=16)
def _apposed(day_words: tuple[str, ...]) -> re.Pattern[str]:
    """Punctuation and the languages' words for a day, nothing else."""
    words = "|".join(re.escape(w) for w in sorted(day_words, key=len, reverse=True))
    word = rf"|\b(?:{words})\b" if words else ""
    return re.compile(rf"(?:[\s,;:()\[\]\-\u2013\u2014]{word})*")


def _next_to(fact: Fact, other: Fact) -> bool:
    return 0 <= fact.start - other.end <= NEXT_TO or 0 <= other.start - fact.end <= NEXT_TO


def _day(year: int, month: int, number: int) -> date | None:
    try:
        return date(year, month, number)
    except ValueError:
        return None


def _asks(sentence: str) -> bool:  # a "¿" ended as a statement states: "¿Ana está de baja."
    return (t := sentence.strip()).endswith("?") or (t[:1] == "¿" and not t.endswith((".", "!")))


def _question_spans(text: str) -> list[tuple[int, int]]:
    return [(m.start(), m.end()) for m in _SENTENCE.finditer(text) if _asks(m.group())]


def sentences(text: str) -> list[str]:
    """The sentences of ``text``, in order: up to a ".", "!", "?", "…" (not 40.00's) or "\\n"."""
    return [m.group() for m in _SENTENCE.finditer(text) if m.group()]


def question_sentences(text: str) -> list[str]:
    """The sentences of ``text`` that ask something (``_asks``)."""
    return [text[start:end] for start, end in _question_spans(text) if text[start:end].strip()]


_ASKING_CLAUSE = re.compile(r"(?:(?<!\d)[,;]|[,;](?!\d)|\s[–—-]\s)(?:[^,;]|(?<=\d)[,;](?=\d))*$")


def without_asking(text: str) -> str:
    """``text`` with what its questions ask removed: a question asks in its last clause, and
    what comes before it is stated ("Cancelei o horário de quinta, ok?" states a cancellation;
    "Para quinta, às 10h?" states nothing)."""
    kept = []
    for match in _SENTENCE.finditer(text):
        sentence = match.group()
        if not _asks(sentence):
            kept.append(sentence)
            continue
        asking = _ASKING_CLAUSE.search(sentence.rstrip())
        kept.append(f"{sentence.rstrip()[: asking.start()]}." if asking else "")
    return "".join(kept).strip()


TAG_WORDS = 2
"""A question's last clause of at most this many words after a comma is a tag ("ok?",
"certo?", "right?", "¿vale?"): the sentence before it states."""


def stated_head(question: str) -> str:
    """What a question sentence states before it asks: the text before a "¿" that opens its
    question mid-sentence ("Ana no trabaja los martes, ¿te sirve el miércoles?"), or before a
    tag ("Ana não trabalha terça, certo?"); "" when it only asks."""
    text = question.strip()
    opening = text.find("¿")
    if opening > 0 and _WORDS.search(text[:opening]):
        return text[:opening].rstrip(" ,;")
    asking = _ASKING_CLAUSE.search(text)
    tail = text[asking.start() :].split() if asking else []
    tag = [word for word in tail if any(char.isalnum() for char in word)]
    if asking and len(tag) <= TAG_WORDS:
        return text[: asking.start()].strip()
    return ""


def without_questions(text: str) -> str:
    """``text`` with every question sentence removed (another question may not compete with
    the system's confirmation question)."""
    kept = [m.group() for m in _SENTENCE.finditer(text) if not _asks(m.group())]
    return re.sub(r"[ \t]+\n", "\n", "".join(kept)).strip()
