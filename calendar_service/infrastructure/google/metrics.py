"""Prometheus families of the Google Calendar adapter: attempts, retries, final errors."""

from __future__ import annotations

from prometheus_client import Counter

from calendar_service.infrastructure.google.failures import describe

GOOGLE_API_REQUESTS = Counter(
    "agenda_google_api_requests_total",
    "Attempts sent to the Google Calendar API by HTTP method and outcome (ok or the reason)",
    ["method", "outcome"],
)
GOOGLE_API_RETRIES = Counter(
    "agenda_google_api_retries_total", "Google Calendar API attempts retried, by reason", ["reason"]
)
GOOGLE_API_ERRORS = Counter(
    "agenda_google_api_errors_total",
    "Google Calendar operations that failed (after retries), by reason",
    ["reason"],
)


def count_attempt(method: str, error: BaseException | None) -> None:
    GOOGLE_API_REQUESTS.labels(method, "ok" if error is None else describe(error)).inc()


def count_retry(error: BaseException | None) -> None:
    GOOGLE_API_RETRIES.labels("unknown" if error is None else describe(error)).inc()


def count_error(error: BaseException) -> None:
    GOOGLE_API_ERRORS.labels(describe(error)).inc()
