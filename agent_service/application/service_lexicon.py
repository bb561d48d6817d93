# Over 300 lines: the lexicon's matching rules and the memoised lexicon, one unit.
"""Which catalog service a customer means, when the salon's own words do not say it.

A built-in lexicon names the *kinds* of service businesses offer ("haircut", "beard",
"manicure", "physiotherapy"...), each with the phrases customers and catalogs use for it in
every language (the data files' ``[services]`` table). Rules:

* Words are compared folded. Two words are alike when equal (1.0), when one is the other with
  a short ending ("unha"/"unhas", "cortar"/"corte": 0.8, see :func:`word_similarity`), or when
  both have five letters or more and their ``rapidfuzz`` ratio is at least ``FUZZY_RATIO``
  (a typo: "manicuri"/"manicure", 0.8) — never for a word the languages' data know that is no
  word of the lexicon: "cuanto" is no typo of "canto" (it still shares a stem: "barber" and
  "barbeiro").
* A phrase is *in* a text when its words appear there in order, each alike to the text's word
  (a word shorter than four letters only as itself or its plural: "pe" is in "os pes", never in
  "pela"); its strength is its number of words (a longer phrase is more specific).
* A message names the kinds of the phrases in it, save a phrase inside a longer one found of
  another kind that does not refine it (a kind refines another when one of its phrases holds
  one of the other's word for word): "hearing test" names no trial by its "test", "corte
  feminino" is still a "corte".
* A catalog entry has a kind when a phrase of that kind is in its name or one of its aliases;
  its *coverage* is the share of the entry's significant words that phrase covers ("Escova
  Modeladora" is all blow-dry; "Corte Feminino c/ Escova" a third blow-dry).
* :meth:`ServiceLexicon.scores`: for each entry, the sum of ``strength × coverage`` over the
  kinds the text names (each kind said that the entry has adds: "private pilates" fits
  "Pilates Individual" by its pilates and its "individual", "Pilates em Dupla" by its pilates
  only); an entry with none scores 0, and so does every entry when the text names only
  *qualifier* kinds (who the service is for: a pet's size, a private class): "pro meu
  cachorro" names no service. The caller picks the unique best and asks when two entries
  tie: the lexicon never breaks a tie by guessing.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence

from rapidfuzz import fuzz

from agent_service.application.text import tokens

FUZZY_RATIO = 85.0
FUZZY_MIN_LENGTH = 5
LOOSE = 0.8
SHORT = 4
MEMO_ENTRIES = 4096


@functools.lru_cache(maxsize=8192)
def word_similarity(left: str, right: str, typo: bool = True) -> float:
    """1.0 for the same folded word, 0.8 for the same word with another ending or (``typo``)
    a typo."""
    if left == right:
        return 1.0
    short, long_ = sorted((left, right), key=len)
    if long_.startswith(short) and len(long_) - len(short) <= 3:
        return LOOSE
    shared = 0
    for a, b in zip(short, long_, strict=False):
        if a != b:
            break
        shared += 1
    if shared >= 5 and shared >= len(short) - 2:
        return LOOSE
    # A verb names its service: "cortar"/"corte", "depilar"/"depilacao".
    for word, other in ((left, right), (right, left)):
        stem = word[:-2]
        if word.endswith(("ar", "er", "ir")) and len(stem) >= 4 and other.startswith(stem):
            return LOOSE
    if typo and len(short) >= FUZZY_MIN_LENGTH and fuzz.ratio(left, right) >= FUZZY_RATIO:
        return LOOSE
    return 0.0


# Letters the spoken languages write differently in the same learned word (Greek and Latin
# roots): "psychology"/"psicologia", "therapy"/"terapia", "nutrition"/"nutricao"/"nutricion".
_COGNATE_LETTERS = (("ph", "f"), ("th", "t"), ("rh", "r"), ("ch", "c"), ("y", "i"), ("k", "c"))
_COGNATE_ENDINGS = (("coes", "cion"), ("cao", "cion"), ("soes", "sion"), ("sao", "sion"))
COGNATE_MIN = 6
"""Words shorter than this are compared as they are (no cognate spelling, no compound tail)."""
COMPOUND_HEAD = 3
"""The shortest first part of a compound word whose tail a customer says ("psico|terapia")."""


@functools.lru_cache(maxsize=8192)
def cognate(word: str) -> str:
    """A folded word spelled as its cognates in the spoken languages are: one spelling for
    ph/f, th/t, rh/r, ch/c, y/i, k/c, -tion-/-cion-; the endings -ção and -ción as one, -são
    and -sion as one; a doubled letter once ("session"/"sessão"). Short words stay as they are."""
    if len(word) < COGNATE_MIN:
        return word
    for written, said in (*_COGNATE_LETTERS, ("tion", "cion")):
        word = word.replace(written, said)
    for ending, said in _COGNATE_ENDINGS:
        if word.endswith(ending):
            word = word[: -len(ending)] + said
            break
    return "".join(c for i, c in enumerate(word) if i == 0 or c != word[i - 1])


@functools.lru_cache(maxsize=8192)
def name_word_similarity(said: str, name_word: str) -> float:
    """How alike a customer's word is to a word of a catalog name: :func:`word_similarity`;
    else the two spelled as cognates (:func:`cognate`: "therapy" is "terapia", "nutritionist"
    "nutricao"); else the word said is the tail of a compound name word ("terapia" of
    "psicoterapia", "therapy" too) — each a loose likeness."""
    direct = word_similarity(said, name_word)
    if direct or min(len(said), len(name_word)) < COGNATE_MIN - 1:
        return direct
    left, right = cognate(said), cognate(name_word)
    if word_similarity(left, right, typo=False):
        return LOOSE
    for head in range(COMPOUND_HEAD, len(right) - COGNATE_MIN + 2):
        if word_similarity(left, right[head:], typo=False):
            return LOOSE
    return 0.0


def phrase_word_alike(phrase_word: str, word: str, typo: bool = True) -> bool:
    """A phrase's word and a text's word: alike (:func:`word_similarity`), except that a word
    shorter than ``SHORT`` letters must be the same or its plural ("pe"/"pes", never "pela")."""
    if min(len(phrase_word), len(word)) < SHORT:
        short, long_ = sorted((phrase_word, word), key=len)
        return long_ in (short, short + "s")
    return word_similarity(phrase_word, word, typo) > 0


def phrase_in(
    phrase: Sequence[str],
    words: Sequence[str],
    exact: frozenset[str] = frozenset(),
    spelled: frozenset[str] = frozenset(),
) -> bool:
    """Whether ``phrase``'s words appear in ``words`` in order, next to each other, alike (a
    word of ``exact`` only as itself; a word of ``spelled`` — a word the languages know — never
    as a typo of another: "cuanto" is no "canto", "barber" still "barbeiro")."""
    size = len(phrase)
    return any(
        all(
            p == w if p in exact or w in exact else phrase_word_alike(p, w, w not in spelled)
            for p, w in zip(phrase, words[i : i + size], strict=True)
        )
        for i in range(len(words) - size + 1)
    )


def _starts(phrase: Sequence[str], alike: Sequence[frozenset[str]]) -> list[int]:
    """Where ``phrase``'s words are, in order and next to each other, among the words each
    of a text's words is alike (:meth:`ServiceLexicon._find_alike`): :func:`phrase_in`."""
    size = len(phrase)
    return [
        i
        for i in range(len(alike) - size + 1)
        if all(word in alike[i + j] for j, word in enumerate(phrase))
    ]


def _refinements(phrases: Mapping[str, Sequence[Sequence[str]]]) -> dict[str, set[str]]:
    """kind -> the other kinds one of its phrases holds a phrase of, word for word (each
    phrase's runs of words looked up once, not every pair of phrases compared)."""
    kinds_of: dict[tuple[str, ...], set[str]] = {}
    for kind, said in phrases.items():
        for phrase in said:
            kinds_of.setdefault(tuple(phrase), set()).add(kind)
    refines: dict[str, set[str]] = {kind: set() for kind in phrases}
    for kind, said in phrases.items():
        for phrase in said:
            for start in range(len(phrase)):
                for end in range(start + 1, len(phrase) + 1):
                    refines[kind] |= kinds_of.get(tuple(phrase[start:end]), set()) - {kind}
    return refines


class ServiceLexicon:
    """Kinds of service and their phrases (every language), and the words that never count
    towards an entry's name (function words: "de", "dos", "c")."""

    def __init__(
        self,
        kinds: Mapping[str, Sequence[str]],
        stopwords: frozenset[str] = frozenset(),
        never_alike: frozenset[str] = frozenset(),
        qualifiers: frozenset[str] = frozenset(),
        spelled: frozenset[str] = frozenset(),
    ) -> None:
        self.kinds = {kind: tuple(phrases) for kind, phrases in kinds.items()}
        self.stopwords = stopwords
        self.qualifiers = qualifiers
        # A message's word that names no service in any language ("una", "pedir": an article,
        # a verb) is only ever itself, never alike another word ("una" is no "unas", nails;
        # "pedir una cita" no "pedi", a pedicure), unless it is a phrase of its own ("pe").
        alone = {p for phrases in kinds.values() for p in phrases if len(tokens(p)) == 1}
        self._never_alike = never_alike - {word for p in alone for word in tokens(p)}
        own = {word for phrases in self._phrases_of(kinds) for word in phrases}
        self._spelled = spelled - own  # known words, none of the lexicon's: never a typo
        self._phrases = {
            kind: tuple(tuple(tokens(p)) for p in phrases) for kind, phrases in kinds.items()
        }
        self._vocabulary = tuple(sorted(own))
        # A kind refines another when one of its phrases holds one of the other's word for
        # word ("corte feminino", "corte"): a phrase inside a longer one of a kind that
        # refines it still names its kind.
        self._refines = _refinements(self._phrases)
        # Pure functions of the lexicon's fixed data, asked again on every turn for the same
        # catalog names, messages and words: memoised per lexicon, bounded
        # (docs/architecture.md).
        self._kinds_in = functools.lru_cache(maxsize=MEMO_ENTRIES)(self._find_kinds_in)
        self._kinds_of = functools.lru_cache(maxsize=MEMO_ENTRIES)(self._find_kinds_of)
        self._alike = functools.lru_cache(maxsize=MEMO_ENTRIES)(self._find_alike)

    @staticmethod
    def _phrases_of(kinds: Mapping[str, Sequence[str]]) -> list[list[str]]:
        return [tokens(p) for phrases in kinds.values() for p in phrases]

    def kinds_in(self, text: str) -> dict[str, int]:
        """kind -> strength (words of its longest phrase found in ``text``)."""
        return dict(self._kinds_in(text))

    def kinds_of(self, names: Sequence[str]) -> dict[str, float]:
        """kind -> coverage for an entry called ``names`` (its name, then its aliases)."""
        return dict(self._kinds_of(tuple(names)))

    def _find_alike(self, word: str) -> frozenset[str]:
        """The lexicon's phrase words a message's ``word`` is alike, by :func:`phrase_in`'s
        rule (a word of ``never_alike`` only itself; a ``spelled`` word never as a typo),
        found once per word rather than once per phrase and message."""
        exact = self._never_alike
        if word in exact:
            return frozenset({word}) & frozenset(self._vocabulary)
        typo = word not in self._spelled
        return frozenset(
            p
            for p in self._vocabulary
            if (p == word if p in exact else phrase_word_alike(p, word, typo))
        )

    def spans(self, text: str) -> list[tuple[int, int, str]]:
        """Every phrase found in ``text``: its first word's index, its end, its kind."""
        alike = [self._alike(word) for word in tokens(text)]
        return [
            (start, start + len(p), kind)
            for kind, phrases in self._phrases.items()
            for p in phrases
            if p
            for start in _starts(p, alike)
        ]

    def _find_kinds_in(self, text: str) -> dict[str, int]:
        """Every phrase found, then the kinds of those not inside a longer one found of
        another kind, unless that kind refines theirs (``_refines``): "hearing test" says no
        "test" ("testar", a trial) of its own, while "corte feminino" is still a "corte"."""
        spans = self.spans(text)
        found: dict[str, int] = {}
        for start, end, kind in spans:
            if any(
                s <= start and end <= e and e - s > end - start and kind not in self._refines[k]
                for s, e, k in spans
            ):
                continue
            found[kind] = max(found.get(kind, 0), end - start)
        return found

    def _find_kinds_of(self, names: tuple[str, ...]) -> dict[str, float]:
        covered: dict[str, float] = {}
        for name in names:
            words = tokens(name)
            significant = [w for w in words if len(w) >= 2 and w not in self.stopwords]
            if not significant:
                continue
            for kind, phrases in self._phrases.items():
                for phrase in phrases:
                    if phrase and phrase_in(phrase, words, self._never_alike):
                        share = min(1.0, len(phrase) / len(significant))
                        covered[kind] = max(covered.get(kind, 0.0), share)
        return covered

    def scores(
        self, text: str, entries: Sequence[Sequence[str]], qualifiers: bool = True
    ) -> list[float]:
        """How well each entry (its names) fits the kinds ``text`` names (see the module);
        without ``qualifiers``, by the kinds of service only, never by whom it is for."""
        said = self.kinds_in(text)
        if said.keys() <= self.qualifiers:  # nothing said, or only whom it is for
            return [0.0 for _ in entries]
        if not qualifiers:
            said = {
                kind: strength for kind, strength in said.items() if kind not in self.qualifiers
            }
        return [self._score(said, self.kinds_of(names)) for names in entries]

    @staticmethod
    def _score(said: Mapping[str, int], kinds: Mapping[str, float]) -> float:
        return round(sum(said[kind] * kinds[kind] for kind in said if kind in kinds), 6)


def unique_best(scores: Sequence[float]) -> int | None:
    """The index of the one highest positive score, or ``None`` (none, or a tie)."""
    if not scores:
        return None
    top = max(scores)
    if top <= 0 or list(scores).count(top) > 1:
        return None
    return list(scores).index(top)


def tied_best(scores: Sequence[float]) -> list[int]:
    """The indexes sharing the highest positive score (several: the customer is asked)."""
    top = max(scores, default=0.0)
    return [i for i, score in enumerate(scores) if top > 0 and score == top]
