"""Okapi BM25 over a small corpus of token lists, in plain Python.

A tenant's FAQ is tens of entries: a vectorised implementation buys nothing there and its
import (numpy) cost every agent process ~0.4 s of CPU at start. The formula is Okapi's as in
``rank-bm25`` (``k1 = 1.5``, ``b = 0.75``; a negative IDF — a word in more than half of the
documents — becomes ``epsilon`` times the mean IDF), plus a floor on every IDF
(``idf_floor``): tests check the scores equal the reference implementation's.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence


class Okapi:
    """BM25 scores of each document of ``corpus`` for a query (a list of tokens)."""

    def __init__(
        self,
        corpus: Sequence[Sequence[str]],
        *,
        k1: float = 1.5,
        b: float = 0.75,
        epsilon: float = 0.25,
        idf_floor: float | None = None,
    ) -> None:
        self.k1, self.b = k1, b
        self._docs = [Counter(document) for document in corpus]
        self._lengths = [len(document) for document in corpus]
        self._mean_length = sum(self._lengths) / len(corpus) if corpus else 0.0
        holding = Counter(word for document in self._docs for word in document)
        size = len(corpus)
        idf = {w: math.log(size - n + 0.5) - math.log(n + 0.5) for w, n in holding.items()}
        mean_idf = sum(idf.values()) / len(idf) if idf else 0.0
        self.idf = {w: value if value >= 0 else epsilon * mean_idf for w, value in idf.items()}
        if idf_floor is not None:
            self.idf = {w: max(value, idf_floor) for w, value in self.idf.items()}

    def get_scores(self, query: Sequence[str]) -> list[float]:
        """One score per document, in corpus order (0 for a document sharing no word)."""
        mean = self._mean_length or 1.0
        scores = [0.0] * len(self._docs)
        for word in query:
            idf = self.idf.get(word, 0.0)
            if not idf:
                continue
            for i, (document, length) in enumerate(zip(self._docs, self._lengths, strict=True)):
                frequency = document.get(word, 0)
                if frequency:
                    norm = self.k1 * (1 - self.b + self.b * length / mean)
                    scores[i] += idf * frequency * (self.k1 + 1) / (frequency + norm)
        return scores
