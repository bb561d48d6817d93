"""``python -m bench``: run every benchmark and write bench/results/latest.{json,md}."""

from __future__ import annotations

import json
import sys
from datetime import UTC, datetime
from pathlib import Path

from bench import google_economy, scale, slot_engine, throughput, token_economy, turn_overhead

RESULTS = Path(__file__).resolve().parent / "results"


def to_markdown(results: dict[str, dict[str, object]]) -> str:
    lines = ["# Benchmark results", "", f"Generated {results['meta']['generated_at']}", ""]
    for name, figures in results.items():
        if name == "meta":
            continue
        lines += [f"## {name}", "", "| figure | value |", "| --- | --- |"]
        for key, value in figures.items():
            lines.append(
                f"| {key} | {json.dumps(value) if isinstance(value, (dict, list)) else value} |"
            )
        lines.append("")
    return "\n".join(lines)


def main(argv: list[str]) -> None:
    quick = "--quick" in argv
    RESULTS.mkdir(parents=True, exist_ok=True)
    results: dict[str, dict[str, object]] = {
        "meta": {"generated_at": datetime.now(UTC).isoformat(), "quick": quick},
        "slot_engine": slot_engine.run(quick=quick),
        "token_economy": token_economy.run(quick=quick),
        "google_economy": google_economy.run(quick=quick),
        "calendar_throughput": throughput.run(quick=quick),
        "turn_overhead": turn_overhead.run(quick=quick),
        "scale": scale.run(quick=quick),
    }
    results["meta"]["headline"] = {
        "token_economy.input_token_reduction": results["token_economy"]["input_token_reduction"]
    }
    (RESULTS / "latest.json").write_text(json.dumps(results, indent=2, default=str))
    (RESULTS / "latest.md").write_text(to_markdown(results))
    sys.stdout.write(to_markdown(results) + "\n")


if __name__ == "__main__":
    main(sys.argv[1:])
