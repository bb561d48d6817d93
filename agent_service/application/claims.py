"""Outcome words in a model's text, judged against the turn's receipts (defence in depth).

What the customer is told about a change is the system's receipt of it; a model's words never
make a change true. Beside the structural checks (``grounding``), a text is refused when,
outside what its questions ask (a question asks in its last clause: "Cancelei o horário de
quinta, ok?" states a cancellation) and outside sentences copied from this turn's records:

* it states an outcome (a ``booked`` / ``cancelled`` / ``moved`` / ``confirmed`` word of the
  language data) that no write of the turn backs; or
* the turn wrote something and the text denies a write (a negation at most three words from
  a word starting with a write stem, either order, or a "nothing was done" phrase).

Words are the data files' (pt, en, es); the rule is one mechanism for every language.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass

from agent_service.application.by_identity import by_identity
from agent_service.application.grounding import without_asking
from agent_service.application.text import normalize

_TOKEN = re.compile(r"[^\W_]+(?:'[^\W_]+)*")
_SEGMENT = re.compile(r"[^.!?;:\n|]+")
MIN_QUOTE_CHARS = 12
NEAR = 3
BOOK, CANCEL, MOVE = "book", "cancel", "move"
MAKES_TRUE = {
    "booked": frozenset({BOOK, MOVE}),
    "cancelled": frozenset({CANCEL, MOVE}),
    "moved": frozenset({MOVE}),
    "confirmed": frozenset({BOOK, CANCEL, MOVE}),
}
"""Which writes of the turn make each kind of outcome word true."""


@dataclass(frozen=True, slots=True)
class ClaimWords:
    """One language's outcome words (folded phrases) and write stems."""

    booked: tuple[str, ...]
    cancelled: tuple[str, ...]
    moved: tuple[str, ...]
    confirmed: tuple[str, ...]
    negations: tuple[str, ...]
    write_stems: tuple[str, ...]
    nothing_done: tuple[str, ...]
    already: tuple[str, ...] = ()
    """Words that present an outcome as a state already reached ("já", "already", "ya"): an
    outcome word after one of them states it, in a question too ("Quer manter seu horário
    que já está confirmado?")."""


Phrase = tuple[str, ...]


@by_identity
@functools.lru_cache(maxsize=16)
def _table(words: tuple[ClaimWords, ...]) -> dict[str, frozenset[Phrase]]:
    names = ("booked", "cancelled", "moved", "confirmed", "negations", "nothing_done", "already")
    return {
        name: frozenset(tuple(_TOKEN.findall(p)) for w in words for p in getattr(w, name))
        for name in names
    }


def misstates(
    text: str, done: set[str], words: Sequence[ClaimWords], quoted: Sequence[str] = ()
) -> bool:
    """Whether ``text`` states an outcome ``done`` (the turn's writes: book, cancel, move)
    does not back, or denies one it does (see the module's rules)."""
    table = _table(tuple(words))
    stems = tuple(stem for w in words for stem in w.write_stems)
    tokens = _TOKEN.findall(_unquoted(normalize(without_asking(text)), quoted))
    if done and (_has(tokens, table["nothing_done"]) or _denies(tokens, table, stems)):
        return True
    claimed = _claimed(tokens, table, stems)
    if table["already"]:  # an outcome presented as already reached, wherever it stands
        whole = _TOKEN.findall(_unquoted(normalize(text), quoted))
        for kind, said in _claimed(whole, table, stems, after=table["already"]).items():
            claimed[kind] = claimed[kind] or said
    return any(claimed[kind] and not (MAKES_TRUE[kind] & done) for kind in MAKES_TRUE)


def _claimed(
    tokens: list[str],
    table: dict[str, frozenset[Phrase]],
    stems: tuple[str, ...],
    after: frozenset[Phrase] | None = None,
) -> dict[str, bool]:
    """Outcome words that are not inside a denial ("não foi agendado" claims nothing); with
    ``after``, only those with one of its words at most ``NEAR`` words before them."""
    denied = _denied_positions(tokens, table, stems)
    found = dict.fromkeys(MAKES_TRUE, False)
    for kind in MAKES_TRUE:
        for start, size in _occurrences(tokens, table[kind]):
            if denied & set(range(start, start + size)):
                continue
            before = tokens[max(0, start - NEAR) : start]
            if after is None or any((word,) in after for word in before):
                found[kind] = True
    return found


def _occurrences(tokens: list[str], phrases: frozenset[Phrase]) -> list[tuple[int, int]]:
    sizes = sorted({len(p) for p in phrases}, reverse=True)
    return [
        (start, size)
        for start in range(len(tokens))
        for size in sizes
        if tuple(tokens[start : start + size]) in phrases
    ]


def _has(tokens: list[str], phrases: frozenset[Phrase]) -> bool:
    return bool(_occurrences(tokens, phrases))


def _denied_positions(
    tokens: list[str], table: dict[str, frozenset[Phrase]], stems: tuple[str, ...]
) -> set[int]:
    positions: set[int] = set()
    writes = [i for i, t in enumerate(tokens) if t.startswith(stems)] if stems else []
    for start, size in _occurrences(tokens, table["negations"]):
        for index in writes:
            if -NEAR - 1 <= index - start <= size + NEAR:
                positions.add(index)
    return positions


def _denies(tokens: list[str], table: dict[str, frozenset[Phrase]], stems: tuple[str, ...]) -> bool:
    return bool(_denied_positions(tokens, table, stems))


def _unquoted(folded: str, sources: Sequence[str]) -> str:
    """``folded`` without the segments copied from ``sources`` (stored data, not claims)."""
    if not sources:
        return folded
    haystack = [normalize(s) for s in sources]

    def keep(match: re.Match[str]) -> str:
        segment = match.group(0).strip()
        copied = len(segment) >= MIN_QUOTE_CHARS and any(segment in s for s in haystack)
        return " " if copied else match.group(0)

    return _SEGMENT.sub(keep, folded)
