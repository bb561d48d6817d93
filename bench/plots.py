"""Plots drawn from a run's results (no measuring here): input tokens per user turn, routed vs
single agent (real tokenizer and chars/4), and CPU per turn by process.

``python -m bench.plots`` redraws them from ``bench/results/latest.json``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

RESULTS = Path(__file__).resolve().parent / "results"
TOKENS_PLOT = RESULTS / "tokens_per_turn.png"
CPU_PLOT = RESULTS / "cpu_per_turn.png"


def draw(results: dict[str, Any]) -> list[str]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    RESULTS.mkdir(parents=True, exist_ok=True)
    written = []
    tokens = results.get("token_economy", {})
    if "routed.input_tokens_per_user_turn" in tokens:
        fig, axis = plt.subplots(figsize=(6, 4))
        designs = ("routed", "single_agent")
        for offset, (suffix, label) in enumerate(
            (("", "tiktoken cl100k_base"), ("_chars4", "chars/4"))
        ):
            values = [tokens[f"{d}.input_tokens_per_user_turn{suffix}"] for d in designs]
            axis.bar([x + offset * 0.38 for x in range(2)], values, width=0.38, label=label)
        axis.set_xticks([0.19, 1.19], ["routed graph", "single agent (every tool)"])
        axis.set_ylabel("input tokens per user turn")
        axis.set_title("Input tokens per user turn")
        axis.legend()
        fig.tight_layout()
        fig.savefig(TOKENS_PLOT, dpi=110)
        plt.close(fig)
        written.append(str(TOKENS_PLOT))
    cpu = results.get("turn_overhead", {}).get("cpu_ms_per_turn")
    if cpu:
        fig, axis = plt.subplots(figsize=(6, 4))
        axis.bar(list(cpu), list(cpu.values()), color=[f"C{i}" for i in range(len(cpu))])
        axis.set_ylabel("CPU ms per turn (50 concurrent conversations)")
        axis.set_title("CPU per SendMessage turn, by process (offline model)")
        fig.tight_layout()
        fig.savefig(CPU_PLOT, dpi=110)
        plt.close(fig)
        written.append(str(CPU_PLOT))
    return written


if __name__ == "__main__":
    drawn = draw(json.loads((RESULTS / "latest.json").read_text()))
    sys.stdout.write("\n".join(drawn) + "\n")
