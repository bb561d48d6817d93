"""The offline model's refusals: why a time cannot be had and what to offer instead, read
from the tools' ``reason=`` codes (see tools/refusals.py) and said in the customer's language."""

from __future__ import annotations

import re

from agent_service.infrastructure.agent.offline.replies import say

_REASON = re.compile(r"\(reason=(\w+)\)")
_NEAREST = re.compile(r"Nearest free times that day: ((?:\d{2}:\d{2}(?:, )?)+)")
_MORE = re.compile(r"\((\d+) more;")
_COVER = re.compile(r"working that day for this service: ([^.]+)\.")
_HORIZON = re.compile(r"(\d+) days from today")
_RETRY_REASONS = (
    ("in the past", "past"),
    ("beyond the booking horizon", "beyond_horizon"),
)


def reason_of(result: str) -> str | None:
    """The refusal's reason code, from a tool result or a tool's retry message."""
    match = _REASON.search(result)
    if match:
        return match.group(1)
    return next((code for phrase, code in _RETRY_REASONS if phrase in result), None)


def refusal_text(result: str, language: str) -> str | None:
    """Why, and the nearest free times (or how to find others); ``None`` if not a refusal."""
    reason = reason_of(result)
    if reason is None:
        return None
    horizon = _HORIZON.search(result)
    if reason == "beyond_horizon" and horizon is None:
        reason = "beyond_horizon_unstated"
    sentence = say(f"refusal_{reason}", language, days=horizon.group(1) if horizon else "")
    covering = _COVER.search(result)
    if reason == "day_off" and covering is not None:
        sentence += " " + say("day_off_others", language, names=covering.group(1))
    times = _NEAREST.search(result)
    if times is None:
        return f"{sentence} {say('try_other_day', language)}"
    more = _MORE.search(result)
    offer = say("nearest_times", language, times=times.group(1))
    hint = f" {say('more_times', language)}" if more else ""
    return f"{sentence} {offer}{hint}"
