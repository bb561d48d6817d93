"""A pattern over a list of the language data tries the longest phrase first, so a phrase is
read whole, never cut at a shorter one it starts with: before the fix, a phrase whose word has
generated forms ("primeiro horario|horarinho|…", the diminutives) counted as longer than
"primeiro horario livre", so blind batch 17's "primeiro horario livre" was read as "primeiro
horario" and its "livre" left to name a service. Checked over every list of strings of every
language's data file: each plain phrase, as written, is matched whole by its list's pattern
(``grammar/vocabulary.alternation``)."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from agent_service.application.text import normalize
from agent_service.infrastructure.language.grammar.vocabulary import alternation, bounded, union

DATA = Path(__file__).parents[3] / "agent_service" / "infrastructure" / "language" / "data"
SPECIAL = set("|?*~+")


def _lists(code: str) -> list[tuple[str, str, list[str]]]:
    data = tomllib.loads((DATA / f"{code}.toml").read_text(encoding="utf-8"))
    return [
        (table, key, values)
        for table, keys in data.items()
        if isinstance(keys, dict)
        for key, values in keys.items()
        if isinstance(values, list) and values and all(isinstance(v, str) for v in values)
    ]


@pytest.mark.parametrize("code", ["pt", "en", "es"])
def test_every_phrase_is_read_whole(code: str) -> None:
    cut = []
    for table, key, values in _lists(code):
        pattern = bounded(alternation(union(table, key)))
        for phrase in (normalize(v) for v in values if not SPECIAL & set(v)):
            match = pattern.match(phrase)
            if match is None or match.group() != phrase:
                cut.append((table, key, phrase, match and match.group()))
    assert not cut, cut
