"""The terminal chat's own words (prompt, labels, notices), one data file per language in
``texts/`` (``pt.json``, ``en.json``, ``es.json``): adding a language is adding a file with the
same keys. The chat speaks the conversation's language as the agent reports it in each
``SendMessageResponse.language``; before the first reply, and for a language without a file,
it uses ``DEFAULT``."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

TEXTS = Path(__file__).resolve().parent / "texts"
DEFAULT = "pt"
"""The demo salon's language (pt-BR): the words of the first prompt."""


@cache
def languages() -> dict[str, dict[str, object]]:
    """Every language's words, by its code (the file name)."""
    return {
        path.stem: json.loads(path.read_text(encoding="utf-8"))
        for path in sorted(TEXTS.glob("*.json"))
    }


def words(language: str) -> dict[str, object]:
    """The words of ``language`` ("pt", "en", "pt-BR" …), else the default language's."""
    known = languages()
    primary = language.split("-")[0].lower()
    return known.get(primary) or known[DEFAULT]


def text(language: str, key: str, **values: str) -> str:
    return str(words(language)[key]).format(**values)


def quit_words() -> frozenset[str]:
    """What ends the chat, in any language (a line that is exactly one of them)."""
    return frozenset(
        str(word).casefold()
        for language in languages().values()
        for word in language.get("quit", [])  # type: ignore[attr-defined]
    )
