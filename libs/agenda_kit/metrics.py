"""Prometheus metrics shared by both services, and the ``/metrics`` HTTP endpoint."""

from __future__ import annotations

from prometheus_client import Counter, Histogram, start_http_server

RPC_REQUESTS = Counter(
    "agenda_rpc_requests_total", "gRPC calls handled", ["service", "method", "code"]
)
RPC_LATENCY = Histogram(
    "agenda_rpc_latency_seconds",
    "gRPC handling time",
    ["service", "method"],
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30),
)


def serve_metrics(port: int, host: str = "0.0.0.0") -> None:  # noqa: S104 - scraped by Prometheus
    """Expose ``/metrics`` on ``port`` (0 disables it)."""
    if port:
        start_http_server(port, addr=host)
