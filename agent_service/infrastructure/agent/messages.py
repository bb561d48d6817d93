"""The message catalog: every sentence the system itself says to the customer, per language.

Model text is the model's; these are the system's (confirmation questions, receipts, the
fallback). A language is one more file in ``locales/`` with the same keys (a test checks that
every language has every key); unknown languages fall back to English.
"""

from __future__ import annotations

import functools
import json
import re
from pathlib import Path
from types import MappingProxyType
from typing import Final

from agent_service.application.text import normalize

LOCALES: Final = Path(__file__).resolve().parent / "locales"
"""One JSON file per language (``pt.json``, ``en.json``): ``system`` holds these sentences,
``outcomes`` the words for a tool's structured outcome (outcome_text.py), ``listings`` for a
listing (listings.py), ``offline`` the offline model's own (offline/replies.py). Adding a
language is adding a file."""


def _load() -> dict[str, dict[str, dict[str, str]]]:
    return {
        path.stem: json.loads(path.read_text(encoding="utf-8"))
        for path in sorted(LOCALES.glob("*.json"))
    }


LOCALE_FILES: Final = _load()
CATALOG: Final = MappingProxyType(
    {language: MappingProxyType(data["system"]) for language, data in LOCALE_FILES.items()}
)
DEFAULT_LANGUAGE: Final = "en"


@functools.cache
def question_words(language: str) -> frozenset[str]:
    """The folded words of every question the system itself asks in ``language`` (each
    locale sentence that ends with "?", its placeholders left out): what a model's question
    may be made of besides what this turn's tools told (``application/statements``)."""

    def strings(value: object) -> list[str]:
        if isinstance(value, dict):
            return [s for item in value.values() for s in strings(item)]
        if isinstance(value, list):
            return [s for item in value for s in strings(item)]
        return [value] if isinstance(value, str) else []

    found: set[str] = set()
    for said in strings(LOCALE_FILES.get(language, {})):
        for sentence in _SENTENCE_END.split(_PLACEHOLDER.sub(" ", said)):
            if sentence.rstrip().endswith("?"):
                found.update(_WORD.findall(normalize(sentence)))
    return frozenset(found)


_PLACEHOLDER = re.compile(r"\{[^}]*\}")
_SENTENCE_END = re.compile(r"(?<=[.!?\n])\s+")
_WORD = re.compile(r"[^\W\d_]+(?:'[^\W\d_]+)*")


def text(key: str, language: str, **values: object) -> str:
    """The catalog's sentence ``key`` in ``language`` (English when unknown), filled in."""
    entries = CATALOG.get(language, CATALOG[DEFAULT_LANGUAGE])
    return entries[key].format(**values)


class Sentences:
    """The sentences of some parts of every locale file, by key: ``say(key, language,
    **values)`` is the sentence in ``language`` (English when unknown), filled in."""

    def __init__(self, *parts: str) -> None:
        self._text: dict[str, dict[str, str]] = {}
        for language, data in LOCALE_FILES.items():
            for part in parts:
                for key, sentence in data[part].items():
                    self._text.setdefault(key, {})[language] = sentence

    def __call__(self, key: str, language: str, **values: object) -> str:
        templates = self._text[key]
        return templates.get(language, templates[DEFAULT_LANGUAGE]).format(**values)
