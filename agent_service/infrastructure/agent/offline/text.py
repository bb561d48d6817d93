"""Text folding, tokenising and language detection for the offline model.

Rules:

* :func:`normalize` lowercases, strips accents (NFKD, combining marks dropped), turns every
  character that is not an ASCII letter/digit, a non-ASCII letter, whitespace or one of
  ``: / . , ; ! ? - ' $ % # @`` into a space, and collapses whitespace. It is idempotent.
* :func:`fold_with_map` does the same folding character by character *without* collapsing
  whitespace and returns, for every output character, the index of the input character it came
  from, so a regex match on the folded text can be echoed back with the customer's own spelling.
* :func:`detect_language` counts Portuguese and English function words (after folding, so
  ``amanhã`` counts as ``amanha``); Portuguese diacritics (``ã õ ç à â ê ô``) in the raw text add
  one Portuguese point. Ties, including "no evidence at all", return ``default``. The folded word
  ``as`` (``às``) is ambiguous and counts for neither language; ``às`` in the raw text counts as
  a Portuguese diacritic.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from typing import Literal

Language = Literal["pt", "en"]

_KEEP_PUNCT = frozenset(":/.,;!?-'$%#@")
_SPACES = re.compile(r"\s+")
_WORD = re.compile(r"[^\W_]+")
_PT_MARKS = frozenset("ãõçàâêô")


def _words(text: str) -> list[str]:
    return text.split()


PT_WORDS = frozenset(
    _words(
        """
    quero queria gostaria agendar marcar amanha hoje voce voces nao obrigado obrigada horario
    horarios por favor com para pra de da do das dos um uma tem sim pode meu minha dia
    semana proxima proximo segunda terca quarta quinta sexta sabado domingo manha tarde noite
    oi ola bom boa tudo bem qual quais quanto custa onde fica e o os no na nos nas isso esta
    essa este esse eu sou chamo nome cancelar remarcar obrigado valeu
    """
    )
)
EN_WORDS = frozenset(
    _words(
        """
    want wanted would like book booking schedule tomorrow today please the with at my i you
    your is are can could do does thanks thank yes no not next this on for of to and an
    monday tuesday wednesday thursday friday saturday sunday morning afternoon evening
    hello hi hey what which how much where who when appointment cancel reschedule name it
    have any there me
    w thurs tues wed fri sat tmrw tmr pls plz thx u ur haircut nails brows beard massage
    """
    )
)


@functools.lru_cache(maxsize=4096)  # pure, and called once per character of every text
def _fold_char(char: str) -> str:
    """Fold one character: accents stripped, lowercased, unknown symbols become a space."""
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
    time and not kept)."""

    LIMIT = 8192

    def __missing__(self, point: int) -> str:
        char = chr(point)
        folded = " " if char.isspace() else _fold_char(char)
        if len(self) < self.LIMIT:
            self[point] = folded
        return folded


_FOLD = _FoldTable()


def fold_with_map(text: str) -> tuple[str, list[int]]:
    """Fold ``text`` like :func:`normalize` but keep whitespace runs; map back to input indexes."""
    if text.isascii():  # every ASCII character folds to exactly one character
        return text.translate(_FOLD), list(range(len(text)))
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


_ONLY_PT = PT_WORDS - EN_WORDS
_ONLY_EN = EN_WORDS - PT_WORDS


@functools.lru_cache(maxsize=1024)  # pure; a turn asks about the same message several times
def _evidence(text: str) -> tuple[int, int]:
    """How many Portuguese and English function words (and pt accent marks) ``text`` has."""
    words = tokens(text)
    pt = sum(word in _ONLY_PT for word in words)
    en = sum(word in _ONLY_EN for word in words)
    if not _PT_MARKS.isdisjoint(text.lower()):
        pt += 1
    return pt, en


def detect_language(text: str, default: Language) -> Language:
    """Guess pt/en by counting function words; ties and no evidence return ``default``."""
    pt, en = _evidence(text)
    if pt == en:
        return default
    return "pt" if pt > en else "en"


SWITCH_MARGIN = 2


def conversation_language(
    text: str, settled: Language | None, default: Language
) -> tuple[Language, bool]:
    """The conversation's language after ``text`` and whether it is settled.

    The first message with any evidence settles it; after that it is kept until a message
    clearly belongs to the other language (``SWITCH_MARGIN`` more of its function words), so a
    short "no", "ok" or a name never flips it.
    """
    pt, en = _evidence(text)
    if settled is None:
        if pt == en:
            return default, False
        return ("pt" if pt > en else "en"), True
    lead = (en - pt) if settled == "pt" else (pt - en)
    if lead >= SWITCH_MARGIN:
        return ("en" if settled == "pt" else "pt"), True
    return settled, True
