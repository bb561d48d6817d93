"""``python -m bench``: run every benchmark and write bench/results/latest.{json,md} (untracked).

``--record`` (``make bench-record``) also rewrites the committed bench/results/summary.json and
the README's Performance table from the run; without it a run changes no tracked file.
``--quick`` runs small sizes and never records."""

from __future__ import annotations

import json
import sys
from datetime import UTC, datetime
from pathlib import Path

from bench import (
    google_economy,
    memory,
    plots,
    scale,
    slot_engine,
    summary,
    throughput,
    token_economy,
    turn_overhead,
)

RESULTS = Path(__file__).resolve().parent / "results"
NOTES = {
    "slot_engine": "The calendar's slot engine (pure domain code) on synthetic busy time. "
    "Baselines: the per-minute test oracle (correctness reference, not a realistic rival) and "
    "an implementation on the `portion` interval library (what one would write instead); "
    "both must return the same slots. `typical_day` is one working day with 50 busy intervals.",
    "token_economy": "Input tokens the model receives, counted with tiktoken cl100k_base "
    "(offline) on the OpenAI Chat Completions body, beside chars/4. The routed graph (clear "
    "tasks routed in code, the model router only when ambiguous, specialists with only their "
    "tools, a follow-up of another job switched in code) against the strongest honest single "
    "agent: one agent with every tool once, every specialist's instructions merged without "
    "routing or transfer text, the same context block (date, business, customer memory with "
    "the summary of finished tasks, pending action) and the same history policy where it "
    "applies (its messages kept, at most 16, dropped after a finished change; the per-task "
    "cut at a change of specialist has no equivalent for one agent). Headline per user turn.",
    "google_economy": "Google Calendar calls through the real calendar service and its caches "
    "against the Google emulator: freeBusy calls per availability lookup against one call per "
    "lookup, counting only lookups a customer caused (the booking tools' fresh re-check right "
    "before a write is its own line: no cache by design), and a 20-professional week against "
    "google-api-python-client (one query per "
    "professional, and its own batched query: the fair baseline).",
    "calendar_throughput": "GetFreeSlots against a bare echo RPC on the same server (ghz-style "
    "closed loop): warm cache; cold with the cache off on the local backend (every call reads "
    "MongoDB); cold on the Google backend through the Google emulator with 50 ms latency "
    "(every call one freeBusy round trip). What the slot work costs beyond gRPC itself.",
    "turn_overhead": "A SendMessage turn through the real agent service (offline model, "
    "embedded MongoDB): the time outside model and tools, MongoDB commands per turn and CPU "
    "per process, serial and at 50 concurrent conversations; the agent's CPU split by "
    "component from CPU samples (SIGPROF) of separate turns, as shares of the measured CPU.",
    "scale": "Many concurrent conversations end to end: errors, turns/s, latency and memory.",
    "memory": "In process: RSS growth as finished conversations accumulate (the in-memory "
    "store standing for MongoDB replaced every 250), and the tracemalloc heap each open "
    "conversation adds outside that store. Between turns a conversation lives in MongoDB.",
}


def to_markdown(results: dict[str, dict[str, object]]) -> str:
    lines = ["# Benchmark results", "", f"Generated {results['meta']['generated_at']}", ""]
    for name, figures in results.items():
        if name == "meta":
            continue
        lines += [f"## {name}", ""]
        if name in NOTES:
            lines += [NOTES[name], ""]
        lines += ["| figure | value |", "| --- | --- |"]
        for key, value in figures.items():
            lines.append(
                f"| {key} | {json.dumps(value) if isinstance(value, (dict, list)) else value} |"
            )
        lines.append("")
    return "\n".join(lines)


def main(argv: list[str]) -> None:
    quick = "--quick" in argv
    record = "--record" in argv and not quick
    RESULTS.mkdir(parents=True, exist_ok=True)
    results: dict[str, dict[str, object]] = {
        "meta": {"generated_at": datetime.now(UTC).isoformat(), "quick": quick},
        "slot_engine": slot_engine.run(quick=quick),
        "token_economy": token_economy.run(quick=quick),
        "google_economy": google_economy.run(quick=quick),
        "calendar_throughput": throughput.run(quick=quick),
        "turn_overhead": turn_overhead.run(quick=quick),
        "scale": scale.run(quick=quick),
        "memory": memory.run(quick=quick),
    }
    results["meta"]["headline"] = {
        "token_economy.input_token_reduction": results["token_economy"]["input_token_reduction"]
    }
    results["meta"]["plots"] = plots.draw(results)
    (RESULTS / "latest.json").write_text(json.dumps(results, indent=2, default=str))
    (RESULTS / "latest.md").write_text(to_markdown(results))
    if record:  # only when asked: a plain run leaves the tracked summary and README alone
        summary.write(results)
    sys.stdout.write(to_markdown(results) + "\n")


if __name__ == "__main__":
    main(sys.argv[1:])
