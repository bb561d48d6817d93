"""What a reply may state in a turn that changed nothing: an allowlist, never a list of claims.

In a turn with no write receipt and no proposal — whatever the specialist, whatever the
language — the model's words cannot make a change true, so each **statement** sentence (one
that does not ask) must be one of:

1. **courtesy**: after removing its names, the language's courtesy, politeness and filler
   words, what the assistant says of itself (what it can do, that it did not understand), the
   yes/no words (unless the customer asked something and the reply is that word alone: then
   it answers the question), emoji and punctuation, nothing is left ("Obrigado, Ana! Até
   mais.", "Claro!");
2. **told from this turn's tools**: it has a fact span a tool result of this turn grounds, or
   a clause a tool of this turn returned word for word (``Grounding.told_this_turn``) — an
   FAQ answer, a listing, the customer's appointments as the tool read them.

A lead-in ("Nossos serviços:", a line ending with ":") is judged with the line it introduces,
a list marker ("1.") with its item.

And a sentence that **names one of the customer's appointments** (two or more of its names,
dates and times are those of one appointment record of the customer) must tell that record:
every name, date and time of the sentence is that appointment's (no other professional,
service, day or time), and every other word is the record's own, a courtesy word or a word of
the language's ``appointment_frame`` (you have, your, is, at, with ...). A state the record
does not have ("awaiting payment", "no longer on the books", in any words) is not in the
frame, so it is refused without being listed anywhere.

Anything else is refused; the caller renders the system's reply instead (``truth.py``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from agent_service.application.fact_spans import Fact, FactReader, Kind, name_parts
from agent_service.application.grounding import Grounding, question_sentences, sentences
from agent_service.application.text import normalize

APPOINTMENT_KINDS = frozenset({Kind.NAME, Kind.DATE, Kind.TIME, Kind.DATETIME, Kind.WEEKDAY})
_WORDS = re.compile(r"[^\W\d_]+(?:'[^\W\d_]+)*")


@dataclass(frozen=True, slots=True)
class StatementRules:
    """``courtesy(sentence, answers)``: whether nothing is left after removing courtesy words
    (yes/no words too when ``answers``); ``frame``: the folded words a sentence naming the
    customer's appointment may use beside the record's own."""

    courtesy: Callable[[str, bool], bool]
    frame: frozenset[str]


@dataclass(frozen=True, slots=True)
class _Record:
    text: str
    facts: tuple[Fact, ...]
    words: frozenset[str]


class Statements:
    """Judges the statement sentences of a no-change turn's reply (see the module's rules)."""

    def __init__(
        self,
        grounding: Grounding,
        reader: FactReader,
        rules: StatementRules,
        appointments: Sequence[str],
        customer_asked: bool,
    ) -> None:
        self._grounding = grounding
        self._reader = reader
        self._rules = rules
        self._asked = customer_asked
        self._records = [_record(reader, line) for line in appointments]

    def refused(self, text: str) -> list[str]:
        """The statement sentences of ``text`` that may not be sent, in order."""
        parts = units(text)
        asked = {p for p in parts if question_sentences(p)}
        # A yes word is an answer when it is all the reply says to a question of the customer.
        answers = not self._asked or sum(1 for p in parts if p.strip()) > 1
        found = []
        for index, sentence in enumerate(parts):
            if sentence in asked or not sentence.strip():
                continue
            follows = parts[index + 1] if index + 1 < len(parts) else ""
            leads = sentence.rstrip().endswith(":") and follows and follows not in asked
            unit = f"{sentence.rstrip()} {follows}" if leads else sentence
            if not self._allowed(unit, answers):
                found.append(sentence)
        return found

    def _allowed(self, sentence: str, answers: bool) -> bool:
        if self._rules.courtesy(_without_names(self._reader, sentence), answers):
            return True
        if not self._grounding.told_this_turn(sentence):
            return False
        return self._tells_appointment_as_recorded(sentence)

    def _tells_appointment_as_recorded(self, sentence: str) -> bool:
        facts = [f for f in self._reader.facts(sentence) if f.kind in APPOINTMENT_KINDS]
        named = [r for r in self._records if sum(_in(f, r) for f in facts) >= 2]
        if not named:
            return True  # names no appointment of the customer
        return any(self._as_recorded(sentence, facts, record) for record in named)

    def _as_recorded(self, sentence: str, facts: list[Fact], record: _Record) -> bool:
        if not all(_in(f, record) for f in facts):
            return False  # another professional, service, day or time than the record's
        rest = sentence
        for fact in sorted(facts, key=lambda f: -f.start):
            rest = rest[: fact.start] + " " + rest[fact.end :]
        words = _WORDS.findall(normalize(rest))
        allowed = record.words | self._rules.frame
        left = " ".join(w for w in words if w not in allowed)
        return not left or self._rules.courtesy(left, False)


def units(text: str) -> list[str]:
    """The sentences of ``text``, a list marker with no letters ("1.", "2)") joined to the
    next one: the units a statement is judged in (their concatenation is ``text``)."""
    found: list[str] = []
    carried = ""
    for part in sentences(text):
        if not _WORDS.search(part):
            carried += part
            continue
        found.append(carried + part)
        carried = ""
    if carried:
        found.append(carried)
    return found


def _without_names(reader: FactReader, sentence: str) -> str:
    """``sentence`` without its names ("Obrigado, Ana!" is courtesy; whether "Ana" is a
    name anything grounds is the grounding check's)."""
    for fact in sorted(reader.facts(sentence), key=lambda f: -f.start):
        if fact.kind is Kind.NAME:
            sentence = sentence[: fact.start] + " " + sentence[fact.end :]
    return sentence


def _record(reader: FactReader, line: str) -> _Record:
    folded = normalize(line)
    return _Record(folded, tuple(reader.facts(line)), frozenset(_WORDS.findall(folded)))


def _in(fact: Fact, record: _Record) -> bool:
    """Whether ``fact`` is one of the record's (a name by its words, others by reading)."""
    if fact.kind is Kind.NAME:
        return all(part in record.words for part in name_parts(fact.values[0][1]))
    if fact.kind is Kind.WEEKDAY:
        return any(f.kind is Kind.WEEKDAY and f.values == fact.values for f in record.facts)
    said = set(fact.values)
    return any(said & set(other.values) for other in record.facts)
