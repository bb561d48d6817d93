"""Text folding and tokenising: the one normal form every language rule compares in.

Rules:

* :func:`normalize` lowercases, strips accents (NFKD, combining marks dropped), turns every
  character that is not an ASCII letter/digit, a non-ASCII letter, whitespace or one of
  ``: / . , ; ! ? - ' $ % # @`` into a space (a typographic apostrophe, "’", is "'"), and
  collapses whitespace. It is idempotent.
* :func:`fold_with_map` does the same folding character by character *without* collapsing
  whitespace and returns, for every output character, the index of the input character it came
  from, so a match on the folded text can be echoed back with the customer's own spelling.
* :func:`tokens` are the letter/digit runs of the normalized text.

Pure functions (no I/O): the consent, truth and handoff policies and the offline model share them.
"""

from __future__ import annotations

import functools
import re
import unicodedata

_KEEP_PUNCT = frozenset(":/.,;!?-'$%#@")
_APOSTROPHES = frozenset("\u2019\u2018\u02bc")  # ’ ‘ ʼ
_SPACES = re.compile(r"\s+")
_WORD = re.compile(r"[^\W_]+")


@functools.lru_cache(maxsize=4096)  # pure, and called once per character of every text
def _fold_char(char: str) -> str:
    """Fold one character: accents stripped, lowercased, a typographic apostrophe the plain
    one ("can’t" is "can't"), unknown symbols become a space."""
    if char in _APOSTROPHES:
        return "'"
    out: list[str] = []
    for part in unicodedata.normalize("NFKD", char.lower()):
        if unicodedata.combining(part):
            continue
        for low in unicodedata.normalize("NFKD", part.lower()):
            if unicodedata.combining(low):
                continue
            out.append(low if _keep(low) else " ")
    return "".join(out)


def _keep(char: str) -> bool:
    if char.isascii():
        return char.isalnum() or char in _KEEP_PUNCT or char.isspace()
    return char.isalpha() and char == char.lower()


class _FoldTable(dict[int, str]):
    """``str.translate`` table: code point → its fold (a space for whitespace), filled on
    first use and bounded (past ``LIMIT`` distinct characters, new ones are folded each
    time and not kept). ``uneven``: the kept code points whose fold is not exactly one
    character (``ﬁ`` → ``fi``, a lone combining mark → nothing)."""

    LIMIT = 8192

    def __init__(self) -> None:
        super().__init__()
        self.uneven: set[int] = set()

    def __missing__(self, point: int) -> str:
        char = chr(point)
        folded = " " if char.isspace() else _fold_char(char)
        if len(self) < self.LIMIT:
            self[point] = folded
            if len(folded) != 1:
                self.uneven.add(point)
        return folded

    def one_to_one(self, text: str) -> bool:
        """Whether every character of ``text`` (already looked up) folds to exactly one
        character: none is uneven, and each was kept (always, while the table is not full)."""
        points = [*map(ord, text)]
        return self.uneven.isdisjoint(points) and (
            len(self) < self.LIMIT or all(map(self.__contains__, points))
        )


_FOLD = _FoldTable()


def fold_with_map(text: str) -> tuple[str, list[int]]:
    """Fold ``text`` like :func:`normalize` but keep whitespace runs; map back to input indexes."""
    if text.isascii():  # every ASCII character folds to exactly one character
        return text.translate(_FOLD), list(range(len(text)))
    folded = text.translate(_FOLD)  # fills the table with the text's characters
    if _FOLD.one_to_one(text):  # the usual text (accents): one folded character each
        return folded, list(range(len(text)))
    chars: list[str] = []
    index: list[int] = []
    for position, char in enumerate(text):
        folded = _FOLD[ord(char)]
        chars.append(folded)
        index.extend([position] * len(folded))
    return "".join(chars), index


@functools.lru_cache(maxsize=1024)  # pure; a turn folds the same texts (replies, quotes) again
def normalize(text: str) -> str:
    """Lowercase, strip accents, drop unknown symbols and collapse whitespace (idempotent)."""
    current = text
    for _ in range(4):
        folded = _SPACES.sub(" ", current.translate(_FOLD)).strip()
        if folded == current:
            break
        current = folded
    return current


def tokens(text: str) -> list[str]:
    """The word tokens (letters/digits runs) of the normalized text."""
    return _WORD.findall(normalize(text))
