"""The answer reader's phrase segmentation skips, at each word, the phrase lengths no phrase
of the table can have there (none starts with those words): the same reading as trying every
length, only cheaper. Checked against the exhaustive reading on generated word sequences made
of the languages' own consent phrases (their words, slips of them, stray words)."""

from __future__ import annotations

import itertools
import random
import re

import pytest

from agent_service.application import consent_policy
from agent_service.application.consent_policy import _phrases, _segments
from agent_service.infrastructure.language.rules import language_rules

_TOKEN = re.compile(r"\w+")


def _exhaustive(
    words: list[str], reader: consent_policy._Table
) -> list[tuple[int, int, str | None]]:
    """The reading as it was before the pruning: every length from the longest down, each
    word as written or as a slip of a table word (``chat_spelling``)."""
    table, longest = reader.phrases, reader.longest
    options = [(w, *reader.spellings.of(w)) for w in words]
    count = len(words)
    best: list[tuple[int, tuple[int, str | None]]] = [(0, (0, None))] * (count + 1)
    for start in range(count - 1, -1, -1):
        choice: tuple[int, tuple[int, str | None]] = (best[start + 1][0] + 1, (1, None))
        for size in range(min(longest, count - start), 0, -1):
            keys = itertools.product(*options[start : start + size])
            label = next(filter(None, map(table.get, keys)), None)
            if label is None or label == consent_policy.OWN:
                continue
            unread = size if label == consent_policy.UNREADABLE else 0
            if unread + best[start + size][0] < choice[0]:
                choice = (unread + best[start + size][0], (size, label))
            if label == consent_policy.UNREADABLE:
                break
        best[start] = choice
    found, start = [], 0
    while start < count:
        size, label = best[start][1]
        found.append((start, size, label))
        start += size
    return found


@pytest.mark.parametrize("code", ["pt", "en", "es"])
def test_the_pruned_reading_is_the_exhaustive_one(code: str) -> None:
    vocabularies = tuple(language_rules().consent_in(code))
    reader = _phrases(vocabularies, "book")
    table = reader.phrases
    slips = ["xyz", "amanha", "simmm", "okkk", "10h", "siim", "claaro", "confrima", "valle"]
    pool = [*sorted({w for key in table for w in key}), *slips]
    phrases = [list(key) for key in table]
    draw = random.Random(46)
    for _ in range(2000):
        words: list[str] = []
        while len(words) < draw.randint(1, 14):
            words += draw.choice(phrases) if draw.random() < 0.6 else [draw.choice(pool)]
        tokens = list(_TOKEN.finditer(" ".join(words)))
        said = [t.group() for t in tokens]
        assert _segments(tokens, reader) == _exhaustive(said, reader), said
