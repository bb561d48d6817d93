"""Our plain-Python Okapi BM25 gives the reference implementation's scores (rank-bm25)."""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st
from rank_bm25 import BM25Okapi  # type: ignore[import-untyped]

from agent_service.application.bm25 import Okapi

WORDS = st.sampled_from(["corte", "barba", "preco", "cabelo", "horario", "pix", "a", "de"])
CORPUS = st.lists(st.lists(WORDS, min_size=1, max_size=12), min_size=1, max_size=8)


@settings(max_examples=150, deadline=None)
@given(corpus=CORPUS, query=st.lists(WORDS | st.just("ausente"), min_size=1, max_size=5))
def test_scores_equal_the_reference(corpus: list[list[str]], query: list[str]) -> None:
    reference = BM25Okapi(corpus)
    ours = Okapi(corpus)
    assert ours.idf == reference.idf
    assert _close(ours.get_scores(query), list(reference.get_scores(query)))


@settings(max_examples=60, deadline=None)
@given(corpus=CORPUS, query=st.lists(WORDS, min_size=1, max_size=5))
def test_the_idf_floor_is_a_floor_on_the_reference_idf(
    corpus: list[list[str]], query: list[str]
) -> None:
    reference = BM25Okapi(corpus)
    reference.idf = {w: max(v, 0.2) for w, v in reference.idf.items()}
    ours = Okapi(corpus, idf_floor=0.2)
    assert _close(ours.get_scores(query), list(reference.get_scores(query)))


def _close(ours: list[float], expected: list[float]) -> bool:
    return len(ours) == len(expected) and all(
        math.isclose(a, b, abs_tol=1e-9) for a, b in zip(ours, expected, strict=True)
    )


def test_an_empty_corpus_scores_nothing() -> None:
    assert Okapi([]).get_scores(["corte"]) == []
