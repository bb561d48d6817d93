"""Concrete phrases of the language data's patterns, for tests that generate their inputs from
the data files (``vocabulary.py`` describes the pattern syntax)."""

from __future__ import annotations

import random

SUFFIXES = ("", "o", "a", "ar", "e")
"""What a ``*`` word may continue with."""


def phrase(pattern: str, rng: random.Random) -> str:
    """One concrete phrase of ``pattern``: an alternative of each ``a|b`` word, a suffix after
    a ``*`` word, an optional ``?`` word kept or left, ``~`` (any one word) as "so"."""
    words = []
    for word in pattern.split():
        if word.endswith("?") and rng.random() < 0.5:
            continue
        choice = rng.choice(word.removesuffix("?").split("|"))
        if choice == "~":
            choice = "so"
        words.append(choice.removesuffix("*") + rng.choice(SUFFIXES) if "*" in choice else choice)
    return " ".join(words)
