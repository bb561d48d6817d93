"""Corrections inside one message: "com o Lucas não, com o Pedro", "sexta não, sábado",
"not Pedro, Lucas please", "não, melhor às 15h".

A message is split into clauses at punctuation (``, ; . ! ?``), a spaced dash and
"mas"/"but"/"instead". A clause is *negated* when it has "não"/"nao"/"not"/"nunca"/"nope"/"nah"
(or "no", in English only: Portuguese "no" means "in the"). :func:`affirmed` is the message
without its negated clauses — what the customer wants now — and :func:`negated` the negated
ones (what they no longer want). A message with no negated clause is returned whole; one whose
every clause is negated affirms nothing (``""``).
"""

from __future__ import annotations

import re

from agent_service.infrastructure.agent.offline.text import detect_language, normalize

__all__ = ["affirmed", "negated"]

_CLAUSE = re.compile(r"[,;.!?]+|\s+[-–—]+\s+|\s+(?=(?:mas|but|instead)\b)", re.I)
_NEGATION = re.compile(
    r"(?<![a-z])(?:nao|not|nunca|nope|nah|never|cannot|(?:do|does|did|wo|ca|is|are)n'?t)(?![a-z])"
)
_EN_NO = re.compile(r"(?<![a-z])no(?![a-z])")


def _clauses(text: str) -> list[str]:
    return [part for part in _CLAUSE.split(text) if part and part.strip()]


def _is_negated(clause: str, english: bool) -> bool:
    folded = normalize(clause)
    return bool(_NEGATION.search(folded) or (english and _EN_NO.search(folded)))


def _split(text: str) -> tuple[list[str], list[str]]:
    english = detect_language(text, "pt") == "en"
    kept: list[str] = []
    dropped: list[str] = []
    for clause in _clauses(text):
        (dropped if _is_negated(clause, english) else kept).append(clause.strip())
    return kept, dropped


def affirmed(text: str) -> str:
    """``text`` without its negated clauses (``text`` itself when none is negated)."""
    kept, dropped = _split(text)
    if not dropped:
        return text
    return ", ".join(kept)


def negated(text: str) -> str:
    """The negated clauses of ``text`` ("" when none)."""
    return ", ".join(_split(text)[1])
