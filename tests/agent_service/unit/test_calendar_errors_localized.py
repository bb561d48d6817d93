"""What a customer reads when the calendar fails is the agent's own sentence for the error's
reason, in the customer's language — never the calendar service's English developer message
(issue 22: errors are product-neutral; the agent localizes)."""

from __future__ import annotations

import pytest

from agenda_kit.calendar.errors import (
    CalendarAccessDeniedError,
    CalendarCredentialsError,
    CalendarError,
    CalendarQuotaError,
    CalendarUnavailableError,
    InvalidCalendarRequestError,
)
from agent_service.infrastructure.agent import messages
from agent_service.infrastructure.agent.calendar_errors import calendar_trouble
from tests.agent_service.conversation_fixtures import Assistant, seed_salon

TRY_LATER: tuple[CalendarError, ...] = (
    CalendarUnavailableError(),
    CalendarQuotaError(reason="RATE_LIMITED"),
    CalendarQuotaError(reason="QUOTA_EXCEEDED"),
    CalendarQuotaError(reason="DAILY_LIMIT_EXCEEDED"),
)
UNUSABLE: tuple[CalendarError, ...] = (
    CalendarCredentialsError(),
    CalendarAccessDeniedError(),
    InvalidCalendarRequestError("calendar_id: must contain only printable characters"),
)


@pytest.mark.parametrize("language", sorted(messages.CATALOG))
def test_every_reason_has_a_sentence_in_every_language(language: str) -> None:
    for error in TRY_LATER:
        assert calendar_trouble(error, language) == messages.text("calendar_try_later", language)
    for error in UNUSABLE:
        assert calendar_trouble(error, language) == messages.text("calendar_unusable", language)


@pytest.mark.parametrize("error", [TRY_LATER[0], TRY_LATER[2], UNUSABLE[2]], ids=lambda e: e.reason)
async def test_a_customer_reads_the_localized_sentence_not_the_developer_message(
    error: CalendarError,
) -> None:
    assistant = Assistant()
    salon = await seed_salon(assistant.repos)
    assistant.calendar.fail_with = error
    asked = await assistant.say(
        salon.tenant.id, "Quero agendar um corte feminino com a Ana amanhã às 10h"
    )
    reply = asked.result.reply
    assert str(error) not in reply, reply
    expected = "calendar_try_later" if error in TRY_LATER else "calendar_unusable"
    assert messages.text(expected, "pt") in reply, reply
