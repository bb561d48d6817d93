"""Smoke test of the service benchmarks (3, 5, 6) in quick mode: each starts its processes,
drives them and returns JSON-able figures and a plot. Figures are not judged here — the
benchmarks report, they do not fail the build — only that every call succeeded.

These are benchmarks themselves (minutes of load): ``make bench-smoke`` runs them, never
``make test`` (the ``benchmark`` marker is deselected by default)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench import scale, throughput, turn_overhead
from bench.harness import REPO

pytestmark = pytest.mark.benchmark


def test_calendar_throughput_quick() -> None:
    figures = throughput.run(quick=True)
    json.dumps(figures)
    assert figures["errors"] == 0
    assert figures["free_slots_per_reply"] > 0
    for name in ("echo", "get_free_slots"):
        assert set(figures["rps"][name]) == set(throughput.CONCURRENCY)
        assert all(rps > 0 for rps in figures["rps"][name].values())
    assert figures["profile_get_free_slots_tottime"]
    assert figures["cold_google_errors"] == 0
    assert all(rps > 0 for rps in figures["cold_google_rps"]["get_free_slots"].values())
    assert (REPO / figures["plot"]).stat().st_size > 0


def test_turn_overhead_quick() -> None:
    figures = turn_overhead.run(quick=True)
    json.dumps(figures)
    assert figures["errors"] == 0, figures["error_examples"]
    loaded = figures["loaded"]
    assert loaded["turns"] == 4 * turn_overhead.TURNS_PER_CONVERSATION
    assert loaded["model_requests_per_turn"] > 0 and loaded["tool_calls_per_turn"] > 0
    assert loaded["db_commands_per_turn"] > 0
    assert figures["bookings"] == 4
    assert figures["profile"]["cumulative"]
    components = figures["cpu_ms_per_turn_by_component"]
    assert components["Pydantic AI"] > 0 and components["agent: own code"] > 0
    # The split is of the measured CPU per turn: its rows add up to it.
    assert sum(components.values()) == pytest.approx(figures["cpu_ms_per_turn"]["agent"], 0.02)
    assert figures["python_calls_per_turn"] > 0
    assert figures["serial_cpu_ms_per_turn"]["agent"] > 0
    assert figures["agent_gc"]["cpu_ms_per_turn"] >= 0
    assert len(figures["agent_gc"]["collections_per_turn"]) == 3
    assert all(ms > 0 for ms in figures["framework_floor_cpu_ms"].values())
    # Every turn is at least one Pydantic AI run; the floor per turn is made of the parts.
    assert figures["serial"]["agent_runs_per_turn"] >= 1
    floors = figures["framework_floor_ms_per_turn"]
    for floor in floors.values():
        assert floor["total"] == pytest.approx(
            floor["pydantic_ai"] + floor["langgraph"] + floor["mongodb_driver"], abs=0.02
        )
    assert floors["one_run_per_turn"]["total"] <= floors["as_measured"]["total"]
    assert Path(REPO / figures["plot"]).stat().st_size > 0


def test_scale_quick() -> None:
    figures = scale.run(quick=True)
    json.dumps(figures)
    assert figures["errors"] == 0, figures["error_examples"]
    assert figures["end_conversation_errors"] == 0
    assert figures["turns"] == 8 * turn_overhead.TURNS_PER_CONVERSATION
    assert set(figures["rss_kib_per_open_conversation"]) == {"agent", "calendar"}
    assert (REPO / figures["plot"]).stat().st_size > 0
