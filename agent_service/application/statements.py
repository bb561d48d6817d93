# Over 300 lines: the no-change statement rules and their one judge, read together.
"""What a reply may state in a turn that changed nothing: an allowlist, never a list of claims.

In a turn with no write receipt and no proposal — whatever the specialist, whatever the
language — the model's words cannot make a change true, so each **statement** sentence (one
that does not ask) must be one of:

1. **courtesy**: after removing its names, the language's courtesy, politeness and filler
   words, what the assistant says of itself (what it can do, that it did not understand), the
   yes/no words (unless the customer asked something and the reply is that word alone: then
   it answers the question), emoji and punctuation, nothing is left ("Obrigado, Ana! Até
   mais.", "Claro!");
2. **told from the tools**: it has a fact span a tool result of this turn grounds, or a
   clause a tool of this turn returned word for word (``Grounding.told_this_turn``) — an FAQ
   answer, a listing, the customer's appointments as the tool read them — and beside its
   facts it has only words of this turn's tool results (their values, not their notes), of
   the language's ``listing_frame`` and ``appointment_frame`` (words that present a result:
   "Horários livres com", "Our services", "does not do") or courtesy: a grounded name does
   not carry a state no tool told ("Bruno asked to push it back"), and facts it says
   together are told together — one item of a result holds them (``relations``: not "O
   Corte custa R$ 40,00" when R$ 40,00 is the Barba's price); or it is, character
   for character (spaces aside), part of a ``told`` text: a tool's return of this turn or one
   of its text values (a short FAQ answer: "No pets."), or a sentence the system renders for
   a structured result the conversation holds (a refusal's reason, who offers a service, that
   the customer has no appointment: ``outcome_text``). The caller only ever passes texts
   that are true now, so such a sentence is told as it stands (a listing read in this turn
   is the customer's appointments as recorded).

A lead-in ("Nossos serviços:", a line ending with ":") is judged with the line it introduces,
a list marker ("1.") with its item.

And a sentence that **names one of the customer's appointments** (two or more of its names,
dates and times are those of one appointment record of the customer) must tell that record:
every name, date and time of the sentence is that appointment's (no other professional,
service, day or time), and every other word is the record's own, a courtesy word or a word of
the language's ``appointment_frame`` (you have, your, is, at, with ...). A state the record
does not have ("awaiting payment", "no longer on the books", in any words) is not in the
frame, so it is refused without being listed anywhere.

A sentence with a word of the language's ``denials`` ("não", "not", "no", courtesy phrases
aside) says what is *not* so (or that nothing else is: "apenas", "only"), and no tool's fact
grounds an absence: it passes only as courtesy or as a whole sentence of the tool's or the
system's own words, never a part of one (3 above: "Ana não tem horário livre em
04/12" is the system's sentence for a day with none free). "Amanhã a Ana não tem nenhum
horário livre" after a result listing her free times tomorrow is refused whatever its words.

A question states too when it asks only at its end: what comes before a "¿" that opens its
question mid-sentence, or before a tag of at most two words after a comma ("Ana não trabalha
terça, certo?"), is judged as a statement, and the whole question is refused with it; so is
what follows a frame that makes a question carry a statement (``[truth].question_frames``:
"Você sabia que o estacionamento agora é pago?", "Quer marcar, sabendo que a Ana está de
licença?"). And every question, alone or after a statement, asks only: beside its facts (which
the grounding check judges) it uses words of asking (``StatementRules.asking`` and its stems:
who asks whom, wanting and choosing, what the tools do, whether a choice suits, the small words
a question is made of), words of this turn's tool results, the tenant's service and
professional names, or courtesy, and no denial. A question's presupposition is a statement too
("Quer pagar a taxa extra do Pix agora?" says there is one): the words that would carry it are
in no such list, so it is refused in any wording. One's appointments are asked about only by
one who has one (``asking_own``, the frame's state words, "your appointment": ``your``), and a
question's names, prices and lengths are paired as the catalog and this turn's results pair
them (``Relations.pairs``). A time a question says is a time it offers as free, whatever its
wording ("Quer marcar com a Ana na terça às 10h?", "Would Tuesday at 10am with Ana suit
you?"): when a result of this turn tells times, the time is held by an item with the names and
the day it is said with, as a statement's facts are (``Relations.pairs``: not by the
customer's own appointment, another day or another professional); when none does, it is a
time the customer said, asked back (no record makes it free: not their appointment's time,
not an earlier turn's listing). The day and time of one's own appointment, named in a
question about it ("Quer remarcar o seu horário de terça às 10h?"), offer nothing; where it
would go does ("para quinta às 11h"). A yes or no answering the customer's question is no
courtesy: no tool backs it (``bare_answers``: left out, the rest may go).

Anything else is refused; the caller renders the system's reply instead (``truth.py``).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from agent_service.application.fact_spans import Fact, FactReader, Kind, name_parts
from agent_service.application.grounding import (
    Grounding,
    question_sentences,
    sentences,
    stated_head,
)
from agent_service.application.relations import OFFERED_KINDS, Relations
from agent_service.application.text import fold_with_map, normalize

_ENDS = " .!…"
APPOINTMENT_KINDS = frozenset({Kind.NAME, Kind.DATE, Kind.TIME, Kind.DATETIME, Kind.WEEKDAY})
OWN_DAY_KINDS = APPOINTMENT_KINDS - {Kind.NAME}
"""The facts that say when one's appointment is (a question naming it offers no time)."""
_WORDS = re.compile(r"[^\W\d_]+(?:'[^\W\d_]+)*")
_DIGITS = re.compile(r"\d")


@dataclass(frozen=True, slots=True)
class StatementRules:
    """``courtesy(sentence, answers)``: whether nothing is left after removing courtesy words
    (yes/no words too when ``answers``); ``frame``: the folded words a sentence naming the
    customer's appointment may use beside the record's own."""

    courtesy: Callable[[str, bool], bool]
    frame: frozenset[str]
    listing: frozenset[str] = frozenset()
    """The folded words a statement told from this turn's tools may use to present them, the
    one-word courtesy included ("Obrigado, fica na Rua ...")."""
    phrases: tuple[str, ...] = ()
    """The folded courtesy phrases of more than one word, longest first: one is removed whole
    ("De nada, fica na Rua ..."), its words alone are nothing ("não entendi" is courtesy, its
    "não" beside a fact is not)."""
    denials: frozenset[str] = frozenset()
    """The folded words that deny ("não", "not", "ninguno"): a sentence with one, courtesy
    phrases aside, is told only in a tool's or the system's own words."""
    ranges: Callable[[str], bool] = lambda sentence: False
    """Whether a sentence names a window of times ("das 9h às 18h"): a claim about every time
    inside it, which no result item holds; told only in the system's own words too."""
    undated: Callable[[str], str] = normalize
    """The sentence folded with the conversation language's day mentions blanked: a word one
    holds is part of the day, no denial ("no sábado" in Portuguese is "on Saturday")."""
    frames: tuple[str, ...] = ()
    """The folded phrases after which a question states ("você sabia que", "did you know")."""
    asking: frozenset[str] = frozenset()
    """The folded words a question may use besides what this turn's tools told and the words
    ``heard`` (``Statements``): the system's own questions' words and the language's asking
    words."""
    asking_stems: tuple[str, ...] = ()
    """Every word starting with one of these asks too ("verific": "verifique", "verificar")."""
    your: frozenset[str] = frozenset()
    """Second-person possessives: one followed, within two words, by one of ``bookings``
    presupposes an appointment ("your appointment", "seu horário", "tu cita")."""
    bookings: frozenset[str] = frozenset()
    asking_own: tuple[str, ...] = ()
    """The stems of words that ask about one's own appointments ("remarc", "cancel"): with the
    appointment frame, a question may use them only to a customer who has one."""
    recalls: tuple[str, ...] = ()
    """The folded phrases that recall a visit before now ("última vez", "again"): asked only
    of a customer who has an appointment, like ``your``."""
    to_words: frozenset[str] = frozenset()
    """The folded words before a move's new day or time ("para", "to"): a fact they lead is
    where an appointment would go, not the appointment."""
    consent_heads: tuple[str, ...] = ()
    """The folded openings of the system's confirmation questions ("confirma o cancelamento de",
    "shall i book"): a question opening so and naming an appointment asks for a consent only
    the system asks (a pending action's question); the model's own is not sent."""
    outcomes: tuple[str, ...] = ()
    """The folded words that state an outcome ("cancelei", "booked"): in a turn that changed
    nothing, a question saying one states it ("I cancelled your appointment?")."""
    clauses: tuple[str, ...] = ()
    """The folded words that open a clause stating inside a question, after a comma ("que",
    "which", "porque"): the clause is judged as a statement."""
    the: frozenset[str] = frozenset()
    """Definite articles and demonstratives: one followed, within two words, by one of
    ``booked`` presupposes an appointment as "your" does ("la cita de mañana", "that
    booking")."""
    booked: frozenset[str] = frozenset()
    recurs: Callable[[str], bool] = lambda sentence: False
    """Whether a sentence says a weekday of every week ("on Tuesdays", "às terças", "los
    martes"): with times, a habit no day's result tells, told only in the tools' or the
    system's own words."""
    no_marks: tuple[str, ...] = ()
    """The no emoji of the languages ("❌", "🚫"): a sentence with one denies as a denial
    word does ("Ana ❌ amanhã", "Estacionamento 🚫")."""
    yes_marks: tuple[str, ...] = ()
    """The yes emoji of the languages ("✅", "👍"): beside an appointment's facts it says the
    appointment is done ("Ana Souza, amanhã 10:00 ✅")."""
    first_of: frozenset[str] = frozenset()
    """Frame words that say an appointment is the first of the customer's by start ("next",
    "próxima"): a sentence with one names the first, never another."""
    last_of: frozenset[str] = frozenset()
    """The same for the last ("last", "último")."""
    meets: Callable[[str], bool] = lambda sentence: False
    """Whether a sentence says the customer will be met ("see you", "nos vemos", "te
    esperamos"): beside a day or a time it presents an appointment as made."""
    free_frame: frozenset[str] = frozenset()
    """The folded words that say someone is free at a time ("pode", "opening", "hueco"): a
    statement may use them only beside a time its professional's and day's item holds."""
    earliest: tuple[str, ...] = ()
    """The folded phrases that say a time is the first free one ("primeiro", "earliest", "más
    temprano"): a statement with one is told only of the first time of the item it names."""
    _phrase: re.Pattern[str] | None = field(init=False, default=None, repr=False, compare=False)
    _earliest: re.Pattern[str] | None = field(init=False, default=None, repr=False, compare=False)
    _frame: re.Pattern[str] | None = field(init=False, default=None, repr=False, compare=False)
    _clause: re.Pattern[str] | None = field(init=False, default=None, repr=False, compare=False)
    _recall: re.Pattern[str] | None = field(init=False, default=None, repr=False, compare=False)
    _outcome: re.Pattern[str] | None = field(init=False, default=None, repr=False, compare=False)
    _asks: Callable[[str], bool] = field(init=False, default=bool, repr=False, compare=False)
    _asks_own: Callable[[str], bool] = field(init=False, default=bool, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_phrase", _bounded(self.phrases))
        object.__setattr__(self, "_frame", _bounded(self.frames))
        object.__setattr__(self, "_recall", _bounded(self.recalls))
        object.__setattr__(self, "_outcome", _bounded(self.outcomes))
        object.__setattr__(self, "_earliest", _bounded(self.earliest))
        if self.clauses:
            openers = "|".join(re.escape(c) for c in sorted(self.clauses, key=len, reverse=True))
            clause = re.compile(rf",\s*(?:{openers})(?!\w)[^,?]*")
            object.__setattr__(self, "_clause", clause)
        # Words about one's appointments ask only of a customer who has one: the own stems
        # (the system's "Quer remarcar ...?" too) and the appointment frame's words that are
        # no asking word ("agendamento", "booked", "reserva"), whatever stem they start with.
        stem = _words_or_stems(self.asking, self.asking_stems)
        own = _words_or_stems(self.frame - self.asking, self.asking_own)
        object.__setattr__(self, "_asks", lambda word: stem(word) and not own(word))
        object.__setattr__(self, "_asks_own", _words_or_stems(self.frame, self.asking_own))

    def asks_consent_or_outcome(self, question: str, facts: int) -> bool:
        """Whether ``question`` (folded) states an outcome, or opens as the system's
        confirmation question and names an appointment (two ``facts`` or more)."""
        if self._outcome is not None and self._outcome.search(question):
            return True
        opening = question.lstrip(" ¿¡")
        return facts >= 2 and any(opening.startswith(head) for head in self.consent_heads)

    def about_own(self, words: Sequence[str]) -> bool:
        """Whether ``words`` ask about one's own appointment (see ``asking_own``)."""
        return self.says_yours(words) or any(self._asks_own(w) and not self._asks(w) for w in words)

    def destined(self, question: str, fact: Fact) -> bool:
        """Whether ``fact`` of ``question`` is led by a to-word within two words ("para
        quinta", "to Friday"): where an appointment would go."""
        return not self.to_words.isdisjoint(_WORDS.findall(normalize(question[: fact.start]))[-2:])

    def says_yours(self, words: Sequence[str]) -> bool:
        """Whether ``words`` say "your appointment" (see ``your``) or recall a visit before now
        (``recalls``)."""
        if self._recall is not None and self._recall.search(" ".join(words)):
            return True
        return _leads(words, self.your, self.bookings)

    def says_the_booking(self, words: Sequence[str]) -> bool:
        """Whether ``words`` say "the appointment" (see ``the``)."""
        return _leads(words, self.the, self.booked)

    def asks(self, word: str, own: bool) -> bool:
        """Whether a question may use the folded ``word`` to ask; ``own``: the customer has
        appointments to ask about."""
        return self._asks(word) or (own and self._asks_own(word))

    def without_phrases(self, folded: str) -> str:
        """``folded`` without its courtesy phrases."""
        return self._phrase.sub(" ", folded) if self._phrase else folded

    def says_earliest(self, sentence: str) -> bool:
        """Whether ``sentence`` says a time is the first free one ("O primeiro horário ...")."""
        return bool(self._earliest and self._earliest.search(normalize(sentence)))

    def without_earliest(self, folded: str) -> str:
        """``folded`` without its phrases of ``earliest``."""
        return self._earliest.sub(" ", folded) if self._earliest else folded

    def framed(self, question: str) -> str:
        """What ``question`` states after its last frame phrase ("Você sabia que o
        estacionamento é pago?": "o estacionamento é pago"), as written; "" with none."""
        if self._frame is None:
            return ""
        folded, index = fold_with_map(question)
        ends = [m.end() for m in self._frame.finditer(folded)]
        if not ends or ends[-1] >= len(folded):
            return ""
        return question[index[ends[-1]] :].strip(" ?¿,")

    def stated_clauses(self, question: str) -> list[str]:
        """The clauses of ``question`` that state, as written: after a comma, from a word of
        ``clauses`` to the next comma or the end ("Quer marcar com a Ana, que é a mais
        procurada?": "que é a mais procurada")."""
        if self._clause is None:
            return []
        folded, index = fold_with_map(question)
        found = []
        for match in self._clause.finditer(folded):
            start, end = index[match.start()], index[match.end() - 1] + 1
            found.append(question[start:end].lstrip(", ").rstrip(" ?"))
        return [part for part in found if part]

    def denies(self, sentence: str) -> bool:
        """Whether ``sentence`` has a denial word outside its courtesy phrases, or a no
        emoji."""
        if any(mark in sentence for mark in self.no_marks):
            return True
        if self.denials.isdisjoint(_WORDS.findall(normalize(sentence))):
            return False  # no denial word at all: no day mention to read (a hot path)
        words = _WORDS.findall(self.without_phrases(self.undated(sentence)))
        return not self.denials.isdisjoint(words)


def _leads(words: Sequence[str], leading: frozenset[str], nouns: frozenset[str]) -> bool:
    """Whether a word of ``leading`` stands within two words before one of ``nouns``."""
    return any(
        w in leading and not nouns.isdisjoint(words[i + 1 : i + 3]) for i, w in enumerate(words)
    )


def _blanked(text: str, facts: Iterable[Fact]) -> str:
    """``text`` with ``facts`` (spans of it) blanked."""
    for fact in sorted(facts, key=lambda f: -f.start):
        text = text[: fact.start] + " " + text[fact.end :]
    return text


def _words_or_stems(words: frozenset[str], stems: Sequence[str]) -> Callable[[str], bool]:
    """Whether a word is one of ``words`` or starts with one of ``stems``."""
    starts = tuple(stems)
    return lambda word: word in words or word.startswith(starts)


def _bounded(phrases: Sequence[str]) -> re.Pattern[str] | None:
    """One word-bounded pattern for ``phrases`` (folded), longest first; None for none."""
    ordered = sorted(phrases, key=len, reverse=True)
    alternatives = "|".join(re.escape(p) for p in ordered)
    return re.compile(rf"(?<!\w)(?:{alternatives})(?!\w)") if alternatives else None


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
        told: Sequence[str] = (),
        told_words: frozenset[str] = frozenset(),
        relations: Relations | None = None,
        *,
        told_words_of: Callable[[], frozenset[str]] | None = None,
        relations_of: Callable[[], Relations | None] | None = None,
        heard: frozenset[str] = frozenset(),
        pairs_of: Callable[[], Relations | None] | None = None,
        open_days: frozenset[int] | None = None,
        whole: Sequence[str] = (),
        earliest_of: Callable[[], Relations | None] | None = None,
    ) -> None:
        """``heard``: folded words a question may use as said to it (the tenant's names);
        ``pairs_of``: the relations a question's names, prices and lengths must keep (this
        turn's results and the catalog's), built on the first question; ``open_days``: the
        weekdays (Monday 0) someone works, a question offers no other; ``earliest_of``: the
        relations of this turn's results with each day's free times cut to its first (a
        statement saying a time is the first free one is bound by them). ``told_words_of`` and
        ``relations_of``, when given, build ``told_words`` and ``relations`` on the first
        sentence that reaches them (most replies are courtesy or a tool's words as they are:
        they never do)."""
        self._grounding = grounding
        self._reader = reader
        self._rules = rules
        self._asked = customer_asked
        self._heard = heard
        self._pairs_of = pairs_of
        self._open_days = open_days
        self._pairs: Relations | None = None
        self._records = [_record(reader, line) for line in appointments]
        self._told = "\n".join(squashed(t) for t in told)
        self._told_texts = tuple(told)
        self._told_sentences: set[str] | None = None  # read by denials and ranges only
        self._told_words_of = told_words_of
        self._told_words: frozenset[str] | None = None if told_words_of else told_words
        self._reply_timed = False  # set by ``refused`` for the reply it reads
        # texts told only whole (the salon's FAQ answers): a sentence of one says it only
        # beside its other sentences (the next one may be its condition)
        self._whole = [sentences_of(squashed(t)) for t in whole]
        self._relations_of = relations_of
        self._relations = relations
        self._earliest_of = earliest_of
        self._earliest: Relations | None = None

    def refused(self, text: str) -> list[str]:
        """The statement sentences of ``text`` that may not be sent, in order."""
        parts = units(text)
        # "Ana tem amanhã às 10h. Nos vemos!": a meeting said beside a day or time anywhere in
        # the reply is at that day or time
        self._reply_timed = any(self._timed(part) for part in parts)
        asked = {p for p in parts if question_sentences(p)}
        # A yes word answers the customer's question, whatever else the reply says.
        answers = not self._asked
        found = []
        for index, sentence in enumerate(parts):
            if sentence in asked:
                head = stated_head(sentence)  # "Ana no trabaja los martes, ¿te sirve...?"
                if head and self._rules.courtesy(sentence.strip()[len(head) :], False):
                    head = ""  # a courtesy tail asks with it: "Qual o seu nome, por favor?"
                framed = self._rules.framed(sentence)  # "você sabia que X?" states X
                clauses = self._rules.stated_clauses(sentence)  # "..., que é a melhor?"
                if any(
                    part and not self._allowed(part, answers) for part in (head, framed, *clauses)
                ) or not self._asks_only(_asking_part(sentence, head, clauses)):
                    found.append(sentence)  # what it states, or how it asks, is refused
                continue
            if not sentence.strip():
                continue
            follows = parts[index + 1] if index + 1 < len(parts) else ""
            leads = sentence.rstrip().endswith(":") and follows and follows not in asked
            unit = f"{sentence.rstrip()} {follows}" if leads else sentence
            if not self._allowed(unit, answers):
                found.append(sentence)
        return found + self._cut_from_whole(parts, found)

    def _cut_from_whole(self, parts: Sequence[str], refused: Sequence[str]) -> list[str]:
        """The sentences of a text told only whole that the reply says without the others
        ("Atendemos crianças." of "Atendemos crianças. A partir de 5 anos.")."""
        said = {squashed(p).rstrip(_ENDS): p for p in parts if p not in refused}
        cut = []
        for whole in self._whole:
            present = [said[s] for s in whole if s in said]
            if present and len(present) < len(whole):
                cut += present
        return cut

    def bare_answers(self, refused: Sequence[str]) -> list[str]:
        """The ``refused`` sentences that are only a yes or no (and courtesy) answering the
        customer's question: no tool backs the answer, so it is left out, and the rest of the
        reply may go as it is ("Sim! Aceitamos Pix, ..." to "aceitam cheque?")."""
        return [u for u in refused if self._rules.courtesy(_without_names(self._reader, u), True)]

    def _allowed(self, sentence: str, answers: bool) -> bool:
        said = squashed(sentence)
        if self._meets_then(sentence):  # no courtesy beside a day or time: "Nos vemos!"
            return bool(said) and said.rstrip(_ENDS) in self._whole_told()
        if self._rules.courtesy(_without_names(self._reader, sentence), answers):
            return True
        if (
            self._rules.denies(sentence)
            or self._rules.ranges(sentence)
            or self._habit_at_times(sentence)
            or self._marks_an_appointment(sentence)
        ):  # told only in those
            return bool(said) and said.rstrip(_ENDS) in self._whole_told()  # words, whole
        if said and _holds_sentences(self._told, said):
            return True  # the tool's own words, read in this turn, or a true outcome's
        named = self._named_records(sentence)
        if not self._grounding.told_this_turn(sentence):
            return False
        # "O primeiro horário livre da Ana na quarta é às 9h": a claim of a free time's place,
        # told only of the first time of the item holding its professional and day
        earliest = not named and self._rules.says_earliest(sentence)
        if not self._tells_only_told(sentence, bool(named), earliest):
            return False
        relations = self._relations_told()
        if relations is not None and not relations.bound(sentence):
            return False  # its facts are this turn's, their relation is not (``relations``)
        if earliest and (relations is None or not self._first_free(sentence)):
            return False
        return self._tells_appointment_as_recorded(sentence, named)

    def _first_free(self, sentence: str) -> bool:
        """Whether ``sentence`` names a day and a time, and one item of this turn's free
        times, cut to each day's first, holds them with its names (``earliest_of``): "the
        first" of a day is that day's first time, never a later one, another day's or another
        professional's."""
        kinds = {f.kind for f in self._reader.facts(sentence)}
        if Kind.DATETIME not in kinds and not (
            kinds & {Kind.TIME} and kinds & {Kind.DATE, Kind.WEEKDAY}
        ):
            return False  # "the first" of no day named: of which day is no item's to say
        if self._earliest_of is not None:
            self._earliest, self._earliest_of = self._earliest_of(), None
        return self._earliest is not None and self._earliest.bound(sentence)

    def _marks_an_appointment(self, sentence: str) -> bool:
        """A yes emoji beside two or more of an appointment's facts ("Ana Souza, amanhã 10:00
        ✅"): it presents the appointment as done, which only a receipt's words may."""
        if not any(mark in sentence for mark in self._rules.yes_marks):
            return False
        kinds = [f.kind for f in self._reader.facts(sentence) if f.kind in APPOINTMENT_KINDS]
        return len(kinds) >= 2 and any(kind is not Kind.NAME for kind in kinds)

    def _meets_then(self, sentence: str) -> bool:
        """ "See you tomorrow at 10:00!", "¡Nos vemos el martes!": a meeting at a day or time
        says an appointment is made, which only a receipt's or a record's words may."""
        return self._rules.meets(sentence) and (self._reply_timed or self._timed(sentence))

    def _timed(self, sentence: str) -> bool:
        kinds = (Kind.TIME, Kind.DATETIME, Kind.DATE, Kind.WEEKDAY)
        return any(f.kind in kinds for f in self._reader.facts(sentence))

    def _habit_at_times(self, sentence: str) -> bool:
        """A weekday of every week said with times ("Ana is free at 10:00 on Tuesdays"): one
        day's free times tell no habit (a week's hours may: "Ana works on Saturdays")."""
        if not self._rules.recurs(sentence):
            return False
        return any(f.kind in (Kind.TIME, Kind.DATETIME) for f in self._reader.facts(sentence))

    def _asks_only(self, question: str) -> bool:
        """Beside its facts (the grounding check's), ``question`` has only words of asking
        (``StatementRules.asking``), heard, of this turn's tool results, of the frames, or
        courtesy."""
        facts = self._reader.facts(question)
        named = sum(1 for fact in facts if fact.kind in APPOINTMENT_KINDS)
        if self._rules.asks_consent_or_outcome(normalize(question), named):
            return False  # a consent only the system asks, or an outcome no receipt backs
        said = squashed(question)
        if said and _holds_words(self._told, said):
            return True  # the system's own question, as a told text renders it
        rest = self._without_facts(question, facts)
        words = _WORDS.findall(self._rules.without_phrases(normalize(rest)))
        if not words and rest == question:
            return False  # no word and no fact: "?" asks nothing
        if self._asked and self._answers_by_symbol(rest):
            return False  # "👍 Quer marcar?" to "aceitam cheque?" says yes as a word would
        if any(self._closed(fact) for fact in facts):
            return False  # "Quer marcar domingo então?" where nobody works on Sundays
        if self._rules.denies(question):  # "no sábado" is a day, no denial
            return False  # a denial asks nothing: "E que não aceitamos cartão?" states
        own = bool(self._records)  # one's appointments are asked about only by one who has
        # "the booking" with a day, time or name of it: an appointment that exists ("¿Quieres
        # ver la cita de mañana con Ana?"); without one it is the booking being arranged
        # ("¿A nombre de quién hago la reserva?")
        the = named > 0 and self._rules.says_the_booking(words)
        yours = the or self._rules.says_yours(words)
        if not own and (yours or self._yours_named(question, facts)):
            return False  # "Quer remarcar o seu horário de amanhã?" to one with none
        about_own = own and (the or self._rules.about_own(words))
        if about_own and not self._names_own(question):
            return False  # "Quer remarcar o seu horário de quinta?" to one booked on Tuesday
        pairs = self._pairs_told()
        # the day and time of one's own appointment are the record's, no time offered ("Quer
        # remarcar o seu horário de terça às 10h?"); where it would go is offered ("para ...")
        offered = self._without_own(question) if about_own else question
        if pairs is not None and not pairs.pairs(offered):
            return False  # "Quer marcar o Corte feminino com o Bruno?" (he does not do it),
            # "Quer marcar com a Ana na terça às 10h?" (Ana's Tuesday has no 10:00 free)
        if (pairs is None or not pairs.timed) and not self._asked_back(offered, pairs):
            return False  # no result of this turn tells times: a time offered is the customer's
        left = [w for w in words if w not in self._heard and not self._rules.asks(w, own)]
        if not left:
            return True
        told = self._words_told()
        if all(w in told for w in left):
            return True
        return self._rules.courtesy(" ".join(left), not self._asked)  # a yes answers a question

    def _answers_by_symbol(self, text: str) -> bool:
        """Whether ``text`` has a symbol that is a yes or a no (an emoji of the consent's
        ``yes_emoji`` or ``no_emoji``: courtesy only where a yes answers nothing)."""
        marks = " ".join(c for c in text if unicodedata.category(c).startswith("S"))
        return (
            bool(marks)
            and self._rules.courtesy(marks, True)
            and not self._rules.courtesy(marks, False)
        )

    def _without_facts(self, text: str, facts: Sequence[Fact]) -> str:
        """``text`` with its facts blanked, but for a capitalised word that names no one: a
        common word of the languages that is no word of the tenant's names or of this turn's
        results ("Aceitamos Pix, Cheque e Tarifa Free": "Cheque" is a word, judged as one)."""
        named = (f for f in facts if f.kind is not Kind.NAME or self._names_someone(f))
        return _blanked(text, named)

    def _names_someone(self, fact: Fact) -> bool:
        told = self._words_told()
        parts = name_parts(str(fact.values[0][1]))
        if all(part in self._heard or part in told for part in parts):
            return True
        return not self._grounding.common_word(fact)

    def _words_told(self) -> frozenset[str]:
        if self._told_words is None:
            self._told_words = self._told_words_of() if self._told_words_of else frozenset()
        return self._told_words

    def _yours_named(self, question: str, facts: Sequence[Fact]) -> bool:
        """Whether a possessive stands within two words before a service's or a
        professional's name ("your Barba with Bruno": one's appointment)."""
        for fact in facts:
            named = fact.kind is Kind.NAME and any(
                part in self._heard for part in name_parts(str(fact.values[0][1]))
            )
            before = _WORDS.findall(normalize(question[: fact.start]))[-2:]
            if named and not self._rules.your.isdisjoint(before):
                return True
        return False

    def _closed(self, fact: Fact) -> bool:
        """Whether every weekday ``fact`` reads is one nobody works (see ``open_days``)."""
        days = {value for kind, value in fact.values if kind is Kind.WEEKDAY}
        return self._open_days is not None and bool(days) and days.isdisjoint(self._open_days)

    def _names_own(self, question: str) -> bool:
        """Whether the days, times and names ``question`` says of one's appointment (not where
        it would go) are all those of one of the customer's appointments."""
        facts = [
            f
            for f in self._reader.facts(question)
            if f.kind in APPOINTMENT_KINDS and not self._rules.destined(question, f)
        ]
        return not facts or any(all(_in(f, r) for f in facts) for r in self._records)

    def _asked_back(self, question: str, pairs: Relations | None) -> bool:
        """Whether every time ``question`` offers (``Relations.offered``: not a length) is one
        the customer's words have (asked back: "Às 15h, então?"), not one only a record has
        (their own appointment's, an earlier listing's)."""
        if pairs is not None:
            offered = pairs.offered(question)
        else:
            offered = [f for f in self._reader.facts(question) if f.kind in OFFERED_KINDS]
        return all(self._grounding.heard(fact) for fact in offered)

    def _without_own(self, question: str) -> str:
        """``question`` without the days and times it says of one's appointment (not where it
        would go: ``destined``): what is left is what it offers."""
        facts = [
            f
            for f in self._reader.facts(question)
            if f.kind in OWN_DAY_KINDS and not self._rules.destined(question, f)
        ]
        return _blanked(question, facts)

    def _pairs_told(self) -> Relations | None:
        if self._pairs_of is not None:
            self._pairs, self._pairs_of = self._pairs_of(), None
        return self._pairs

    def _relations_told(self) -> Relations | None:
        if self._relations_of is not None:
            self._relations, self._relations_of = self._relations_of(), None
        return self._relations

    def _whole_told(self) -> set[str]:
        """The told texts' sentences, squashed: built on the first sentence that needs them
        (a denial or a range), not for every reply."""
        if self._told_sentences is None:
            told = self._told_texts
            self._told_sentences = {squashed(u).rstrip(_ENDS) for t in told for u in sentences(t)}
        return self._told_sentences

    def _tells_only_told(self, sentence: str, names_record: bool, earliest: bool) -> bool:
        """Whether, beside its facts, ``sentence`` only has words a tool of this turn returned
        (its values, not its notes), words of the language's frame or courtesy words: a fact
        a tool grounds does not carry a state no tool told ("Bruno asked to push it back").
        Beside a time, the words saying someone is free then (``free_frame``); ``earliest``:
        the phrases saying it is the first (``_first_free`` checks that it is)."""
        facts = self._reader.facts(sentence)
        rest = self._without_facts(sentence, facts)
        allowed = self._words_told() | self._rules.listing
        if names_record:  # the words that tell one's appointment, for one
            allowed |= self._rules.frame
        if any(f.kind in OFFERED_KINDS for f in facts):
            allowed |= self._rules.free_frame
        folded = self._rules.without_phrases(normalize(rest))
        if earliest:
            folded = self._rules.without_earliest(folded)
        words = _WORDS.findall(folded)
        return all(w in allowed for w in words)

    def _named_records(self, sentence: str) -> list[_Record]:
        """The customer's appointments ``sentence`` names: two or more of its facts, and, if
        it says times without "your", one of them the appointment's ("Na quarta o Bruno tem
        às 14:30 e 15:00" lists free times beside an appointment at 14:00, it does not say
        where that appointment is)."""
        facts = [f for f in self._reader.facts(sentence) if f.kind in APPOINTMENT_KINDS]
        times = [f for f in facts if f.kind in (Kind.TIME, Kind.DATETIME)]
        yours = self._rules.says_yours(_WORDS.findall(normalize(sentence)))
        return [
            r
            for r in self._records
            if sum(_in(f, r) for f in facts) >= 2
            and (yours or not times or any(_in(t, r) for t in times))
        ]

    def _tells_appointment_as_recorded(self, sentence: str, named: list[_Record]) -> bool:
        facts = [f for f in self._reader.facts(sentence) if f.kind in APPOINTMENT_KINDS]
        if not named:
            return True  # names no appointment of the customer
        return any(self._as_recorded(sentence, facts, record) for record in named)

    def _as_recorded(self, sentence: str, facts: list[Fact], record: _Record) -> bool:
        if not all(_in(f, record) for f in facts):
            return False  # another professional, service, day or time than the record's
        rest = _blanked(sentence, facts)
        if _DIGITS.search(rest):
            return False  # a number no fact reads ("You have 2 appointments: ...") is no record's
        words = _WORDS.findall(normalize(rest))
        if not self._in_place(words, record):
            return False  # "your next appointment is ..." of one that is not the first
        allowed = record.words | self._rules.frame
        left = " ".join(w for w in words if w not in allowed)
        return not left or self._rules.courtesy(left, False)

    def _in_place(self, words: Sequence[str], record: _Record) -> bool:
        """Whether a word of ``words`` that says a place among the customer's appointments
        ("next", "último") says ``record``'s (they are listed by start)."""
        first = not self._rules.first_of.isdisjoint(words)
        last = not self._rules.last_of.isdisjoint(words)
        return (not first or record is self._records[0]) and (
            not last or record is self._records[-1]
        )


def _asking_part(question: str, head: str, clauses: Sequence[str]) -> str:
    """What ``question`` asks: without its stated head and clauses (judged as statements:
    "Temos 09:00 e 10:00 com o Bruno, algum serve?" asks "algum serve?")."""
    asking = question.strip()[len(head) :] if head else question
    for clause in clauses:
        asking = asking.replace(clause, " ")
    return asking


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


def without_units(text: str, refused: Sequence[str]) -> str:
    """``text`` without its ``refused`` units (its questions stay)."""
    kept = [s for s in units(text) if s not in refused]
    return re.sub(r"[ \t]+\n", "\n", "".join(kept)).strip()


def squashed(text: str) -> str:
    """``text`` with each run of white space one space, trimmed (how told texts compare)."""
    return " ".join(text.split())


def _holds_words(text: str, part: str) -> bool:
    """Whether ``part`` occurs in ``text`` with no word character right before or after it
    (``(?<!\\w)part(?!\\w)``, without compiling a pattern per part)."""
    start = text.find(part)
    while start >= 0:
        end = start + len(part)
        if not (start and _is_word(text[start - 1])) and not (
            end < len(text) and _is_word(text[end])
        ):
            return True
        start = text.find(part, start + 1)
    return False


def sentences_of(text: str) -> list[str]:
    """``text``'s sentences as the reply's units compare (squashed, without their final
    stop)."""
    return [squashed(u).rstrip(_ENDS) for u in units(text) if u.strip()]


def _holds_sentences(text: str, part: str) -> bool:
    """Whether ``part`` occurs in ``text`` as whole sentences of it: from a sentence's start
    to a sentence's end (a cut at either end may drop a condition: "gratuito" of "gratuito
    por 2 horas", "estacionamento gratuito" of "para clientes, estacionamento gratuito")."""
    start = text.find(part)
    while start >= 0:
        end = start + len(part)
        after = text[end:]
        ends = part[-1] in _STOPS and not (after and after[0].isalnum())  # "$2." of "$2.50"
        if _sentence_edge(text[:start][::-1]) and (ends or _sentence_edge(after)):
            return True
        start = text.find(part, start + 1)
    return False


_STOPS = ".!?;…"
_EDGES = _STOPS + ':\n"{}[]'


def _sentence_edge(beside: str) -> bool:
    """Whether ``beside`` (the text after a part, or before it reversed) starts at a sentence's
    edge: nothing, or spaces then a stop, a line break or a quote."""
    rest = beside.lstrip(" ")
    return not rest or rest[0] in _EDGES


def _is_word(char: str) -> bool:
    return char.isalnum() or char == "_"


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
