"""Bounds on what a model passes to the tools: instants inside the tenant's booking horizon
(never year 1, year 9999 or a naive time that would overflow later), and echoed text cut to
a size a reply, a log line and a stored document can hold."""

from __future__ import annotations

from datetime import date, datetime, timedelta

from pydantic_ai import ModelRetry

from agent_service.infrastructure.agent.deps import AgentDeps
from agent_service.infrastructure.agent.tools.results import Retry

MAX_ECHO_CHARS = 200


def echo(value: object, limit: int = MAX_ECHO_CHARS) -> str:
    """``value`` as text, at most ``limit`` characters (an ellipsis marks the cut)."""
    text = str(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def horizon_end(deps: AgentDeps) -> datetime:
    return deps.turn.now + timedelta(days=deps.tenant.policy.booking_horizon_days + 1)


def _retry(reason: str, note: str, horizon_days: int | None = None) -> ModelRetry:
    return ModelRetry(Retry(reason=reason, note=note, horizon_days=horizon_days).message())


def check_start(deps: AgentDeps, start: datetime, name: str) -> None:
    """A future, offset-aware instant within the tenant's booking horizon, else ModelRetry
    (a structured ``RETRY`` with the reason: ``offset``, ``past``, ``beyond_horizon``)."""
    if start.tzinfo is None or start.utcoffset() is None:
        raise _retry("offset", f"{name} needs a UTC offset, e.g. 2026-12-01T10:00:00-03:00")
    if start <= deps.turn.now:
        raise _retry("past", f"{name} {echo(start.isoformat(), 40)} is in the past")
    if start > horizon_end(deps):
        days = deps.tenant.policy.booking_horizon_days
        raise _retry(
            "beyond_horizon",
            f"{name} {echo(start.isoformat(), 40)} is beyond the booking horizon "
            f"({days} days from today)",
            days,
        )


def check_day(deps: AgentDeps, day: date) -> None:
    """A date from today (in the tenant's zone) to the end of the booking horizon."""
    today = deps.turn.now.astimezone(deps.tenant.zone).date()
    if day < today:
        raise _retry("past", f"{day} is in the past; today is {today}")
    last = today + timedelta(days=deps.tenant.policy.booking_horizon_days)
    if day > last:
        days = deps.tenant.policy.booking_horizon_days
        raise _retry(
            "beyond_horizon",
            f"{day} is beyond the booking horizon ({days} days from today); "
            f"the last bookable day is {last}",
            days,
        )
