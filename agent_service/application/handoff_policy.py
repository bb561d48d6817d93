"""Handoff by explicit request: when the customer asks to talk to a person, in code.

Rules (pure; the phrases come from each language's ``[handoff]`` data through the language
port). A message asks for a person when one of its clauses (split at ``. , ; : ! ?`` and line
breaks) has, on folded words:

1. a ``talk`` phrase followed by a ``person`` (only ``between`` words in between): "falar com
   um atendente", "speak to the manager";
2. a ``want`` phrase followed by a ``person`` that ends the clause (only ``between`` or filler
   words after it): "quero um atendente", "tem alguém aí?" — but not "quero cabelo humano"
   nor "I want a human hair extension";
3. a ``person`` followed, at most three words later, by a ``talk`` phrase that ends the
   clause: "is there a real person I can talk to?";
4. a whole message of nothing but ``between``/filler words and one ``person``:
   "atendente!", "human please".

A lone person word inside another request ("Vocês fazem extensão de cabelo humano?") is never
a request. Fails closed: no phrases, no handoff in code (the model may still hand off).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass

from agent_service.application.by_identity import by_identity
from agent_service.application.text import normalize

_CLAUSE = re.compile(r"[.,;:!?\n]+")
_TOKEN = re.compile(r"[^\W_]+(?:'[^\W_]+)*")
MAX_GAP = 3
MAX_CHARS = 2000


@dataclass(frozen=True, slots=True)
class HandoffPhrases:
    """One language's request phrases (folded); see the module's rules."""

    talk: tuple[str, ...]
    want: tuple[str, ...]
    between: tuple[str, ...]
    person: tuple[str, ...]
    filler: tuple[str, ...] = ()


Phrase = tuple[str, ...]


@dataclass(frozen=True, slots=True)
class _Grammar:
    talk: frozenset[Phrase]
    want: frozenset[Phrase]
    between: frozenset[Phrase]
    person: frozenset[Phrase]
    filler: frozenset[Phrase]


@by_identity
@functools.lru_cache(maxsize=16)
def _grammar(phrases: tuple[HandoffPhrases, ...]) -> _Grammar:
    def union(name: str) -> frozenset[Phrase]:
        return frozenset(
            tuple(_TOKEN.findall(p)) for group in phrases for p in getattr(group, name) if p
        )

    return _Grammar(*(union(n) for n in ("talk", "want", "between", "person", "filler")))


def asks_for_person(text: str, phrases: Sequence[HandoffPhrases]) -> bool:
    """Whether ``text`` explicitly asks to talk to a person (see the module's rules)."""
    grammar = _grammar(tuple(phrases))
    if not grammar.person:
        return False
    folded = normalize(text[:MAX_CHARS])
    words = _TOKEN.findall(folded)
    if _first_words(grammar.person).isdisjoint(words):
        return False  # every rule needs a person phrase (the clauses hold the same words)
    if _only_person(words, grammar):
        return True
    clauses = [_TOKEN.findall(c) for c in _CLAUSE.split(folded)]
    return any(_asks(words, grammar) for words in clauses if words)


def _asks(words: list[str], g: _Grammar) -> bool:
    for start in range(len(words)):
        for size in _sizes(words, start, g.talk):
            if _person_after(words, start + size, g) is not None:
                return True
        for size in _sizes(words, start, g.want):
            end = _person_after(words, start + size, g)
            if end is not None and _ends(words, end, g):
                return True
        for size in _sizes(words, start, g.person):
            if _talk_ends(words, start + size, g):
                return True
    return False


def _sizes(words: list[str], start: int, phrases: frozenset[Phrase]) -> list[int]:
    if start >= len(words) or words[start] not in _first_words(phrases):
        return []
    longest = min(4, len(words) - start)
    return [n for n in range(1, longest + 1) if tuple(words[start : start + n]) in phrases]


@functools.lru_cache(maxsize=64)
def _first_words(phrases: frozenset[Phrase]) -> frozenset[str]:
    return frozenset(phrase[0] for phrase in phrases)


def _skip(words: list[str], start: int, *groups: frozenset[Phrase]) -> int:
    """The first index at or after ``start`` that is not inside a phrase of ``groups``."""
    position = start
    while position < len(words):
        size = max((n for g in groups for n in _sizes(words, position, g)), default=0)
        if not size:
            break
        position += size
    return position


def _person_after(words: list[str], start: int, g: _Grammar) -> int | None:
    """Where a person phrase at ``start`` (after ``between`` words) ends, or None."""
    position = _skip(words, start, g.between)
    sizes = _sizes(words, position, g.person)
    return position + max(sizes) if sizes else None


def _ends(words: list[str], position: int, g: _Grammar) -> bool:
    return _skip(words, position, g.between, g.filler) == len(words)


def _talk_ends(words: list[str], position: int, g: _Grammar) -> bool:
    for gap in range(MAX_GAP + 1):
        for size in _sizes(words, position + gap, g.talk):
            if _ends(words, position + gap + size, g):
                return True
    return False


def _only_person(words: list[str], g: _Grammar) -> bool:
    start = _skip(words, 0, g.between, g.filler)
    end = _person_after(words, start, g)
    return end is not None and _ends(words, end, g)
