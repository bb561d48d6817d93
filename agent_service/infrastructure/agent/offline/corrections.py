"""Corrections inside one message: "com o Lucas não, com o Pedro", "sexta não, sábado",
"not Pedro, Lucas please", "no es corte, es barba", "uma hidratação em vez do corte".

A message is split into clauses at punctuation (``, ; . ! ?``), a spaced dash and before a
``[corrections].split`` word ("mas", "but", "pero", "en vez"). A clause is *negated* when it
has a ``negation`` word of the conversation's language ("não", "not", "no": Portuguese "no" is
"in the", so only the languages whose data list it read it so) or starts with an
``instead_of`` phrase of any language ("em vez do corte", "instead of the haircut").
:func:`affirmed` is the message without its negated clauses — what the customer wants now —
and :func:`negated` the negated ones (what they no longer want). A message with no negated
clause is returned whole; one whose every clause is negated affirms nothing (``""``).
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

__all__ = ["affirmed", "negated"]


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


def _split(text: str, language: str | None) -> tuple[list[str], list[str]]:
    code = language or detect_language(text, "pt")
    kept: list[str] = []
    dropped: list[str] = []
    for clause in _clauses(text):
        (dropped if _is_negated(clause, code) else kept).append(clause.strip())
    return kept, dropped


def affirmed(text: str, language: str | None = None) -> str:
    """``text`` without its negated clauses (``text`` itself when none is negated), read in
    ``language`` (None: the language the text is written in)."""
    kept, dropped = _split(text, language)
    if not dropped:
        return text
    return ", ".join(kept)


def negated(text: str, language: str | None = None) -> str:
    """The negated clauses of ``text`` ("" when none)."""
    return ", ".join(_split(text, language)[1])
