"""How FAQ entries are matched to a question: shared words, accents/case/stopwords ignored.

Both the MongoDB repository and the in-memory fake rank with these functions, so the search
behaves the same everywhere.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

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
    """The words an entry can be found by: its question, tags and answer."""
    return terms(" ".join((entry.question, *entry.tags, entry.answer)))


def rank(query: str, entries: Iterable[FaqEntry], limit: int) -> list[FaqEntry]:
    """Entries sharing at least one word with ``query``, most shared words first (ties: the
    question's own overlap, then the question text, so the order is stable)."""
    wanted = terms(query)
    if not wanted or limit <= 0:
        return []
    scored = []
    for entry in entries:
        overlap = len(wanted & entry_terms(entry))
        if overlap:
            in_question = len(wanted & terms(entry.question))
            scored.append((-overlap, -in_question, entry.question, str(entry.id), entry))
    scored.sort(key=lambda item: item[:4])
    return [item[4] for item in scored[:limit]]
