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
import re

from agent_service.infrastructure.agent.offline.text import detect_language, normalize
from agent_service.infrastructure.language.grammar.vocabulary import (
    alternation,
    any_of,
    in_language,
    union,
)

__all__ = ["affirmed", "asks_for_another", "negated"]


@functools.cache
def _clause() -> re.Pattern[str]:
    split = alternation(union("corrections", "split"))
    return re.compile(rf"[,;.!?]+|\s+[-–—]+\s+|\s+(?=(?:{split})(?![\w']))", re.I)


def _clauses(text: str) -> list[str]:
    return [part for part in _clause().split(text) if part and part.strip()]


def _is_negated(clause: str, language: str) -> bool:
    folded = normalize(clause)
    instead = any_of("corrections", "instead_of").match(folded)
    return bool(instead or in_language("corrections", "negation", language).search(folded))


def _split(text: str, language: str | None) -> tuple[list[str], list[str], int]:
    """The kept clauses, a self-correction's first (see the module), the negated ones, and
    where the self-correction starts (0: none)."""
    code = language or detect_language(text, "pt")
    clauses = _clauses(text)
    restart = _restart(text, clauses)
    kept: list[str] = []
    dropped: list[str] = []
    for clause in (*clauses[restart:], *clauses[:restart]):
        (dropped if _is_negated(clause, code) else kept).append(clause.strip())
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
