"""The offline model's refusals: why a time cannot be had and what to offer instead, read
from the tools' structured ``NOT_AVAILABLE`` results and ``RETRY`` reasons (see
tools/refusals.py and tools/bounds.py) and said in the customer's language."""

from __future__ import annotations

from agent_service.infrastructure.agent.offline.context import ToolResult
from agent_service.infrastructure.agent.offline.replies import say
from agent_service.infrastructure.agent.tools.results import FreeTimes, NotAvailable

_RETRY_REASONS = frozenset({"past", "beyond_horizon"})


def reason_of(result: ToolResult) -> str | None:
    """The refusal's reason code, from a ``NOT_AVAILABLE`` result or a tool's retry."""
    if isinstance(result.data, NotAvailable):
        return result.data.reason
    if isinstance(result.data, FreeTimes) and any(day.closed for day in result.data.days):
        return "closed_day"
    if result.retry is not None and result.retry.reason in _RETRY_REASONS:
        return result.retry.reason
    return None


def refusal_text(result: ToolResult, language: str) -> str | None:
    """Why, and the nearest free times (or how to find others); ``None`` if not a refusal."""
    reason = reason_of(result)
    if reason is None:
        return None
    data = result.data if isinstance(result.data, NotAvailable) else None
    horizon = data.horizon_days if data else (result.retry.horizon_days if result.retry else None)
    if reason == "beyond_horizon" and horizon is None:
        reason = "beyond_horizon_unstated"
    sentence = say(f"refusal_{reason}", language, days=str(horizon or ""))
    if reason == "day_off" and data is not None and data.working_that_day:
        sentence += " " + say("day_off_others", language, names=", ".join(data.working_that_day))
    if data is None or not data.nearest:
        return f"{sentence} {say('try_other_day', language)}"
    offer = say("nearest_times", language, times=", ".join(data.nearest))
    hint = f" {say('more_times', language)}" if data.more else ""
    return f"{sentence} {offer}{hint}"
