"""Slot engine benchmark: engine vs the brute-force reference, and cost as busy time grows.

``python -m bench.slot_engine [--quick]`` prints the figures as JSON and saves a log-log plot
to ``bench/results/slot_engine_scaling.png``. Benchmarks report; they do not assert.
"""

from __future__ import annotations

import json
import math
import random
import sys
import time as clock
from collections.abc import Callable
from datetime import UTC, datetime, time, timedelta
from functools import partial
from pathlib import Path

from bench.slot_portion import portion_free_slots
from calendar_service.domain.slot_intervals import to_micros
from calendar_service.domain.slots import (
    MAX_RANGE_DAYS,
    LocalWindow,
    SlotQuery,
    Span,
    find_free_slots,
    free_slots_of,
)
from tests.calendar_service.unit.slot_reference import reference_free_slots

RESULTS = Path(__file__).resolve().parent / "results"
PLOT = RESULTS / "slot_engine_scaling.png"
START = datetime(2026, 3, 2, tzinfo=UTC)  # a Monday; New York springs forward on the 8th
NOW = START - timedelta(days=1)
ZONE = "America/New_York"
WORKING_HOURS = tuple(LocalWindow(weekday=day, start=time(8), end=time(20)) for day in range(1, 7))
SCALING_SIZES = (10, 100, 1_000, 10_000, 100_000)
TYPICAL_BUSY = 50
GOAL_TYPICAL_P50_MS = 0.2


def best_of(repeats: int, action: Callable[[], object]) -> float:
    """The fastest of ``repeats`` timed runs, in seconds."""
    timings = []
    for _ in range(repeats):
        began = clock.perf_counter()
        action()
        timings.append(clock.perf_counter() - began)
    return min(timings)


def p50_of(repeats: int, action: Callable[[], object]) -> float:
    """The median of ``repeats`` timed runs, in seconds."""
    timings = []
    for _ in range(repeats):
        began = clock.perf_counter()
        action()
        timings.append(clock.perf_counter() - began)
    return sorted(timings)[len(timings) // 2]


def random_busy(rng: random.Random, count: int, days: int) -> list[Span]:
    """``count`` busy intervals of 5-40 minutes inside every third hour of ``days`` days.

    Clustering leaves the other hours free, so queries still return slots at any ``count``.
    """
    busy = []
    for _ in range(count):
        hour = 3 * rng.randrange(days * 8)
        start = START + timedelta(hours=hour, minutes=rng.randrange(50))
        busy.append(Span(start, start + timedelta(minutes=rng.randint(5, 40))))
    return busy


def week_query(days: int, max_results: int = 5000) -> SlotQuery:
    """A realistic query: working hours in New York, 30-minute slots every 15, buffers."""
    return SlotQuery(
        range=Span(START, START + timedelta(days=days)),
        duration_minutes=30,
        time_zone=ZONE,
        weekly=WORKING_HOURS,
        step_minutes=15,
        buffer_before_minutes=5,
        buffer_after_minutes=5,
        minimum_notice_minutes=60,
        max_results=max_results,
    )


def versus_reference(quick: bool) -> dict[str, object]:
    """Engine and reference on the same 1,000 busy intervals over 7 days."""
    query, busy = week_query(7), random_busy(random.Random(7), 1_000, 7)
    engine_slots = list(find_free_slots(query, busy, NOW).starts)
    reference_slots = reference_free_slots(query, busy, NOW)
    engine = best_of(3 if quick else 7, lambda: find_free_slots(query, busy, NOW))
    reference = best_of(1 if quick else 3, lambda: reference_free_slots(query, busy, NOW))
    alternative = best_of(1 if quick else 3, lambda: portion_free_slots(query, busy, NOW))
    return {
        "portion_agrees": portion_free_slots(query, busy, NOW) == engine_slots,
        "portion_ms": round(alternative * 1000, 3),
        "portion_over_engine": round(alternative / engine, 1),
        "busy_intervals": len(busy),
        "range_days": 7,
        "slots": len(engine_slots),
        "engine_agrees_with_reference": engine_slots == reference_slots,
        "engine_ms": round(engine * 1000, 3),
        "reference_ms": round(reference * 1000, 3),
        "reference_over_engine": round(reference / engine, 1),
    }


def typical_day(quick: bool) -> dict[str, object]:
    """One day of working hours with 50 busy intervals: the engine's p50 against the goal,
    judged with the busy time converted inside the timing exactly as the service does per
    free/busy answer (``BusyTimeCalendarAdapter.slots_from``: each interval's two datetimes
    to microseconds, then ``free_slots_of``), and the ``portion`` implementation's p50 on
    the same input."""
    query, busy = week_query(1, max_results=500), random_busy(random.Random(1), TYPICAL_BUSY, 1)
    engine = p50_of(50 if quick else 500, lambda: find_free_slots(query, busy, NOW))
    pairs = [(span.start, span.end) for span in busy]
    as_served = p50_of(
        50 if quick else 500,
        lambda: free_slots_of(query, [(to_micros(s), to_micros(e)) for s, e in pairs], NOW),
    )
    alternative = p50_of(5 if quick else 30, lambda: portion_free_slots(query, busy, NOW))
    slots = list(find_free_slots(query, busy, NOW).starts)
    return {
        "busy_intervals": TYPICAL_BUSY,
        "slots": len(slots),
        "engine_p50_ms": round(engine * 1000, 4),
        # The free/busy answer's datetimes converted inside the timing, as the service does.
        "engine_as_served_p50_ms": round(as_served * 1000, 4),
        "portion_p50_ms": round(alternative * 1000, 3),
        "portion_over_engine": round(alternative / engine, 1),
        "portion_agrees": portion_free_slots(query, busy, NOW) == slots,
        "goal_p50_ms": GOAL_TYPICAL_P50_MS,
        # Judged as served: timing the engine alone would leave that conversion (work per
        # request) outside.
        "goal_met": as_served * 1000 <= GOAL_TYPICAL_P50_MS,
    }


def scaling(quick: bool) -> list[dict[str, float]]:
    """Engine time as busy intervals grow, over a ``MAX_RANGE_DAYS`` range (default 500 slots)."""
    rows = []
    query = week_query(MAX_RANGE_DAYS, max_results=500)
    for size in SCALING_SIZES:
        busy = random_busy(random.Random(size), size, MAX_RANGE_DAYS)
        repeats = 3 if quick or size >= 100_000 else 5
        seconds = best_of(repeats, partial(find_free_slots, query, busy, NOW))
        rows.append({"busy_intervals": size, "engine_ms": round(seconds * 1000, 3)})
    return rows


def log_log_slope(points: list[tuple[float, float]]) -> float:
    """Least-squares slope of log(y) against log(x)."""
    xs = [math.log(x) for x, _ in points]
    ys = [math.log(y) for _, y in points]
    mean_x, mean_y = sum(xs) / len(xs), sum(ys) / len(ys)
    covariance = sum((x - mean_x) * (y - mean_y) for x, y in zip(xs, ys, strict=True))
    return covariance / sum((x - mean_x) ** 2 for x in xs)


def save_plot(points: list[tuple[float, float]], slope: float) -> str:
    """A log-log plot of engine time against busy intervals, with an O(n) guide line."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    RESULTS.mkdir(parents=True, exist_ok=True)
    sizes, millis = zip(*points, strict=True)
    figure, axes = plt.subplots(figsize=(6, 4))
    axes.loglog(sizes, millis, "o-", label=f"engine (fitted slope {slope:.2f})")
    axes.loglog(sizes, [millis[-1] * size / sizes[-1] for size in sizes], "--", label="O(n)")
    axes.set_xlabel("busy intervals")
    axes.set_ylabel("time per query (ms)")
    axes.set_title(f"Slot engine, {MAX_RANGE_DAYS}-day range, up to 500 slots")
    axes.legend()
    figure.tight_layout()
    figure.savefig(PLOT, dpi=120)
    plt.close(figure)
    return str(PLOT.relative_to(RESULTS.parent.parent))


def run(quick: bool = False) -> dict[str, object]:
    """All slot-engine figures, JSON-able."""
    rows = scaling(quick)
    points = [(float(row["busy_intervals"]), row["engine_ms"]) for row in rows]
    slope = log_log_slope(points)
    return {
        "typical_day": typical_day(quick),
        "versus_reference": versus_reference(quick),
        "scaling": rows,
        "log_log_slope": round(slope, 3),
        "log_log_slope_from_1000": round(log_log_slope(points[2:]), 3),
        "plot": save_plot(points, slope),
    }


if __name__ == "__main__":
    sys.stdout.write(json.dumps(run(quick="--quick" in sys.argv[1:]), indent=2) + "\n")
