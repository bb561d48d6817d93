"""Smoke tests: the token and Google API economy benchmarks still run (quick mode) and their
conversations still play as scripted. They check the machinery, never the goals."""

from __future__ import annotations

import pytest

from bench import google_economy, token_economy
from bench.conversations import CONVERSATIONS

pytestmark = pytest.mark.slow


def test_the_conversation_set_covers_the_issue() -> None:
    assert len(CONVERSATIONS) >= 20
    assert {c.language for c in CONVERSATIONS} == {"pt", "en"}
    kinds = {c.kind for c in CONVERSATIONS}
    assert {"booking", "reschedule", "cancel", "faq", "handoff"} <= kinds
    assert len({c.name for c in CONVERSATIONS}) == len(CONVERSATIONS)


async def test_token_economy_quick() -> None:
    figures = await token_economy.measure(quick=True)
    assert 0 < figures["input_token_reduction"] < 1
    assert figures["outcomes_differ"] == []
    assert figures["bookings_not_as_scripted"] == []
    assert figures["routed.completed_bookings"] == figures["single_agent.completed_bookings"] > 0
    assert 0 <= figures["routed.router_requests_per_user_turn"] < 1
    assert set(figures["single_agent.by_role"]) == {token_economy.SINGLE}


@pytest.mark.benchmark  # a benchmark run (the emulator with latency): make bench-smoke
async def test_google_economy_quick() -> None:
    figures = await google_economy.measure(quick=True)
    for run in ("back_to_back", "think_time"):
        assert figures[f"{run}.conversations_not_as_scripted"] == 0
        assert figures[f"{run}.availability_questions"] > 0
        assert 0 < figures[f"{run}.calls_ratio"] <= 1
        # The headline counts only lookups a customer caused; the fresh re-checks before a
        # write are their own line, and together they are every lookup.
        customer, fresh = (
            figures[f"{run}.customer_lookups"],
            figures[f"{run}.fresh_recheck_lookups"],
        )
        assert customer > 0 and fresh > 0
        assert customer + fresh == figures[f"{run}.availability_questions"]
        assert figures[f"{run}.fresh_recheck_google_freebusy_calls"] == fresh  # never cached
        assert (
            figures[f"{run}.customer_google_freebusy_calls"]
            + figures[f"{run}.fresh_recheck_google_freebusy_calls"]
            == figures[f"{run}.google_freebusy_calls"]
        )
    assert figures["twenty_professionals.query_free_busy_google_calls"] == 1
    assert figures["twenty_professionals.same_busy_intervals_every_way"] is True
    assert figures["wall_time_ratio_20_professionals"] > 0
