"""The capacity model of docs/deployment.md: measured inputs → a sizing table.

Inputs (measured by ``tests/bench/test_capacity.py``, recorded in docs/figures/capacity.json):
CPU per turn, MongoDB commands per turn, Google Calendar requests per booking conversation
and per turn. Stated assumptions (``ASSUMPTIONS``): messages per salon per day, the share of
a day's messages in the busiest hour, a conversation's length, the CPU utilisation the
autoscaler targets. The agent's CPU request and minimum replicas come from
deploy/kubernetes/base (``agent_pod``), so the table and the manifests cannot drift apart.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

REPO = Path(__file__).resolve().parents[2]
BASE = REPO / "deploy" / "kubernetes" / "base"
SALONS = (100, 1_000, 10_000)


@dataclass(frozen=True)
class Assumptions:
    messages_per_salon_per_day: int = 200
    busiest_hour_share: float = 0.15
    turns_per_booking_conversation: int = 6
    target_cpu_utilisation: float = 0.7


ASSUMPTIONS = Assumptions()


@dataclass(frozen=True)
class Measured:
    cpu_ms_per_turn: float
    mongo_commands_per_turn: float
    google_requests_per_booking_conversation: float
    google_requests_per_turn: float


def _millicores(value: str) -> int:
    return int(value[:-1]) if value.endswith("m") else int(float(value) * 1000)


def agent_pod() -> tuple[int, int]:
    """The agent Deployment's CPU request (millicores) and the HPA's minimum replicas."""
    deployment, _service = (
        doc for doc in yaml.safe_load_all((BASE / "agent.yaml").read_text()) if doc
    )
    container = deployment["spec"]["template"]["spec"]["containers"][0]
    request = _millicores(container["resources"]["requests"]["cpu"])
    autoscalers = yaml.safe_load_all((BASE / "autoscaling.yaml").read_text())
    (hpa,) = (h for h in autoscalers if h and h["metadata"]["name"] == "agenda-agent")
    return request, int(hpa["spec"]["minReplicas"])


def inputs(measured: Measured) -> dict[str, Any]:
    """The measured inputs and assumptions as figures (labels shown in the docs)."""
    a = ASSUMPTIONS
    return {
        **raw(measured),
        "derived: turns/s per core": round(1000.0 / measured.cpu_ms_per_turn, 1),
        "assumption: messages per salon per day": a.messages_per_salon_per_day,
        "assumption: share of a day's messages in the busiest hour": a.busiest_hour_share,
        "assumption: autoscaler CPU target": a.target_cpu_utilisation,
    }


def sizing(measured: Measured) -> dict[str, Any]:
    """One group of rows per fleet size: peak turns/s, agent cores and replicas, MongoDB
    commands/s, Google requests per day and at peak."""
    a = ASSUMPTIONS
    request_millicores, min_replicas = agent_pod()
    rows: dict[str, Any] = {}
    for n, salons in enumerate(SALONS, 1):
        daily = salons * a.messages_per_salon_per_day
        peak = daily * a.busiest_hour_share / 3600.0
        cores = peak * measured.cpu_ms_per_turn / 1000.0 / a.target_cpu_utilisation
        replicas = max(min_replicas, math.ceil(cores * 1000 / request_millicores))
        label = f"sizing {n}) {salons:,} salons"
        rows[f"{label}: messages/day"] = daily
        rows[f"{label}: peak turns/s"] = round(peak, 2)
        rows[f"{label}: agent cores (at the CPU target)"] = round(cores, 2)
        rows[f"{label}: agent replicas ({request_millicores}m CPU request each)"] = replicas
        rows[f"{label}: MongoDB commands/s at peak"] = round(
            peak * measured.mongo_commands_per_turn, 1
        )
        rows[f"{label}: Google requests/day"] = round(daily * measured.google_requests_per_turn)
        rows[f"{label}: Google requests/s at peak"] = round(
            peak * measured.google_requests_per_turn, 2
        )
    return rows


def measured_from(figures: dict[str, Any]) -> Measured:
    """The inputs back from a recorded figures dict (for the consistency check)."""
    return Measured(
        cpu_ms_per_turn=float(figures["measured: CPU ms per turn"]),
        mongo_commands_per_turn=float(figures["measured: MongoDB commands per turn"]),
        google_requests_per_booking_conversation=float(
            figures["measured: Google requests per booking conversation"]
        ),
        google_requests_per_turn=float(figures["measured: Google requests per turn"]),
    )


def raw(measured: Measured) -> dict[str, float]:
    """The unrounded inputs, recorded so the table can be recomputed exactly."""
    return {
        "measured: CPU ms per turn": measured.cpu_ms_per_turn,
        "measured: MongoDB commands per turn": measured.mongo_commands_per_turn,
        "measured: Google requests per booking conversation": (
            measured.google_requests_per_booking_conversation
        ),
        "measured: Google requests per turn": measured.google_requests_per_turn,
    }
