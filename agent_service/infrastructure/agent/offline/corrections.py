"""Corrections inside one message: "com o Lucas não, com o Pedro", "sexta não, sábado",
"not Pedro, Lucas please", "no es corte, es barba", "uma hidratação em vez do corte".

A message is split into clauses at punctuation (``, ; . ! ?``), a spaced dash and before a
``[corrections].split`` word ("mas", "but", "pero", "en vez"). A clause is *negated* when it
has a ``negation`` word of the conversation's language ("não", "not", "no": Portuguese "no" is
"in the", so only the languages whose data list it read it so) or starts with an
``instead_of`` phrase of any language ("em vez do corte", "instead of the haircut").
:func:`affirmed` is the message without its negated clauses — what the customer wants now —
and :func:`negated` the negated ones (what they no longer want). A clause with a ``corrects``
word of any language ("pera", "sorry, I meant", "perdón") starts a self-correction: in
:func:`affirmed` it and what follows come first, so the values it says (a day, a time) are read
before those it replaces, while what it does not say again (the service) is kept. A message
with no negated clause and no self-correction is returned whole; one whose every clause is
negated affirms nothing (``""``).
Words are the language data's; none is in this code.
"""

from __future__ import annotations

import functools
import itertools
import re

from agent_service.infrastructure.agent.offline.text import (
    detect_language,
    fold_with_map,
    normalize,
)
from agent_service.infrastructure.language.grammar.vocabulary import (
    alternation,
    any_of,
    in_language,
    union,
)

__all__ = ["affirmed", "asks_for_another", "negated", "says_any"]


@functools.cache
def _clause() -> re.Pattern[str]:
    split = alternation(union("corrections", "split"))
    return re.compile(rf"[,;.!?]+|\s+[-–—]+\s+|\s+(?=(?:{split})(?![\w']))", re.I)


@functools.cache
def _exclusion() -> re.Pattern[str]:
    """An exclusion word where it excludes (see the module): never after an
    ``except_not_after`` phrase ("mais ou menos") nor before an ``except_not_before`` word
    ("menos de uma hora")."""
    words = alternation(union("corrections", "except"))
    not_after = "".join(
        rf"(?<!\b{re.escape(p)} )" for p in union("corrections", "except_not_after")
    )
    not_before = alternation(union("corrections", "except_not_before"))
    return re.compile(rf"{not_after}\b(?:{words})\b(?!\s+(?:{not_before})\b)(?=\s+\w)")


@functools.cache
def _any_then() -> re.Pattern[str]:
    """A clause ending in an ``except_after`` word ("any day", "qualquer um"): a ``split``
    clause after it excludes ("any day but Monday")."""
    return re.compile(rf"\b(?:{alternation(union('corrections', 'except_after'))})\s*$")


def says_any(text: str) -> bool:
    """Whether ``text`` says any one will do ("qualquer dia", "any day", "cualquier día"): an
    ``except_after`` word anywhere."""
    return _any_word().search(normalize(text)) is not None


@functools.cache
def _any_word() -> re.Pattern[str]:
    return re.compile(rf"\b(?:{alternation(union('corrections', 'except_after'))})\b")


def _clauses(text: str) -> list[str]:
    parts = [part for part in _clause().split(text) if part and part.strip()]
    return [piece for part in parts for piece in _at_exclusions(part)]


def _at_exclusions(part: str) -> list[str]:
    """``part`` split before each exclusion word ("qualquer dia menos terça"), the clause of
    what is excluded starting with it."""
    folded, index = fold_with_map(part)
    starts = [index[m.start()] for m in _exclusion().finditer(folded)]
    bounds = [0, *starts, len(part)]
    pieces = [part[a:b] for a, b in itertools.pairwise(bounds)]
    return [piece for piece in pieces if piece.strip()]


def _excludes(clause: str, before: str) -> bool:
    """Whether ``clause`` names what the customer does not want by an exclusion: it starts
    with an exclusion word, or with a ``split`` word right after an ``except_after`` word."""
    folded = normalize(clause)
    if _exclusion().match(folded):
        return True
    split = any_of("corrections", "split").match(folded)
    return bool(split and _any_then().search(normalize(before)))


def _is_negated(clause: str, language: str, before: str = "") -> bool:
    folded = normalize(clause)
    instead = any_of("corrections", "instead_of").match(folded)
    return bool(
        instead
        or in_language("corrections", "negation", language).search(folded)
        or _excludes(clause, before)
    )


def _split(text: str, language: str | None) -> tuple[list[str], list[str], int]:
    """The kept clauses, a self-correction's first (see the module), the negated ones, and
    where the self-correction starts (0: none)."""
    code = language or detect_language(text, "pt")
    clauses = _clauses(text)
    restart = _restart(text, clauses)
    kept: list[str] = []
    dropped: list[str] = []
    for i in (*range(restart, len(clauses)), *range(restart)):
        before = clauses[i - 1] if i else ""
        (dropped if _is_negated(clauses[i], code, before) else kept).append(clauses[i].strip())
    return kept, dropped, restart


def affirmed(text: str, language: str | None = None) -> str:
    """``text`` without its negated clauses, a self-correction first (``text`` itself when
    there is neither), read in ``language`` (None: the language the text is written in)."""
    kept, dropped, restart = _split(text, language)
    if not dropped and not restart:
        return text
    return ", ".join(kept)


def _restart(text: str, clauses: list[str]) -> int:
    """The last clause after the first with a correction word where neither it nor the
    clause after it asks ("espera, tem estacionamento?", "perdón, ¿a las 11 también hay?": a
    question, no correction) but for the change ("wait, can we do Saturday at 11?"); 0 when
    none."""
    corrects, change = any_of("corrections", "corrects"), any_of("intents", "change")
    asks = _asking(text, clauses)
    restart = 0
    for index in range(1, len(clauses)):
        if not corrects.search(normalize(clauses[index])):
            continue
        asked = [
            c for c, a in zip(clauses[index : index + 2], asks[index : index + 2], strict=True) if a
        ]
        if all(change.search(normalize(c)) for c in asked):
            restart = index
    return restart


def _asking(text: str, clauses: list[str]) -> list[bool]:
    """Whether each clause asks: it holds a "¿" or a "?" follows it in ``text``."""
    found, cursor = [], 0
    for clause in clauses:
        at = text.find(clause, cursor)
        cursor = at + len(clause) if at >= 0 else cursor
        after = text[cursor:].lstrip(" ,;:")
        found.append("¿" in clause or after.startswith("?"))
    return found


def negated(text: str, language: str | None = None) -> str:
    """The negated clauses of ``text`` ("" when none)."""
    return ", ".join(_split(text, language)[1])


def asks_for_another(text: str) -> bool:
    """Whether the message asks for another professional than the one proposed ("com a outra",
    "with the other one", "mejor otra profe"): an ``[corrections].other`` word after a
    ``with_person`` word (an article between at most), or before a ``person_nouns`` word."""
    return _another().search(normalize(text)) is not None


@functools.cache
def _another() -> re.Pattern[str]:
    other = alternation(union("corrections", "other"))
    with_person = alternation(union("corrections", "with_person"))
    nouns = alternation(union("corrections", "person_nouns"))
    return re.compile(
        rf"\b(?:(?:{with_person})\s+(?:\w+\s+)?(?:{other})|(?:{other})\s+(?:{nouns}))\b"
    )
