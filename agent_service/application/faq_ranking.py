"""How FAQ entries are matched to a question: BM25 over stemmed pt/en words, accents, case
and stopwords ignored.

Both the MongoDB repository and the in-memory fake rank with these functions, so the search
behaves the same everywhere.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass

import snowballstemmer  # type: ignore[import-untyped]

from agent_service.application.bm25 import Okapi
from agent_service.domain.catalog import FaqEntry

_WORD = re.compile(r"[a-z0-9]+")
_STOPWORD_TEXT = """
    a o as os um uma uns umas de da do das dos dum duma em na no nas nos num numa por pelo pela
    pelos pelas para pra pro com sem sob sobre e ou mas que se como qual quais quando onde
    quem eu voce voces ele ela eles elas nos meu minha seu sua seus suas isso isto esse essa
    este esta aquilo ao aos ate ja nao sim tem ter ha vou vai ser sao foi era mais muito pode
    posso gostaria queria quero saber favor ola oi obrigado obrigada bom boa dia tarde noite
    the an and or but of to in on at by for with without from about as is are was were be been
    do does did how what which when where who whom why can could would should will i you he she
    it we they my your his her its our their me us them this that these those there here not
    no yes please hi hello thanks want like know have has had any some
    vc vcs ce gente pessoal guys folks ya ur pls plz tb tbm
"""
STOPWORDS = frozenset(_STOPWORD_TEXT.split())


def terms(text: str) -> frozenset[str]:
    """The distinct meaningful words of ``text``: lowercased, accents removed, stopwords and
    one-letter words dropped."""
    folded = unicodedata.normalize("NFKD", text.casefold())
    plain = "".join(char for char in folded if not unicodedata.combining(char))
    return frozenset(
        word for word in _WORD.findall(plain) if len(word) > 1 and word not in STOPWORDS
    )


def entry_terms(entry: FaqEntry) -> frozenset[str]:
    """The words an entry can be found by: its questions, tags and answers (every
    language's)."""
    return terms(" ".join((_about(entry), _answers(entry))))


def _about(entry: FaqEntry) -> str:
    """What an entry is about: its questions in every language and its tags."""
    return " ".join((entry.question, *(e.question for e in entry.localized), *entry.tags))


def _answers(entry: FaqEntry) -> str:
    return " ".join((entry.answer, *(e.answer for e in entry.localized)))


MIN_SCORE = 0.1
"""Below this BM25 score an entry does not answer the question (the honest "not found")."""
ABOUT_WEIGHT = 2.0
"""The question and tags (what an entry is about) are one BM25 field and count twice; the
answer is another field: a word only in an answer ("antes") cannot outvote the subject."""
_STEMMERS = (snowballstemmer.stemmer("portuguese"), snowballstemmer.stemmer("english"))


WEAK_WORDS = frozenset({"onde", "where"})
"""Stopwords that still find an entry when a question has no other word ("where are you
guys?" asks for the address); with any other word they stay out ("where can I park?")."""


def stems(text: str, keep: frozenset[str] = frozenset()) -> list[str]:
    """The BM25 tokens of ``text``: each meaningful word (see :func:`terms`) stemmed in
    Portuguese and in English, plus its first ``PREFIX`` letters, so "abrem"/"abre",
    "located"/"location" and "horas"/"horário" meet whichever language the entry or the
    question is in."""
    return list(_stems(text, keep))


@functools.lru_cache(maxsize=2048)  # pure; every search re-reads the same entries' texts
def _stems(text: str, keep: frozenset[str]) -> tuple[str, ...]:
    folded = unicodedata.normalize("NFKD", text.casefold())
    plain = "".join(char for char in folded if not unicodedata.combining(char))
    words = [w for w in _WORD.findall(plain) if len(w) > 1 and (w not in STOPWORDS or w in keep)]
    stemmed = {stem for stemmer in _STEMMERS for stem in stemmer.stemWords(words)}
    # Snowball leaves some verb forms whole ("abrem", "horas" vs "horário"): a short prefix
    # joins a word's family too.
    prefixes = {f"{word[:PREFIX]}~" for word in words if len(word) >= PREFIX}
    return tuple(sorted(stemmed | prefixes))


PREFIX = 4


IDF_FLOOR = 0.2
"""Okapi's IDF is negative for a word in most entries (and for every word of a one-entry FAQ);
floored, a shared word still counts a little instead of pushing the entry down."""


@functools.lru_cache(maxsize=64)  # read-only once built; a tenant's FAQ is searched again
def _bm25(corpus: tuple[tuple[str, ...], ...]) -> Okapi:
    return Okapi(corpus, idf_floor=IDF_FLOOR)


@dataclass(frozen=True, slots=True)
class Scored:
    """An entry with its BM25 scores: on what it is about (question and tags) and on its
    answer."""

    entry: FaqEntry
    about: float
    answer: float

    @property
    def total(self) -> float:
        return ABOUT_WEIGHT * self.about + self.answer


@dataclass(frozen=True, slots=True)
class Threshold:
    """When an entry answers a question (calibrated per language, see ``[faq]`` in the data
    files): its question or tags share a word with the question (``about >= min_about``), or
    its answer alone scores ``min_answer_only`` — a word only in an answer ("4 horas antes")
    is otherwise no reason to answer with it."""

    min_about: float
    min_answer_only: float

    def is_about(self, scored: Scored) -> bool:
        """The entry's question or tags answer the question."""
        return scored.about >= self.min_about

    def answers(self, scored: Scored) -> bool:
        return self.is_about(scored) or scored.answer >= self.min_answer_only


def scored(query: str, entries: Iterable[FaqEntry]) -> list[Scored]:
    """Every entry's scores for ``query``, best total first (ties: question, then id)."""
    wanted = stems(query) or stems(query, keep=WEAK_WORDS)
    candidates = list(entries)
    if not wanted or not candidates:
        return []
    about = _bm25(tuple(_stems(_about(e), WEAK_WORDS) for e in candidates))
    answer = _bm25(tuple(_stems(_answers(e), frozenset()) or ("_",) for e in candidates))
    rows = [
        Scored(entry, float(a), float(b))
        for entry, a, b in zip(
            candidates, about.get_scores(wanted), answer.get_scores(wanted), strict=True
        )
    ]
    return sorted(rows, key=lambda row: (-row.total, row.entry.question, str(row.entry.id)))


def answering(
    query: str, entries: Iterable[FaqEntry], limit: int, threshold: Threshold
) -> list[Scored]:
    """The entries that answer ``query`` (``threshold``), best first: the FAQ abstains —
    returns nothing — when none does. When an entry is about the question (its question,
    tags or topics), an entry found only by a word of its answer is no answer: "Antes, qual
    é o endereço?" is about the address, whatever the cancellation policy's "2 horas antes"
    shares with it."""
    rows = [row for row in scored(query, entries) if threshold.answers(row)]
    if any(threshold.is_about(row) for row in rows):
        rows = [row for row in rows if threshold.is_about(row)]
    return rows[:limit]


def rank(query: str, entries: Iterable[FaqEntry], limit: int) -> list[FaqEntry]:
    """The entries that answer ``query``, best first: BM25 (Okapi) over question, tags and
    answer with pt/en stemming and accent folding; scores below ``MIN_SCORE`` are dropped;
    ties go to the question text, then the id, so the order is stable."""
    if limit <= 0:
        return []
    return [row.entry for row in scored(query, entries) if row.total >= MIN_SCORE][:limit]
