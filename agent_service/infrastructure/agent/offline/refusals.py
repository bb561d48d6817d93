"""The offline model's refusals: why a time cannot be had and what to offer instead, read
from the tools' structured ``NOT_AVAILABLE`` results and ``RETRY`` reasons (see
tools/refusals.py and tools/bounds.py) and said in the customer's language."""

from __future__ import annotations

from agent_service.infrastructure.agent import outcome_text
from agent_service.infrastructure.agent.offline.context import ToolResult
from agent_service.infrastructure.agent.offline.replies import say
from agent_service.infrastructure.agent.tools.results import Failed


def reason_of(result: ToolResult) -> str | None:
    """The refusal's reason code, from a ``NOT_AVAILABLE`` result or a tool's retry."""
    return outcome_text.refusal_reason(result.data, result.retry)


def refusal_text(result: ToolResult, language: str) -> str | None:
    """Why, and the nearest free times (or how to find others); ``None`` if not a refusal:
    the system's own words for the outcome (``outcome_text``). A proposal the customer just
    turned down is not asked again: what to change is asked instead."""
    if isinstance(result.data, Failed) and result.data.reason == "turned_down":
        return say("ask_what_change", language)
    return outcome_text.refusal(result.data, result.retry, language)
