# Over 300 lines: the consent rules in one place, reading an answer and deciding on it.
"""Consent: what a customer's answer to a proposed change means, decided by allowlist.

Rules (pure; the vocabularies come from each language's data file through the language port):

* :func:`read_answer` — a free text is a **yes** only if, after removing the language's yes
  words (and the yes words of that kind of change: "pode cancelar" is a yes to a cancellation
  only), its filler and politeness words, its yes emoji, filler emoji and punctuation,
  **nothing is left**, and it has at least one yes and no no. The same for a **no**. Anything
  else is ``OTHER``: a digit, a name, a time, a "but", an unknown emoji, a word in no list —
  and any question ("?" / "¿" are never removed). ``leftover`` is what was left, in the
  customer's own spelling, so the system can say what it understood as a change.
* :func:`decide` — the decision on the stored pending action: a structured decision (a tapped
  quick reply) counts only for the *current* pending id (compared in constant time) and a
  confirm only before it expires; a free-text yes confirms only before it expires; a no
  declines; a yes word with something else is a ``CHANGED`` answer (the question is asked
  again) — unless what is left asks for a change (a ``change`` word: "pode, mas quero mudar o
  dia", "yes, but a different day"); a no word with something else ("não, espera, quero
  manter"), like any other message, ends the pending action (``DROPPED``): the proposal is not
  what the customer wants, so no later yes may confirm it. Each kind of change has its own yes
  and no words too ("keep it" is a no to a cancellation). One exception, decided on what the
  message asks, never on the model: a message with no answer or change word in it that asks
  only about the business ("aceita pix?", "is there parking?": its FAQ or catalog) is a
  question asked meanwhile (``ASIDE``): it is answered and the proposal is asked again, with a
  fresh id, as the reply's last words, so a later yes answers the question the customer has
  just read. An answer made only of words of not understanding it ("hã? não entendi", "sorry,
  what?", ``unclear`` words) is ``UNCLEAR``: the question is asked again, in code, with a
  fresh id; with a yes or a no beside them ("sim, não entendi") it is no clean answer either
  way (``CHANGED`` or ``DROPPED`` as above). A one-word no that ends a question after other
  words ("¿a las 10, no?", "é amanhã, não?") is the question's tag: it asks, it declines
  nothing (and a question is never a yes).
* A typed yes that arrives sooner after a question that replaced another one was sent than
  anyone could read it (``unread``: the service's reading interval) confirms nothing: it was
  written for the question before — sent beside a change of the proposal — and the changed
  question is asked again (``UNSEEN``). A yes to a first question is taken at once (nothing
  else could be meant), and a tap names the question it answers: never held back.
* :func:`read_restating` — a yes that only says the proposal back is a yes: "sim, amanhã às
  10h" to the proposal of tomorrow at 10:00, "yes, with Rafael" to Rafael's. What is left
  after the yes words must be the proposal's own day, time and names (every day and time the
  message names is the proposal's), in the language's words for days, times and telling an
  appointment — never a "later", an "or", a length or another number. Anything else stays a
  changed answer. A no word that is also one of those words and opens one of their phrases is
  a preposition (Portuguese "no" of "sim, no horário que você falou"); before anything else,
  or alone ("sim, no"), it stays a no.

* A cancellation's answer is read without the customer's reason for it ("não vou conseguir
  ir", "I can't make it": ``[appointments].cant_make_it``, blanked by the adapter,
  ``infrastructure/agent/consent.without_reasons``), and a no right after the reason that
  only repeats its negation: the yes must still be there; alone a reason is no answer.

Languages in play: the conversation's own vocabulary comes first and its reading wins ("y" is
a yes in English, a filler in Spanish); its other words ("vale", a voucher in Portuguese, a yes
in Spanish) and a phrase that is a yes in one language and a no in another are left over.
Within one language a phrase with two meanings is a data error.

Fails closed: no vocabulary, no yes. Chat slips (``application/chat_spelling``): a word found
in no list and known to no language's data is read as the list's word it stretches ("siim",
"simmm", "yess", "claaaro", "agreee": a vowel or the last letter repeated, any letter three
times or more; a doubled consonant inside spells another word: "valle" is no "vale"), and, in
a customer's answer (vocabularies with their language's ``spelled`` words), as the word of five
letters or more it swaps two neighbouring letters of ("confrima"); a word that stands for two
words stands for none. Never in the model's text (courtesy vocabularies have no ``spelled``).
"""

from __future__ import annotations

import functools
import hmac
import itertools
import re
import unicodedata
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum

from agent_service.application.by_identity import by_identity
from agent_service.application.chat_spelling import Spellings
from agent_service.application.text import fold_with_map
from agent_service.domain.conversations import ReplyChoice

_TOKEN = re.compile(r"[^\W_]+(?:'[^\W_]+)*")
_QUESTION = frozenset("?¿")
_INVISIBLE = frozenset({"\ufe0e", "\ufe0f", "\u200d", "\u20e3"})
# What visible removes: the invisible characters and U+1F3FB-1F3FF (emoji skin tones).
_UNSEEN = str.maketrans(dict.fromkeys([*_INVISIBLE, *map(chr, range(0x1F3FB, 0x1F400))]))
_LETTERS_AND_SPACES = re.compile(r"[^\W_]+|\s+")
# Pictographs that carry no answer, whatever the language: plants, fruit, food and drink
# (U+1F330-1F37F), animals and paw prints (U+1F400-1F43F, U+1F980-1F9AE). Read as filler
# emoji ("pode sim 🐶"); faces, hands and signs stay answers or unknown (a face may be a
# doubt or a sneer: "sim 🙄" is no yes unless a list says so).
_DECORATION = re.compile("[\U0001f330-\U0001f37f\U0001f400-\U0001f43f\U0001f980-\U0001f9ae]")


@dataclass(frozen=True, slots=True)
class ConsentVocabulary:
    """One language's consent words (folded phrases) and emoji; see the module's rules."""

    yes: tuple[str, ...]
    no: tuple[str, ...]
    filler: tuple[str, ...]
    yes_by_kind: tuple[tuple[str, tuple[str, ...]], ...] = ()
    """(kind, its own yes phrases) pairs: ``("cancel", ("pode cancelar", ...))``."""
    no_by_kind: tuple[tuple[str, tuple[str, ...]], ...] = ()
    """(kind, its own no phrases) pairs: ``("cancel", ("quero manter", "keep it", ...))``."""
    yes_emoji: tuple[str, ...] = ()
    no_emoji: tuple[str, ...] = ()
    filler_emoji: tuple[str, ...] = ()
    confirm_label: str = ""
    decline_label: str = ""
    change: tuple[str, ...] = ()
    """Words that ask to change what was proposed ("mudar", "another", "otro día")."""
    unsure: tuple[str, ...] = ()
    """Words of a customer not sure yet ("talvez", "let me check"): an answer, never a yes."""
    unclear: tuple[str, ...] = ()
    """Words of a customer who did not understand the question ("não entendi", "huh?")."""
    lead_in: tuple[str, ...] = ()
    """Fillers that lead into what comes next ("e", "na verdade", "and", "actually", "y"):
    after the answer, with nothing but such words after them, the customer has more to say
    ("ok, actually"): no answer yet."""
    hesitation: tuple[str, ...] = ()
    """Sounds of a customer thinking ("hmm", "um", "eh"): fillers, which after a lead-in end
    a message that has more to come ("yes, and um")."""
    conditional: tuple[str, ...] = ()
    """A yes's spelling that is an "if" ("si" without its accent in Spanish), as written:
    trailing off after it, the message is a condition to come ("si...")."""
    lead_in_trailing: tuple[str, ...] = ()
    """The same when the message trails off after them ("ok, então...", "yes, well…"); without
    the trailing dots they end an answer ("ok então", "ok then")."""
    words: frozenset[str] = frozenset()
    """The conversation's language's other known words (folded): read in no other sense."""
    no_alone: tuple[str, ...] = ()
    """No words that are also a function word of the language (Portuguese "no", "in the"):
    a no only standing alone (the end, punctuation, or an answer word after them); before any
    other word they are that function word ("sim, surgiu um imprevisto no trabalho")."""
    spelled: frozenset[str] = frozenset()
    """Every word the language's data know (folded): none is a slip of another word. Given
    (a customer's answer), a word may also be a swap of two letters of a list's word."""

    def yes_for(self, kind: str) -> tuple[str, ...]:
        return next((words for name, words in self.yes_by_kind if name == kind), ())

    def no_for(self, kind: str) -> tuple[str, ...]:
        return next((words for name, words in self.no_by_kind if name == kind), ())


class Answer(StrEnum):
    YES = "yes"
    NO = "no"
    OTHER = "other"


@dataclass(frozen=True, slots=True)
class Reading:
    """What a free text says as an answer: ``answered`` when it had a yes or a no in it (a
    conditional or changed answer when ``answer`` is ``OTHER``); ``leftover`` is what was
    neither yes, no nor filler, as the customer wrote it."""

    answer: Answer
    answered: bool = False
    leftover: str = ""
    unwanted: bool = False
    """The proposal is not wanted as it is: a no with no yes, or a ``change`` phrase left."""
    unclear: bool = False
    """Nothing but words of not understanding the question: it is asked again."""
    more: bool = False
    """The message stops where it announced more ("sim, e..."): no answer yet, whatever its
    other words restate."""


YES, NO, FILLER, UNREADABLE, OWN, UNSURE = "yes", "no", "filler", "unreadable", "own", "unsure"
UNCLEAR = "unclear"


@dataclass(frozen=True, slots=True)
class _Table:
    """A phrase table (folded words → label), its longest phrase's length in words and every
    start of a phrase (the phrases too): the reader tries at each word only the lengths some
    phrase starting with those words has."""

    phrases: dict[tuple[str, ...], str]
    longest: int
    prefixes: frozenset[tuple[str, ...]]
    spellings: Spellings
    """What a word in no phrase may be a slip of (see the module)."""

    @classmethod
    def of(
        cls, phrases: dict[tuple[str, ...], str], spelled: frozenset[str] | None = None
    ) -> _Table:
        """The table of ``phrases``; ``spelled``: the known words, given only to read a
        customer's answer (then a swap of two letters is a slip too)."""
        starts = frozenset(key[:size] for key in phrases for size in range(1, len(key) + 1))
        targets = {word for key, label in phrases.items() if label != OWN for word in key}
        known = {word for key in phrases for word in key} | (spelled or set())
        spellings = Spellings.of_words(targets, known, swapped=spelled is not None)
        return cls(phrases, max(map(len, phrases), default=0), starts, spellings)


@by_identity
@functools.lru_cache(maxsize=64)
def _phrases(vocabularies: tuple[ConsentVocabulary, ...], kind: str) -> _Table:
    """The phrase table (folded words → label) of ``vocabularies`` for ``kind``."""
    table: dict[tuple[str, ...], str] = {}
    for vocabulary in vocabularies:
        own: dict[tuple[str, ...], str] = {}
        v = vocabulary
        kinds = ((NO, v.no_for(kind)), (YES, v.yes_for(kind)), (UNSURE, v.unsure))
        for label, words in ((FILLER, v.filler), (NO, v.no), (YES, v.yes), *kinds):
            for phrase in words:
                key = tuple(_TOKEN.findall(phrase))
                if key and own.get(key, label) != label:
                    raise ValueError(f"consent phrase {phrase!r} is both {own[key]} and {label}")
                if key:
                    own[key] = label
        for word in v.words:  # only the conversation's own language has them
            own.setdefault((word,), OWN)  # its own word: read in no other sense
        for key, label in own.items():
            earlier = table.setdefault(key, label)
            if {earlier, label} == {YES, NO}:
                table[key] = UNREADABLE  # a yes in one language, a no in another
    return _Table.of(table, _known(vocabularies))


def _known(vocabularies: tuple[ConsentVocabulary, ...]) -> frozenset[str] | None:
    """The known words of ``vocabularies``, when they read a customer's answer (see
    ``ConsentVocabulary.spelled``); ``None`` otherwise."""
    if not any(v.spelled for v in vocabularies):
        return None
    return frozenset().union(*(v.spelled for v in vocabularies))


@by_identity
@functools.lru_cache(maxsize=64)
def _emoji(vocabularies: tuple[ConsentVocabulary, ...]) -> tuple[tuple[str, str], ...]:
    found = {
        (visible(e), label)
        for v in vocabularies
        for label, items in ((YES, v.yes_emoji), (NO, v.no_emoji), (FILLER, v.filler_emoji))
        for e in items
        if visible(e)
    }
    return tuple(sorted(found, key=lambda item: -len(item[0])))


def visible(text: str) -> str:
    """``text`` without variation selectors, joiners and skin tones: what every reading of an
    answer reads."""
    return text.translate(_UNSEEN)


def _strange(text: str) -> bool:
    """A symbol or control character (an emoji in no list) or a digit folding drops ("٣")."""
    if any(c.isdigit() and not unicodedata.normalize("NFKD", c).isascii() for c in text):
        return True
    rest = _LETTERS_AND_SPACES.sub("", text)  # letters, digits and spaces are never strange
    return any(unicodedata.category(char)[0] in "SC" for char in rest)


@dataclass(slots=True)
class _Scan:
    counts: dict[str, int]
    left: list[re.Match[str]]
    question: bool
    strange: bool
    bare: str
    index: list[int]
    more: bool = False
    repeated: bool = False
    """A yes word said again right after itself ("yeah yeah", "sí, sí", "tá, tá bom")."""


@dataclass(slots=True)
class _Text:
    """What every reading of an answer reads: the text without invisible characters and with
    its emoji counted by meaning and blanked, folded, with its tokens."""

    bare: str
    emoji: dict[str, int]
    question: bool
    strange: bool
    folded: str
    index: list[int]
    tokens: list[re.Match[str]]


def _prepared(text: str, vocabularies: tuple[ConsentVocabulary, ...]) -> _Text:
    emoji = {YES: 0, NO: 0, FILLER: 0}
    bare = visible(text)
    for symbol, meaning in _emoji(vocabularies):
        if symbol in bare:
            emoji[meaning] += bare.count(symbol)
            bare = bare.replace(symbol, " ")
    bare, decorations = _DECORATION.subn(" ", bare)
    emoji[FILLER] += decorations
    folded, index = fold_with_map(bare)
    question, strange = not _QUESTION.isdisjoint(bare), _strange(bare)
    return _Text(bare, emoji, question, strange, folded, index, list(_TOKEN.finditer(folded)))


def _said_again(before: list[str], words: list[str], table: _Table) -> bool:
    """A yes that says the one before it again ("claro, claro"), or starts with its last word
    ("tá, tá bom"); not when the doubled word is a yes phrase of its own ("sim sim", "sim sim
    sim sim")."""
    if table.phrases.get((words[0], words[0])) == YES or (words == before and len(words) >= 3):
        return False  # emphasis: "sim sim", "claro que sim, claro que sim"
    return words == before or words[0] == before[-1]


def _between(said: _Text, before: re.Match[str], after: re.Match[str]) -> str:
    """What the message has, as written, between two of its tokens (line breaks included)."""
    return said.bare[said.index[before.end() - 1] + 1 : said.index[after.start()]]


def _scan(text: str, vocabularies: tuple[ConsentVocabulary, ...], kind: str) -> _Scan:
    """``text``'s yes and no words counted, and what is left of it after removing every
    phrase and emoji of ``vocabularies``."""
    return _read(_prepared(text, vocabularies), vocabularies, kind)


def _read(said: _Text, vocabularies: tuple[ConsentVocabulary, ...], kind: str) -> _Scan:
    counts = {YES: said.emoji[YES], NO: said.emoji[NO], UNSURE: 0}
    tokens, folded = said.tokens, said.folded
    left: list[re.Match[str]] = []
    table = _phrases(vocabularies, kind)
    segments = _segments(tokens, table)
    if said.question and len(segments) > 1 and _tag(segments, tokens, folded):
        segments = segments[:-1]  # "¿a las 10, no?": a question's tag asks, it answers nothing
    leads = _lead_ins(vocabularies, _TRAILS_OFF.search(said.bare) is not None)
    more = False
    last_yes: list[str] = []
    yeses, repeats = 0, set[int]()  # yes segments, and those that say one again or are said again
    for position, (start, size, found) in enumerate(segments):
        words = [token.group() for token in tokens[start : start + size]]
        if found == YES:
            # said again on the same line ("yeah yeah"); a message of a burst is a line of its
            # own: "sim" sent twice is a yes sent twice
            line = not last_yes or "\n" not in _between(said, tokens[start - 1], tokens[start])
            if last_yes and line and _said_again(last_yes, words, table):
                repeats |= {yeses - 1, yeses}
            yeses += 1
            last_yes = words
        elif found != FILLER:
            last_yes = []
        if more or found is None or found == UNREADABLE:
            left.extend(tokens[start : start + size])
        elif (
            found == FILLER
            and any(counts.values())
            and _more_to_come(said, segments, position, leads)
        ):
            more = True  # "ok, actually...", "yes and um", "sí, si": not done yet
            left.extend(tokens[start : start + size])
        elif found != FILLER:
            counts[found] += 1
    if not more and any(counts.values()) and _trails_off_unanswered(said, segments, leads):
        more = True  # "sim, com a...", "si...": the dots end no answer
        start, size, _ = segments[-1]
        left.extend(tokens[start : start + size])
    # a yes besides the repetition ("yes, yes, go ahead", "tá bom tá bom, faz aí") answers
    repeated = bool(repeats) and len(repeats) == yeses
    return _Scan(counts, left, said.question, said.strange, said.bare, said.index, more, repeated)


_NO_SPELLINGS = Spellings.of_words(())


@dataclass(frozen=True, slots=True)
class _Leads:
    """Words that leave more to come after an answer (folded word tuples): ``first`` opens it
    (the strong lead-ins; the trailing ones too when the message trails off), ``last`` ends
    an unfinished message (lead-ins and hesitations: "yes and um"), ``ifs`` are a yes's
    spelling that is an "if" (Spanish "si" unaccented: "sí, si..."); ``trails_off``: the
    message ends in dots; ``spellings``: their words as chat stretches them ("eee", "hmmm")."""

    first: frozenset[tuple[str, ...]]
    last: frozenset[tuple[str, ...]]
    trails_off: bool
    ifs: frozenset[str] = frozenset()
    spellings: Spellings = _NO_SPELLINGS


@by_identity
@functools.lru_cache(maxsize=64)
def _lead_ins(vocabularies: tuple[ConsentVocabulary, ...], trails_off: bool) -> _Leads:
    def folded(words: Iterable[str]) -> frozenset[tuple[str, ...]]:
        return frozenset(tuple(_TOKEN.findall(p)) for p in words)

    strong = folded(p for v in vocabularies for p in v.lead_in)
    weak = folded(p for v in vocabularies for p in v.lead_in_trailing)
    hesitant = folded(p for v in vocabularies for p in v.hesitation)
    first = strong | weak if trails_off else strong
    ifs = frozenset(w for v in vocabularies for w in v.conditional)
    every = strong | weak | hesitant
    spellings = Spellings.of_words((w for p in every for w in p), swapped=False)
    # vocabularies with no lead-ins (a greeting's) read no message as unfinished
    return _Leads(first, every, trails_off and bool(strong | weak), ifs, spellings)


def _more_to_come(
    said: _Text, segments: Sequence[tuple[int, int, str | None]], position: int, leads: _Leads
) -> bool:
    """Whether, after an answer, the filler at ``position`` leads into more: a lead-in followed
    by nothing, by words that are neither courtesy nor a yes, or by a lead-in or a hesitation
    ("sim, e...", "yes, and at...", "yes and um"; trailing dots:
    ``_trails_off_unanswered``). A lead-in written with an accent it does not have is another
    word ("sim, é": it is)."""
    start, size, _ = segments[position]
    words = _said_words(said, start, size, leads)
    rest = segments[position + 1 :]
    if not _among(words, leads.first) or _accented(said, start, size):
        return False
    tail = [_said_words(said, s, n, leads) for s, n, f in rest if f in (FILLER, YES)]
    # what follows is courtesy, or a yes of its own ("go ahead and book it", "ok e pode
    # marcar"): the answer is done; a no, a hesitation, a yes that is a "well" too ("sí, y
    # bueno") or any other word is more
    courteous = bool(rest) and len(tail) == len(rest)
    return not (courteous and not any(_among(t, leads.last) for t in tail))


def _trails_off_unanswered(
    said: _Text, segments: Sequence[tuple[int, int, str | None]], leads: _Leads
) -> bool:
    """Whether the message trails off after something that is not an answer word ("sim, com
    a...", "sim obrigada..."), after a yes that is also a word leading into more (Spanish
    "bueno...", "well...": a lead-in of the language too) or after a yes spelled as an "if"
    ("si..." in Spanish). Any other yes trailing off answers ("ok...", "sim...": chat's dots)."""
    if not leads.trails_off or not segments:
        return False
    before = _TRAILS_OFF.sub("", said.bare).rstrip()
    if before and not before[-1].isalnum():
        return False  # the dots follow an emoji: its answer ("amiga, ☑...")
    start, size, found = segments[-1]
    if found not in (YES, NO, UNSURE):
        return True
    if found == YES and _among(_said_words(said, start, size, leads), leads.first):
        return True  # "bueno...", "sí, bueno...": the yes that is a "well" leads on
    return found == YES and _written(said, start + size - 1) in leads.ifs


def _said_words(said: _Text, start: int, size: int, leads: _Leads) -> tuple[tuple[str, ...], ...]:
    """A segment's folded words as written, and as the lead-in and hesitation words chat
    stretches them to ("hmmm", "eee", "entãooo")."""
    words = [t.group() for t in said.tokens[start : start + size]]
    return tuple(itertools.product(*((w, *leads.spellings.of(w)) for w in words)))


def _among(readings: tuple[tuple[str, ...], ...], phrases: frozenset[tuple[str, ...]]) -> bool:
    return any(reading in phrases for reading in readings)


def _written(said: _Text, start: int) -> str:
    """A token as the customer wrote it (lower case, accents kept)."""
    token = said.tokens[start]
    return said.bare[said.index[token.start()] : said.index[token.end() - 1] + 1].lower()


def _accented(said: _Text, start: int, size: int) -> bool:
    """A one-letter segment written with an accent folding dropped ("é" read as "e")."""
    return (
        size == 1 and len(said.tokens[start].group()) == 1 and not _written(said, start).isascii()
    )


_TRAILS_OFF = re.compile(r"(?:\.\.+|…)\s*$")


@by_identity
@functools.lru_cache(maxsize=64)
def _unclear_phrases(vocabularies: tuple[ConsentVocabulary, ...], kind: str) -> _Table:
    """The answer table with the ``unclear`` phrases added where no answer phrase is ("uh
    huh" stays a yes, not "uh" and "huh")."""
    table = dict(_phrases(vocabularies, kind).phrases)
    for phrase in (phrase for v in vocabularies for phrase in v.unclear):
        key = tuple(_TOKEN.findall(phrase))
        if key and table.get(key, OWN) == OWN:
            table[key] = UNCLEAR
    return _Table.of(table, _known(vocabularies))


def _only_unclear(said: _Text, vocabularies: tuple[ConsentVocabulary, ...], kind: str) -> bool:
    """``said`` says only that the question was not understood: ``unclear`` phrases, fillers,
    filler emoji and punctuation, nothing else; every phrase of several words written with
    nothing but spaces inside it ("não entendi", never "Não, entendi"); and one of them at
    least, or else words alone, none twice and no filler ("hã?", "sorry, what?"; not "so
    what?", "ha ha"). Read apart from the answer itself: "que" of "sim, no horário que você
    falou" is a restating word there, never a "what?"."""
    if said.emoji[YES] or said.emoji[NO] or said.strange:
        return False
    folded, tokens = said.folded, said.tokens
    found = _segments(tokens, _unclear_phrases(vocabularies, kind))
    if not {label for _, _, label in found} <= {UNCLEAR, FILLER}:
        return False
    unclear = [
        folded[tokens[start].start() : tokens[start + size - 1].end()]
        for start, size, label in found
        if label == UNCLEAR
    ]
    if not all(_SPACES_ONLY.fullmatch(phrase) for phrase in unclear):
        return False  # "Não, entendi": a no, then "understood"
    if any(" " in phrase for phrase in unclear):
        return True  # "hã? não entendi", "não entendi, obrigado"
    # words alone: no filler ("so what?") and no word twice ("ha ha")
    return len(found) == len(set(unclear))


_SPACES_ONLY = re.compile(r"[\w']+(?: +[\w']+)*")


def _tag(
    segments: list[tuple[int, int, str | None]], tokens: list[re.Match[str]], folded: str
) -> bool:
    """A one-word no that ends a question after other words of the same sentence and no yes
    ("é amanhã, não?", "¿a las 10, no?", "tomorrow, no?"): the question's tag, asking for a
    yes. Not "Cancel? No.", "Sim? Não." nor "¿Y si no?": a no after a sentence's end, a no
    with no "?" after it, a no after a yes are answers."""
    start, size, label = segments[-1]
    if label != NO or size != 1 or any(found == YES for _, _, found in segments[:-1]):
        return False
    before = folded[tokens[start - 1].end() : tokens[start].start()] if start else "."
    after = folded[tokens[start].end() :]
    return "?" in after and not after.strip(" ?!.…") and not _SENTENCE_END.search(before)


_SENTENCE_END = re.compile(r"[.!?¿¡…]")


def _segments(tokens: list[re.Match[str]], phrases: _Table) -> list[tuple[int, int, str | None]]:
    """``tokens`` read as phrases of ``table`` leaving the fewest tokens unread (a longer
    phrase first on a tie): each (start, size, label), ``None`` for a token no phrase reads.
    Reading the longest phrase first, left to right, would leave words behind that another
    reading covers ("yes, that works for me": "yes that works" is a phrase, "that works for
    me" too)."""
    count = len(tokens)
    # each word as written, then the words it may be a slip of, the nearest first ("siim")
    options = [(m.group(), *phrases.spellings.of(m.group())) for m in tokens]
    table, longest, prefixes = phrases.phrases, phrases.longest, phrases.prefixes

    def keys(start: int, size: int) -> Iterator[tuple[str, ...]]:
        return itertools.product(*options[start : start + size])

    best: list[tuple[int, tuple[int, str | None]]] = [(0, (0, None))] * (count + 1)
    for start in range(count - 1, -1, -1):
        choice: tuple[int, tuple[int, str | None]] = (best[start + 1][0] + 1, (1, None))
        # no phrase is longer than the words from here some phrase starts with
        reach = 0
        while reach < min(longest, count - start) and any(
            key in prefixes for key in keys(start, reach + 1)
        ):
            reach += 1
        for size in range(reach, 0, -1):
            label = next(filter(None, map(table.get, keys(start, size))), None)
            if label is None or label == OWN:
                continue
            unread = size if label == UNREADABLE else 0
            if unread + best[start + size][0] < choice[0]:
                choice = (unread + best[start + size][0], (size, label))
            if label == UNREADABLE:
                break  # a yes in one language, a no in another: no shorter reading of it
        best[start] = choice
    found = []
    start = 0
    while start < count:
        size, label = best[start][1]
        found.append((start, size, label))
        start += size
    return found


def read_answer(text: str, vocabularies: Sequence[ConsentVocabulary], kind: str = "") -> Reading:
    """The answer ``text`` gives to a proposed change of ``kind`` (see the module's rules)."""
    languages = tuple(vocabularies)
    said = _prepared(_without_function_nos(text, languages, kind), languages)
    if _only_unclear(said, languages, kind):
        return Reading(Answer.OTHER, unclear=True)
    scan = _read(said, languages, kind)
    counts, left = scan.counts, scan.left
    answered = bool(counts[YES] or counts[NO] or counts[UNSURE])
    leftover = _spelled(scan.bare, scan.index, left)
    mixed = (counts[YES] and counts[NO]) or counts[UNSURE]
    if scan.repeated and not (left or scan.more or scan.question or mixed):
        return Reading(Answer.OTHER, True, unclear=True)  # "yeah yeah", "claro, claro": asked again
    if left or scan.more or scan.question or scan.strange or mixed or not answered:
        refused = bool(counts[NO] or counts[UNSURE])  # "não sei, talvez", "sí pero no mañana"
        unwanted = refused or _asks_change([m.group() for m in left], tuple(vocabularies))
        return Reading(Answer.OTHER, answered, leftover, unwanted, more=scan.more)
    return Reading(Answer.YES if counts[YES] else Answer.NO, True)


@dataclass(frozen=True, slots=True)
class Restatement:
    """What a pending action proposes, as an answer may say it back (built by the caller from
    the pending action and the language data): ``agrees`` — every day and time the message
    names is the proposal's own (and it names no other fact: no length, no price, no range);
    ``phrases`` — the folded phrases (as word tuples) it may use to say so: the proposal's
    names and the language's phrases for days and times and for telling an appointment
    ("amanha", "as", "com", "tomorrow", "at"), never a "later", an "instead" or a part of the
    day; ``numbers`` — the bare numbers of its time ("10", "30")."""

    agrees: bool
    phrases: frozenset[tuple[str, ...]]
    numbers: frozenset[str]
    said_back: str = ""
    """The message with the days and times that agree blanked out: what must be left is only
    ``phrases`` and ``numbers`` (besides the yes words)."""

    @property
    def longest(self) -> int:
        return max((len(p) for p in self.phrases), default=0)


_NUMBER_WORD = re.compile(r"(\d+)([^\W\d_]*)(\d*)")  # "10", "10h", "10am", "9h30"


def read_restating(
    text: str,
    vocabularies: Sequence[ConsentVocabulary],
    kind: str,
    proposal: Callable[[], Restatement] | None,
) -> Reading:
    """:func:`read_answer`, and a yes that only says the proposal back ("sim, amanhã às 10h"
    to that very proposal; "yes, with Rafael") is a yes: what is left after the yes words is
    only the proposal's own day, time and names, in words of ``proposal.words``. A question,
    an unknown emoji, a no or hesitation, any other word or number, or a day or time that is
    not the proposal's leaves the answer as it was read (a change, asked again); so does no
    ``proposal`` (what it proposes, built only when an answer is a yes with more in it)."""
    reading = read_answer(text, vocabularies, kind)
    if reading.answer is not Answer.OTHER or not reading.answered or reading.more:
        return reading  # a message still to be finished restates nothing ("sim, e...")
    if reading.unclear:
        return reading  # a yes said over again ("tá, tá") says nothing back: asked again
    if reading.unwanted and not _no_words(text, tuple(vocabularies), kind):
        return reading  # a hesitation or a change, not a no word that may be a preposition
    said = proposal() if proposal is not None else None  # read only for a yes with more
    if said is None or not said.agrees:
        return reading
    back = _without_prepositions(said.said_back or text, tuple(vocabularies), kind, said)
    scan = _scan(back, tuple(vocabularies), kind)
    if scan.question or scan.strange or not scan.counts[YES]:
        return reading
    if scan.counts[NO] or scan.counts[UNSURE]:
        return reading
    if _restates([match.group() for match in scan.left], said):
        return Reading(Answer.YES, True)
    return reading


def _no_words(text: str, vocabularies: tuple[ConsentVocabulary, ...], kind: str) -> bool:
    """Whether ``text`` has no words (and no hesitation: that is never a preposition)."""
    counts = _scan(text, vocabularies, kind).counts
    return bool(counts[NO]) and not counts[UNSURE]


def _without_function_nos(text: str, vocabularies: tuple[ConsentVocabulary, ...], kind: str) -> str:
    """``text`` without its ``no_alone`` words that are function words there: followed, after
    spaces only, by a word that is no answer word (see ``ConsentVocabulary.no_alone``)."""
    # only the conversation's own language (the vocabulary with its known words) reads them so:
    # Spanish "no" is a no in a Spanish conversation
    alone = {word for v in vocabularies if v.words for word in v.no_alone}
    if not alone:
        return text
    folded, index = fold_with_map(text)
    table = _phrases(vocabularies, kind).phrases
    cut = [
        token
        for token, following in itertools.pairwise(_TOKEN.finditer(folded))
        if token.group() in alone
        and not folded[token.end() : following.start()].strip()
        and table.get((following.group(),)) in (None, OWN)
    ]
    for token in reversed(cut):
        start, end = index[token.start()], index[token.end() - 1] + 1
        text = text[:start] + " " * (end - start) + text[end:]
    return text


def _without_prepositions(
    text: str, vocabularies: tuple[ConsentVocabulary, ...], kind: str, proposal: Restatement
) -> str:
    """``text`` without the no words that are also a word of ``proposal``'s phrases and open
    one, right after it (spaces only): Portuguese "no" of "no horário que você falou" is "in
    the" (a preposition needs what follows it; "sim, no", "ok, no, amanhã", "sim no no
    horário" stay a yes and a no)."""
    folded, index = fold_with_map(text)
    tokens = list(_TOKEN.finditer(folded))
    table = _phrases(vocabularies, kind).phrases
    starts = {phrase[0] for phrase in proposal.phrases}
    cut = [
        token
        for token, following in itertools.pairwise(tokens)
        if table.get((token.group(),)) == NO
        and (token.group(),) in proposal.phrases
        and not folded[token.end() : following.start()].strip()  # "no, amanhã" is a no
        and table.get((following.group(),)) != NO  # "no no": a no
        and (following.group() in starts or _number(following.group(), proposal))
    ]
    for token in reversed(cut):
        start, end = index[token.start()], index[token.end() - 1] + 1
        text = text[:start] + " " * (end - start) + text[end:]
    return text


def _restates(words: list[str], proposal: Restatement) -> bool:
    """Whether ``words`` are, in order, whole phrases of ``proposal`` and its numbers (a
    phrase's words alone are nothing: "depois" of "depois de amanhã" is a "later")."""
    start, longest, numbers = 0, proposal.longest, 0
    while start < len(words):
        sizes = range(min(longest, len(words) - start), 0, -1)
        size = next((n for n in sizes if tuple(words[start : start + n]) in proposal.phrases), 0)
        if not size:
            numbers += 1  # the time said once: a second number is a second time or day
            if numbers > 1 or not _number(words[start], proposal):
                return False
        start += size or 1
    return True


def _number(word: str, proposal: Restatement) -> bool:
    if word in proposal.numbers and word.isalpha():  # the hour in words, where the date
        return True  # grammar read the proposal's time ("a las tres está bien")
    number = _NUMBER_WORD.fullmatch(word)
    if number is None:
        return False
    hour, mark, minute = number.groups()
    return (
        str(int(hour)) in proposal.numbers
        and (not mark or (mark,) in proposal.phrases)
        and (not minute or str(int(minute)) in proposal.numbers)
    )


def _asks_change(words: list[str], vocabularies: tuple[ConsentVocabulary, ...]) -> bool:
    """Whether ``words`` (what an answer left) hold a ``change`` phrase of any language."""
    phrases, sizes = _change_phrases(vocabularies)
    return any(
        tuple(words[start : start + size]) in phrases
        for size in sizes
        for start in range(len(words) - size + 1)
    )


@by_identity
@functools.lru_cache(maxsize=64)
def _change_phrases(
    vocabularies: tuple[ConsentVocabulary, ...],
) -> tuple[frozenset[tuple[str, ...]], tuple[int, ...]]:
    """The ``change`` phrases of ``vocabularies`` (as word tuples) and their distinct lengths:
    a set lookup per length and place instead of a comparison per phrase and place."""
    phrases = frozenset(tuple(_TOKEN.findall(p)) for v in vocabularies for p in v.change)
    return phrases, tuple(sorted({len(phrase) for phrase in phrases}))


def only_words_of(text: str, vocabularies: Sequence[ConsentVocabulary]) -> bool:
    """Whether nothing of ``text`` is left after removing every phrase and emoji of
    ``vocabularies`` and punctuation (another symbol, e.g. an emoji in no list, is left)."""
    scan = _scan(text, tuple(vocabularies), "")
    return not scan.left and not scan.strange


def _spelled(text: str, index: list[int], left: list[re.Match[str]]) -> str:
    if not left:
        return ""
    return text[index[left[0].start()] : index[left[-1].end() - 1] + 1].strip()


class Outcome(StrEnum):
    """What becomes of the stored pending action with this message."""

    NONE = "none"  # nothing was pending and no decision was sent
    CONFIRMED = "confirmed"  # run it now, in code
    DECLINED = "declined"
    EXPIRED = "expired"  # a yes (or a confirm) after the time to live: nothing runs
    NOT_PENDING = "not_pending"  # a structured decision for an id that is not the pending one
    CHANGED = "changed"  # an answer with something else in it: ask again, say what changed
    UNCLEAR = "unclear"  # the question was not understood: asked again, nothing declined
    UNSEEN = "unseen"  # a typed yes sooner than the question could be read: asked again
    DROPPED = "dropped"  # another message: the pending action ends
    ASIDE = "aside"  # a question about the business meanwhile: answered, then asked again
    ALREADY_DONE = "already_done"  # a confirmation of what already ran: its outcome is told


@dataclass(frozen=True, slots=True)
class StructuredDecision:
    """A tapped quick reply: confirm or decline of the pending action ``pending_id``."""

    choice: ReplyChoice
    pending_id: str


@dataclass(frozen=True, slots=True)
class PendingView:
    """What the policy needs of a stored pending action."""

    id: str
    proposed_at: datetime | None
    kind: str = ""


def alive(pending: PendingView, now: datetime, ttl_seconds: float) -> bool:
    """Proposed at a known (aware) instant no later than now, and not expired."""
    proposed = pending.proposed_at
    if proposed is None or proposed.tzinfo is None:
        return False
    return proposed <= now <= proposed + timedelta(seconds=ttl_seconds)


def same_id(sent: str, pending: str) -> bool:
    """Constant-time comparison of a sent id with the pending one (ids are bearer secrets)."""
    return bool(pending) and hmac.compare_digest(sent.encode(), pending.encode())


def decide(
    pending: PendingView | None,
    reading: Reading | None,
    decision: StructuredDecision | None,
    now: datetime,
    ttl_seconds: float,
    aside: bool = False,
    unread: bool = False,
) -> Outcome:
    """The outcome for ``pending`` of a message that is a structured ``decision`` or a free
    text read as ``reading`` (see the module's rules); ``aside``: the text — besides a yes in
    it — asks only about the business (its FAQ or catalog, as the language data reads it, or a
    question that names no change): answered, and the proposal asked again (a yes beside a
    question confirms nothing: "sim, vocês aceitam pix?" may be a condition); ``unread``: the
    message arrived sooner after the question was sent than anyone could read it."""
    if decision is not None:
        if pending is None or not same_id(decision.pending_id, pending.id):
            return Outcome.NOT_PENDING
        if decision.choice is ReplyChoice.DECLINE:
            return Outcome.DECLINED
        return Outcome.CONFIRMED if alive(pending, now, ttl_seconds) else Outcome.EXPIRED
    if pending is None or reading is None:
        return Outcome.NONE
    if reading.answer is Answer.NO:
        return Outcome.DECLINED
    living = alive(pending, now, ttl_seconds)
    if reading.unclear and living:
        return Outcome.UNCLEAR
    if reading.answer is Answer.YES:
        if unread and living:
            return Outcome.UNSEEN
        return Outcome.CONFIRMED if living else Outcome.EXPIRED
    if aside and not reading.unwanted and living:
        return Outcome.ASIDE
    if reading.answered and not reading.unwanted:
        return Outcome.CHANGED if living else Outcome.EXPIRED
    return Outcome.DROPPED
