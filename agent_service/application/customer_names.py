"""The customer's name when they introduce themselves ("me chamo Ana", "my name is John").

Rules (pure; the phrases come from each language's ``[names]`` data through the language
port): after an ``intro`` phrase (folded, followed by a space; one ending in ":" by anything),
up to three words, in the customer's spelling, capitalised; the name stops at a ``not_name``
word ("sou cliente" is no name), keeps ``particles`` lowercase inside it ("Maria da Silva")
and never ends with one; its first word has at least two letters.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass

from agent_service.application.by_identity import by_identity
from agent_service.application.text import fold_with_map

_NAME_WORD = re.compile(r"[^\W\d_]+(?:['-][^\W\d_]+)*")
MAX_WORDS = 3


@dataclass(frozen=True, slots=True)
class NamePhrases:
    """One language's introductions, name particles and words that are never a name."""

    intro: tuple[str, ...]
    particles: tuple[str, ...]
    not_name: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class _Rules:
    intro: re.Pattern[str]
    particles: frozenset[str]
    not_name: frozenset[str]


@by_identity
@functools.lru_cache(maxsize=16)
def _rules(phrases: tuple[NamePhrases, ...]) -> _Rules:
    intros = sorted({p for group in phrases for p in group.intro}, key=len, reverse=True)
    body = "|".join(
        re.escape(p).replace(r"\ ", r"\s+") + (r"\s*" if p.endswith(":") else r"\s+")
        for p in intros
    )
    return _Rules(
        re.compile(r"(?<![a-z])(?:" + (body or r"(?!)") + ")"),
        frozenset(p for group in phrases for p in group.particles),
        frozenset(w for group in phrases for w in group.not_name),
    )


def extract_name(text: str, phrases: Sequence[NamePhrases]) -> str | None:
    """The customer's name when ``text`` introduces them, capitalised; else ``None``."""
    rules = _rules(tuple(phrases))
    folded, index = fold_with_map(text)
    for intro in rules.intro.finditer(folded):
        name = _name_after(text, folded, index, intro.end(), rules)
        if name is not None:
            return name
    return None


def _name_after(
    text: str, folded: str, index: list[int], position: int, rules: _Rules
) -> str | None:
    words: list[str] = []
    for match in _NAME_WORD.finditer(folded, position):
        if folded[position : match.start()].strip() or len(words) == MAX_WORDS:
            break
        word = match.group()
        particle = word in rules.particles and bool(words)
        if word in rules.not_name and not particle:
            break
        original = text[index[match.start()] : index[match.end() - 1] + 1]
        words.append(original.lower() if particle else _capitalise(original))
        position = match.end()
    while words and words[-1].lower() in rules.particles:
        words.pop()
    return " ".join(words) if words and len(words[0]) >= 2 else None


def _capitalise(word: str) -> str:
    return "-".join(part[:1].upper() + part[1:].lower() for part in word.split("-"))
