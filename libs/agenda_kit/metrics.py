"""Prometheus metrics shared by both services, and the ``/metrics`` HTTP endpoint.

Service-specific families live next to what they count: the Google API families in
``calendar_service.infrastructure.google.metrics``, model usage in
``agent_service.infrastructure.agent.usage`` and bookings in
``agent_service.infrastructure.agent.tools.outcomes``.
"""

from __future__ import annotations

from prometheus_client import Counter, Gauge, Histogram, start_http_server

from agenda_kit.resilience import BreakerState

RPC_REQUESTS = Counter(
    "agenda_rpc_requests_total", "gRPC calls handled", ["service", "method", "code"]
)
RPC_LATENCY = Histogram(
    "agenda_rpc_latency_seconds",
    "gRPC handling time",
    ["service", "method", "code"],
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30),
)
CACHE_REQUESTS = Counter(
    "agenda_cache_requests_total", "Cache lookups by cache and result", ["cache", "result"]
)
BREAKER_STATE = Gauge(
    "agenda_circuit_breaker_state",
    "1 for the state a circuit breaker is in, 0 for the others",
    ["breaker", "state"],
)
DEPENDENCY_UP = Gauge(
    "agenda_dependency_up", "1 while the last health probe of a dependency passed", ["dependency"]
)
LOG_LINES_DROPPED = Counter(
    "agenda_log_lines_dropped_total",
    "Log lines not written: the log stream's reader is gone (stream_gone) or a write failed "
    "(write_failed)",
    ["reason"],
)


def count_cache(cache: str, *, hits: int = 0, misses: int = 0) -> None:
    """Add ``hits`` and ``misses`` lookups of ``cache``."""
    if hits:
        CACHE_REQUESTS.labels(cache, "hit").inc(hits)
    if misses:
        CACHE_REQUESTS.labels(cache, "miss").inc(misses)


def set_breaker_state(breaker: str, state: BreakerState) -> None:
    """Record that ``breaker`` is now in ``state`` (one gauge per state, exactly one is 1)."""
    for candidate in BreakerState:
        BREAKER_STATE.labels(breaker, candidate.value).set(1 if candidate is state else 0)


def serve_metrics(port: int, host: str = "0.0.0.0") -> None:  # noqa: S104 - scraped by Prometheus
    """Expose ``/metrics`` on ``port`` (0 disables it)."""
    if port:
        start_http_server(port, addr=host)
