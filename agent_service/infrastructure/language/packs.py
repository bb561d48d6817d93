"""The language data files: one TOML file per language, read once, validated on load.

``data/<code>.toml`` holds every vocabulary a language rule uses for that language, one table
per concern (``[detect]`` for language detection; the consent, handoff and understanding rules
add their own tables — see ``data/README.md``). Words are written folded (lowercase, no
accents, as :func:`agent_service.application.text.normalize` makes them); a word that does not
fold to itself is refused at load time, so a rule never silently misses it.

A language is *spoken* when it has both a data file and a message catalog
(``agent/locales/<code>.json``, the system's own sentences): only spoken languages are ever
detected, so a data file alone never makes the assistant answer in a language it cannot write.
"""

from __future__ import annotations

import functools
import re
import tomllib
from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any, Final

from agent_service.application.languages import LanguageDetector, LanguageProfile
from agent_service.application.text import normalize
from agent_service.infrastructure.agent.messages import LOCALE_FILES

DATA_DIR: Final = Path(__file__).resolve().parent / "data"


class LanguageDataError(ValueError):
    """A language data file is missing, malformed, or has a word that is not folded."""


@functools.cache
def data_languages() -> tuple[str, ...]:
    """The codes that have a data file, sorted (read once: a directory listing per call cost
    every turn a glob)."""
    return tuple(sorted(path.stem for path in DATA_DIR.glob("*.toml")))


@functools.cache
def spoken_languages() -> tuple[str, ...]:
    """The codes with a data file *and* a message catalog, sorted."""
    return tuple(code for code in data_languages() if code in LOCALE_FILES)


@functools.cache
def language_data(code: str) -> Mapping[str, Any]:
    """The parsed data file of ``code`` (read-only at the top level)."""
    path = DATA_DIR / f"{code}.toml"
    try:
        with path.open("rb") as stream:
            data = tomllib.load(stream)
    except FileNotFoundError as error:
        raise LanguageDataError(f"no language data for {code!r}") from error
    except tomllib.TOMLDecodeError as error:
        raise LanguageDataError(f"{path.name}: {error}") from error
    if data.get("code") != code:
        raise LanguageDataError(f"{path.name}: 'code' must be {code!r}")
    return MappingProxyType(data)


def word_list(code: str, table: str, key: str) -> tuple[str, ...]:
    """The folded words (or phrases) at ``[table].key`` of ``code``'s data file.

    Raises ``LanguageDataError`` when the entry is missing or not a list of folded strings.
    """
    section = language_data(code).get(table)
    values = section.get(key) if isinstance(section, dict) else None
    if not isinstance(values, list) or not all(isinstance(v, str) for v in values):
        raise LanguageDataError(f"{code}.toml: [{table}].{key} must be a list of strings")
    unfolded = [value for value in values if normalize(value) != value]
    if unfolded:
        raise LanguageDataError(f"{code}.toml: [{table}].{key} has unfolded words {unfolded[:5]}")
    return tuple(values)


_LETTERS = re.compile(r"[^\W\d_]+")


@functools.cache
def known_words(code: str) -> frozenset[str]:
    """Every word ``code``'s data file and message catalog use, whatever a rule reads it as:
    the words the language is known to have (a conversation in it reads them in its sense)."""
    tables = language_data(code).values() if code in data_languages() else ()
    found = {
        word
        for table in tables
        if isinstance(table, dict)
        for values in table.values()
        if isinstance(values, list)
        for value in values
        for word in _LETTERS.findall(str(value))
    }
    for sentence in LOCALE_FILES.get(code, {}).get("system", {}).values():
        found |= set(_LETTERS.findall(normalize(str(sentence))))
    return frozenset(found)


def _profile(code: str) -> LanguageProfile:
    section = language_data(code).get("detect")
    marks = section.get("marks", "") if isinstance(section, dict) else ""
    if not isinstance(marks, str) or marks != marks.lower():
        raise LanguageDataError(f"{code}.toml: [detect].marks must be lowercase letters")
    return LanguageProfile(code, frozenset(word_list(code, "detect", "words")), frozenset(marks))


@functools.cache
def language_detector() -> LanguageDetector:
    """The detector over every spoken language."""
    return LanguageDetector(_profile(code) for code in spoken_languages())


@functools.cache
def data_detector() -> LanguageDetector:
    """The detector over every language with a data file, spoken or not: for judges (the eval)
    that must recognise a language the assistant may not speak yet."""
    return LanguageDetector(_profile(code) for code in data_languages())
