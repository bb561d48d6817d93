# Over 300 lines: one judge of how a sentence relates its facts (mentions, names, runs).
"""Facts said together must be told together: the relation between a statement's facts is a
tool's, never the model's.

A fact a tool returned in this turn grounds each span on its own ("R$ 40,00", "Barba", "Ana
Souza"); a sentence relates them ("O Corte feminino custa R$ 40,00", "A Ana Souza faz Barba"),
and the relation is true only when one item of a result holds them together (one service of
the listing, one professional and the services they do, one day of one professional's free
times). Rules (pure; the items come from the tools' structured results, ``ToldValue``):

* The **mentions** of a sentence, in order: its money, percent, time, date, date-time,
  duration, weekday and other number spans, and its words that are a professional's or a
  service's name (a name a result of this turn holds, or one of the catalog's that none
  does — the sentence then names something this turn told nothing of). Words of the
  language's frame and courtesy are no mention; other names (the customer's, the business's)
  are not checked here.
* A mention is **held** by the results' values that have it (a name's word in the value's
  words, another span by one of its readings) and has their **roles** (a name's: professional
  or service, by the result's field; another span's: its kind) and their **items**. A value
  of a refusal (the asked time that is not free, the professional who does not offer the
  service, a day the professional does not work, a result saying something was not done) is
  held in no item: it is told only in the system's words (``outcome_text``), so a sentence
  with a mention only such values hold is not bound, alone too ("We are open on Sunday"
  after a result saying the professional does not work that Sunday). A refused time with free
  times near it keeps its day in their item (``DAY_ROLE``: they are that day's).
* Consecutive mentions that share a role are one **run** (a list: "Corte feminino e Barba",
  "10:00, 10:30 e 11:00", "Ana Souza e Bruno Lima"). With two runs or more, the runs must
  split, in order, into **groups** of two runs or more in which one item holds every choice
  of one mention of each run: "Temos Corte feminino (R$ 80,00) e Barba (R$ 40,00)" is the
  groups (Corte feminino, R$ 80,00) and (Barba, R$ 40,00); with the prices swapped no split
  exists. One item holds the whole choice, not one item each pair of it: "A Ana tem terça às
  10h" is refused when only Ana's Wednesday, Bruno's Tuesday and Ana's Tuesday each hold two
  of the three. Two groups in a row may share a run of names (a name relates to facts of
  several items: "Júlia Prado faz Corte e escova (60 min)" is the groups (Júlia Prado, Corte
  e escova) and (Corte e escova, 60 min)), never a run of other facts: "O Corte feminino (15
  min, R$ 30,00)" is refused when R$ 30,00 is another 15-minute service's price.
* A sentence with a word of the language's ``denials`` ("não", "not", "no") **denies** a
  relation: it may not deny one a result states. Its mentions but dates and weekdays (the
  scope of a denial: "não tem horário livre nesse período em 04/12") are read as above; if
  the runs split into groups told together, a result holds what the sentence denies ("A Ana Souza
  não faz Corte feminino" after a listing saying she does) and it is refused. A denial no
  result contradicts is not proven either (the professional who does not offer a service is
  told in the system's words, ``outcome_text``): that residual is in docs/agents.md.

* A price, a length, a percentage or a free time is some service's or professional's: a
  sentence saying one without naming a service or a professional a result holds ("Leva 30
  minutos.", "All services cost R$ 40,00.", "Às 10h e 14h.") is not bound.

* A **question** relates its names, prices and lengths as the results and the catalog pair
  them (``pairs``), and a time it says is a time it offers as free: when a result of this
  turn tells times, each time and day of the question is held by an item (not a refusal's
  value), and the names, days and times are told together as a statement's are — "Quer
  marcar com a Ana na terça às 10h?" is refused when Ana's Tuesday has no 10:00 free, whatever
  else holds 10:00 (the customer's own appointment, another day, another professional), and
  when the results have no Tuesday of Ana's. A question with no time is not read for its day.

Fails closed: a sentence with a mention nothing holds beside a held one is not bound, nor one
relating more than ``MAX_RUNS`` runs.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from agent_service.application.fact_spans import Fact, FactReader, Kind, Value, values_of
from agent_service.application.text import normalize

ENTITY_ROLES = frozenset({"professional", "service"})
SPECIALTY = "specialty"
"""A professional's specialty ("Cabeleireira"): its words (of ``MIN_SPECIALTY_WORD`` letters or
more, none of the frame's) are mentions too, held by that professional's item only — "Bruno
Lima é nossa cabeleireira" relates Bruno to Ana's specialty."""
MIN_SPECIALTY_WORD = 4
NAME_ROLES = ENTITY_ROLES | {SPECIALTY}
MAX_RUNS = 32
"""A sentence relating more runs than this is not read (refused): no reply lists so much in
one sentence, and reading it costs the square of its runs."""
OWN_KINDS = frozenset(
    {Kind.MONEY.value, Kind.DURATION.value, Kind.PERCENT.value, Kind.TIME.value,
     Kind.DATETIME.value}
)  # fmt: skip
"""A service's or a professional's own facts: a sentence saying one names whose it is (a
price, a length, a free time: "Às 10h e 14h." after "Bruno tem horários amanhã." is told by
no relation)."""
SCOPE_KINDS = frozenset({Kind.DATE.value, Kind.WEEKDAY.value})
"""What a denial is scoped by, not what it denies."""
RELATED_KINDS = frozenset(
    {Kind.MONEY, Kind.PERCENT, Kind.TIME, Kind.DATE, Kind.DATETIME, Kind.DURATION, Kind.WEEKDAY,
     Kind.NUMBER, Kind.COUNT}
)  # fmt: skip
"""A number too ("tem 14 horários": no result holds 14 of them; "Rua das Flores, 123": the
FAQ answer's item does), and a count, held by the item whose list has as many ("a Ana tem 3
horários" when Bruno's day has 3 and Ana's 2 is no relation a result holds)."""
PAIRED_KINDS = frozenset({Kind.MONEY, Kind.DURATION, Kind.PERCENT})
"""What a question relates to a name (``Relations.pairs``): a price or a length is a service's."""
OFFERED_KINDS = frozenset({Kind.TIME, Kind.DATETIME})
"""What a question offers: a time it says is one it presents as free (``Relations.pairs``)."""
OFFER_KINDS = OFFERED_KINDS | {Kind.DATE, Kind.WEEKDAY}
"""What a question offering a time relates besides its names: the time and its day."""
DAY_ROLE = "day"
"""The role of a value that tells a day (a day of free times; the day of a refused time with
free times near it): its date and weekday are held, never a time of it."""
MAX_GROUP_SETS = 4096
"""The most distinct sets of items a group's check keeps (``_jointly``) before it fails closed:
far more than any sentence of a reply relates."""
_DAY_KINDS = frozenset({Kind.DATE, Kind.WEEKDAY})
_TOKEN = re.compile(r"[^\W\d_]+")
_WORD = re.compile(r"[^\W\d_]+(?:'[^\W\d_]+)*")


@dataclass(frozen=True, slots=True)
class ToldValue:
    """One value a tool of this turn returned: its ``role`` (``professional`` or ``service``
    for a name, else the result's field), as returned (``text``; a bare number of minutes is
    ``readings`` too), and the item of the result it belongs to (``item``; ``None``: a
    refusal's value, told only in the system's words)."""

    role: str
    text: str
    item: int | None
    readings: tuple[Value, ...] = ()


@dataclass(frozen=True, slots=True)
class _Mention:
    start: int
    roles: frozenset[str]
    items: frozenset[int]
    refused: bool = False
    """Held only by a refusal's values (item ``None``): told in the system's words alone."""
    mixed: bool = False
    """A name whose words one after the other are of different names ("Ana Lima")."""


class Relations:
    """Judges whether a sentence's facts are told together (see the module's rules);
    ``entities``: the folded words of every catalog name (professionals and services), and
    ``plain``: folded words that are never a mention (frame, courtesy); ``denials``: the
    folded words that deny a relation, looked for in ``undated(sentence)`` (the sentence
    folded, its own language's day mentions blanked: ``StatementRules.undated``)."""

    def __init__(
        self,
        reader: FactReader,
        values: Sequence[ToldValue],
        entities: frozenset[str],
        plain: frozenset[str],
        denials: frozenset[str] = frozenset(),
        undated: Callable[[str], str] = normalize,
    ) -> None:
        self._reader = reader
        self._denials = denials
        self._undated = undated
        self._names: dict[str, list[ToldValue]] = {}
        self._spans: dict[Value, list[ToldValue]] = {}
        for value in values:
            if value.role in NAME_ROLES:
                for word in name_words(value.text):
                    short = value.role == SPECIALTY and len(word) < MIN_SPECIALTY_WORD
                    if word not in plain and not short:
                        self._names.setdefault(word, []).append(value)
            for reading in frozenset(value.readings) | _readings(reader, value.text):
                if value.role != DAY_ROLE or reading[0] in _DAY_KINDS:
                    self._spans.setdefault(reading, []).append(value)
        self._entities = entities - plain
        # a result of this turn tells times (free, booked or refused): a question's are read
        self._timed = any(kind in OFFERED_KINDS for kind, _ in self._spans)

    def bound(self, sentence: str) -> bool:
        """Whether ``sentence`` relates its facts as this turn's results do — or, when it
        denies a relation, does not deny one they state (see rules)."""
        mentions = self._mentions(sentence)
        denies = self._denials.intersection(_WORD.findall(normalize(sentence)))
        if denies:  # read again with the day mentions blanked ("no sábado" is no denial)
            denies = self._denials.intersection(_WORD.findall(self._undated(sentence)))
        if denies:
            mentions = [m for m in mentions if not m.roles <= SCOPE_KINDS]
        runs = _runs(mentions)
        if len(runs) > MAX_RUNS:
            return False  # more relations than a sentence of a reply tells: not read
        if denies:
            return len(runs) < 2 or not _all_bound(runs)  # a result holds what it denies
        if any(m.refused for m in mentions):
            return False  # a refusal's value, said in other words than the system's
        if any(m.mixed for m in mentions):
            return False  # a name made of two names' words: no one's
        if any(m.roles & OWN_KINDS for m in mentions) and not any(
            m.roles & ENTITY_ROLES for m in mentions
        ):
            return False  # a price, a length, a time says whose: "Leva 30 minutos", "Às 10h."
        return _all_bound(runs)

    @property
    def timed(self) -> bool:
        """Whether a result of this turn tells times (free, booked or refused)."""
        return self._timed

    def pairs(self, question: str) -> bool:
        """Whether ``question`` relates its names, prices and lengths as one item holds them
        ("Quer marcar o Corte feminino com o Bruno?" when Bruno does not do it: not bound),
        and, when a result of this turn tells times, offers a time only as a statement would
        say it is free: held by an item, with the names and the day the question says it with
        ("Quer marcar com a Ana na terça às 10h?" when Ana's Tuesday has no 10:00 free — the
        customer's own appointment, another day's or another professional's free time — or
        the result has no Tuesday of Ana's: not bound; "às 09:00 com o Bruno" after Ana's
        free times neither). A time or a day only a refusal holds is not free. With no time,
        a question's day is not read; with no result telling times (``timed``), its time is
        not read here: it is the customer's own, asked back (``Statements``)."""
        facts = self._reader.facts(question)
        offers = self._timed and bool(self.offered(question))
        if offers and any(not self._fact_mention(f).items for f in facts if f.kind in OFFER_KINDS):
            return False  # a time or a day no item holds: not free, or not told free
        mentions = self._mentions(question, OFFER_KINDS | PAIRED_KINDS if offers else PAIRED_KINDS)
        if any(m.mixed for m in mentions):
            return False  # "Quer marcar com a Ana Lima?": no one's name
        return _all_bound(_runs(mentions))

    def offered(self, question: str) -> list[Fact]:
        """The times ``question`` offers: its time and date-time spans, but one a value holds as
        a length ("o Corte feminino de 1h" is its 60 minutes)."""
        return [
            fact
            for fact in self._reader.facts(question)
            if fact.kind in OFFERED_KINDS
            and not any(
                kind is Kind.DURATION and (kind, v) in self._spans for kind, v in fact.values
            )
        ]

    def _mentions(self, sentence: str, kinds: frozenset[Kind] = RELATED_KINDS) -> list[_Mention]:
        facts = [f for f in self._reader.facts(sentence) if f.kind in kinds]
        found = [self._fact_mention(f) for f in facts]
        taken = [(f.start, f.end) for f in facts]
        for name in _name_runs(sentence, taken, self._names, self._entities):
            found.append(self._name_mention(name))
        return _one_day(sorted(found, key=lambda m: m.start))

    def _name_mention(self, name: Sequence[tuple[int, str]]) -> _Mention:
        """One name, its words said one after the other: held by the values that hold every
        word of it ("Ana Souza"); words of different names ("Ana Lima" of Ana Souza and Bruno
        Lima) are no one's name."""
        start = name[0][0]
        held = [self._names.get(word, []) for _, word in name]
        if all(held):
            common = [v for v in held[0] if all(v in others for others in held[1:])]
            if common:
                return _held(start, common, None)
            return _Mention(start, frozenset({"mixed name"}), frozenset(), mixed=True)
        if len(name) > 1 and any(held):
            return _Mention(start, frozenset({"mixed name"}), frozenset(), mixed=True)
        return _Mention(start, frozenset({f"unheld {name[0][1]}"}), frozenset())

    def _fact_mention(self, fact: Fact) -> _Mention:
        held = [value for reading in set(fact.values) for value in self._spans.get(reading, ())]
        if not held:
            return _Mention(fact.start, frozenset({f"unheld {fact.text}"}), frozenset())
        return _held(fact.start, held, fact.kind.value)


def _name_runs(
    sentence: str,
    taken: Sequence[tuple[int, int]],
    names: dict[str, list[ToldValue]],
    entities: frozenset[str],
) -> list[list[tuple[int, str]]]:
    """The sentence's names: its words a result or the catalog names, each word with where it
    starts. Words of one role (a professional's, a service's, a specialty's; a catalog word no
    result holds is any) one after the other are one name: with only spaces between them, or a
    joiner and no space (``_JOINER``: "Ana Souza", "Ana-Lima"); a word of another role starts
    another ("a Cabeleireira Ana Souza")."""
    runs: list[list[tuple[int, str]]] = []
    end, roles = -1, frozenset[str]()
    for match in _TOKEN.finditer(sentence):
        if any(start <= match.start() < stop for start, stop in taken):
            continue
        word = normalize(match.group())
        if word not in names and word not in entities:
            continue
        own = frozenset(v.role for v in names.get(word, ()))
        gap = _INVISIBLE.sub("", sentence[end : match.start()])
        close = not gap.strip() or _JOINER.fullmatch(gap) is not None
        if runs and close and (not own or not roles or own & roles):
            runs[-1].append((match.start(), word))
            roles = roles & own if roles and own else roles or own
        else:
            runs.append([(match.start(), word)])
            roles = own
        end = match.end()
    return runs


_JOINER = re.compile(r"[-\u2010-\u2015\u00b7]{1,2}")
"""What joins two words of one name with no space ("Ana-Lima", "Ana·Lima"); "/", "&", "+"
separate a list ("Ana/Bruno")."""
_INVISIBLE = re.compile(r"[\u200b-\u200f\u2060-\u2064\ufeff\u00ad*_~]")
"""Format characters a name may hide between its words (zero-width spaces and joiners) and
WhatsApp's emphasis marks ("*Ana* *Lima*", "Ana _Lima_")."""


def _held(start: int, held: Iterable[ToldValue], kind: str | None) -> _Mention:
    """A mention the ``held`` values have: a span's role is its ``kind``, a name's the
    values' roles."""
    values = list(held)
    roles = frozenset({kind} if kind else {v.role for v in values})
    items = frozenset(v.item for v in values if v.item is not None)
    return _Mention(start, roles, items, refused=bool(values) and not items)


_WEEKDAY_ROLE = frozenset({Kind.WEEKDAY.value})
_DATE_ROLE = frozenset({Kind.DATE.value})


def _one_day(mentions: Sequence[_Mention]) -> list[_Mention]:
    """``mentions`` with a weekday and a date said one after the other ("terça dia 15",
    "Wednesday the 16th", "jueves 17/12") as one mention of one day: held by the items that
    hold both. Two mentions, they were two runs, and a group of the two alone split the day
    from the time said with it ("Na terça dia 15 a Ana pode às 09:30" bound by Ana's Tuesday
    15 for the day and Ana's Thursday for 09:30); a pair no item holds (a weekday that is not
    the date's) is no day a result tells (``mixed``)."""
    merged: list[_Mention] = []
    for mention in mentions:
        last = merged[-1] if merged else None
        if last is not None and {last.roles, mention.roles} == {_WEEKDAY_ROLE, _DATE_ROLE}:
            items = last.items & mention.items
            merged[-1] = _Mention(
                last.start,
                _WEEKDAY_ROLE | _DATE_ROLE,
                items,
                refused=last.refused or mention.refused,
                mixed=not items and not (last.refused or mention.refused),
            )
            continue
        merged.append(mention)
    return merged


def _runs(mentions: Sequence[_Mention]) -> list[list[_Mention]]:
    runs: list[list[_Mention]] = []
    for mention in mentions:
        if runs and runs[-1][0].roles & mention.roles:
            runs[-1].append(mention)
        else:
            runs.append([mention])
    return runs


def _all_bound(runs: Sequence[Sequence[_Mention]]) -> bool:
    """Whether ``runs`` split, in order, into groups of two runs or more, each told together,
    consecutive groups sharing at most a run of names (with one run or none, nothing is
    related: ``True``)."""
    count = len(runs)
    if count < 2:
        return True
    covered = [False] * (count + 1)  # covered[i]: runs[i:] split so
    covered[count] = True
    for start in range(count - 2, -1, -1):
        for end in range(start + 2, count + 1):
            if not _group(runs[start:end]):
                break  # a longer group holds these pairs too
            shared = (
                end < count
                and _names(runs[end - 1])
                and covered[end - 1]
                and not _timed(runs[start:end])
            )
            if covered[end] or shared:
                covered[start] = True
                break
    return covered[0]


def _timed(group: Sequence[Sequence[_Mention]]) -> bool:
    """Whether ``group`` says a day or a time: it shares no name with the next group, whose
    times or day would then be another item's ("Na terça dia 15 a Ana pode às 09:30" is not
    (Tuesday 15, Ana) and (Ana, 09:30) held by two of Ana's days)."""
    return any(run[0].roles & _DAY_OR_TIME for run in group)


_DAY_OR_TIME = frozenset(k.value for k in (*_DAY_KINDS, *OFFERED_KINDS))


def _names(run: Sequence[_Mention]) -> bool:
    """A run of professional or service names: what two groups may share ("Júlia Prado faz
    Corte e escova (60 min)": she does it, it takes 60 minutes)."""
    return bool(run[0].roles) and run[0].roles <= NAME_ROLES


def _group(runs: Sequence[Sequence[_Mention]]) -> bool:
    """Whether every choice of one mention of each run of ``runs`` is held by one item ("Ana,
    terça, 10h": one day of Ana's has 10:00 — not one pair each in Ana's Wednesday, Bruno's
    Tuesday and Ana's Tuesday)."""
    pairwise = all(
        _together(runs[i], runs[j]) for i in range(len(runs)) for j in range(i + 1, len(runs))
    )
    return pairwise and (len(runs) < 3 or _jointly(runs))


def _jointly(runs: Sequence[Sequence[_Mention]]) -> bool:
    """Whether every choice of one mention of each run has an item in common: the items each
    choice so far shares, kept as distinct sets (past ``MAX_GROUP_SETS`` it fails closed)."""
    shared = {m.items for m in runs[0]}
    for run in runs[1:]:
        shared = {items & m.items for items in shared for m in run}
        if frozenset() in shared or len(shared) > MAX_GROUP_SETS:
            return False
    return True


def _together(run: Sequence[_Mention], other: Sequence[_Mention]) -> bool:
    return all(a.items & b.items for a in run for b in other)


@functools.lru_cache(maxsize=4096)  # the same result values are read turn after turn
def _readings(reader: FactReader, text: str) -> frozenset[Value]:
    return frozenset(values_of([f for f in reader.facts(text) if f.kind in RELATED_KINDS]))


@functools.lru_cache(maxsize=4096)
def name_words(text: str) -> tuple[str, ...]:
    """The folded words of a name that a mention may be (two letters or more)."""
    return tuple(w for w in _TOKEN.findall(normalize(text)) if len(w) >= 2)
