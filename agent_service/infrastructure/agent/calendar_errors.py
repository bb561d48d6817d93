"""What a customer reads when the calendar fails: the system's own sentence for the error's
stable reason (``CalendarError.reason``, the calendar service's ``ErrorInfo``), in the
conversation's language (``locales/*.json``, ``system.calendar_*``) — never the calendar
service's developer message, which is English and product-neutral by contract."""

from __future__ import annotations

from agenda_kit.calendar.errors import CalendarError
from agent_service.infrastructure.agent import messages

RETRY_LATER = frozenset(
    {"PROVIDER_UNAVAILABLE", "RATE_LIMITED", "QUOTA_EXCEEDED", "DAILY_LIMIT_EXCEEDED"}
)
"""Reasons after which trying again later may work."""
TAKEN = frozenset({"SLOT_TAKEN"})


def calendar_trouble(error: CalendarError, language: str) -> str:
    """The customer's sentence for ``error``: try later, the time is taken, or this calendar
    cannot be used now (every other reason: a setup the business must fix)."""
    if error.reason in RETRY_LATER:
        return messages.text("calendar_try_later", language)
    if error.reason in TAKEN:
        return messages.text("reason_slot_taken", language)
    return messages.text("calendar_unusable", language)


def said(error: Exception, language: str) -> str:
    """``error`` as a tool result may quote it: calendar errors localized by reason, the
    agent's own errors as they are."""
    return calendar_trouble(error, language) if isinstance(error, CalendarError) else str(error)
