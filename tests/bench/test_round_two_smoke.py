"""Smoke tests of round two's benchmark machinery (token counts, the portion baseline, the
memory probes). They check the machinery runs and agrees, never the goals."""

from __future__ import annotations

import random

import pytest
from pydantic_ai.models.function import FunctionModel

from agent_service.infrastructure.agent.models import build_model
from bench import memory, slot_engine, tokens
from bench.slot_portion import portion_free_slots
from bench.token_economy import build_routed_graph
from calendar_service.domain.slots import find_free_slots

pytestmark = pytest.mark.slow


def test_cl100k_counts_offline_and_differs_from_chars_over_four() -> None:
    assert tokens.count("hello world") == 2
    portuguese = "Quero agendar um corte feminino com a Ana amanhã às 10h"
    assert tokens.count(portuguese) > len(portuguese) / 4
    body = {"messages": [{"role": "user", "content": "hello world"}], "tools": []}
    assert tokens.body_tokens(body) == tokens.REPLY_PRIMING + tokens.PER_MESSAGE + 1 + 2


@pytest.mark.parametrize(("days", "busy"), [(1, 50), (7, 1_000)])
def test_the_portion_baseline_returns_the_engines_slots(days: int, busy: int) -> None:
    query = slot_engine.week_query(days)
    spans = slot_engine.random_busy(random.Random(days), busy, days)
    engine = list(find_free_slots(query, spans, slot_engine.NOW).starts)
    assert engine and portion_free_slots(query, spans, slot_engine.NOW) == engine


async def test_the_heap_probe_measures_open_conversations() -> None:
    model = build_model("offline")
    assert isinstance(model, FunctionModel)
    figures = await memory.heap_per_open(build_routed_graph(model), 3)
    assert figures["open_conversations"] == 3
    assert figures["heap_kib_per_open_conversation"] >= 0
