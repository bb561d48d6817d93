"""The offline model never reads Pydantic AI's retry feedback as the customer's words.

An output validator's ``ModelRetry`` reaches a model in the user's voice, opened by the
framework's attribution line and quoting the model's own refused words ("'3pm' (time)"). Read as
the customer's message it turned a refused example into a request: "actually, another time"
got a proposal at 15:00, and the customer's next "yes" booked a time they never named. The
feedback text here is rendered by Pydantic AI itself (``RetryFeedbackPart.model_response``), so
the test follows the framework's wording."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic_ai.messages import (
    ModelMessage,
    ModelRequest,
    ModelResponse,
    RetryFeedbackPart,
    RetryInfo,
    TextPart,
    UserPromptPart,
)

from agent_service.infrastructure.agent.offline.context import read_context
from tests.scale import size

INSTRUCTIONS = "Current local date-time: 2026-11-30T10:00:00-03:00\nTime zone: America/Sao_Paulo"
customer_text = st.text(st.characters(codec="utf-8"), min_size=1)
feedback_text = st.one_of(
    st.sampled_from(
        [
            "These facts are not in any tool result: '3pm' (time); 'Ana' (name).",
            "O horário '15h' não está em nenhum resultado.",
        ]
    ),
    st.text(min_size=1),
)


def feedback(content: str) -> UserPromptPart:
    """The feedback as a model receives it: the part's text in the user's voice."""
    part = RetryFeedbackPart(content, retry=RetryInfo(cause="model_retry"))
    return UserPromptPart(part.model_response())


@settings(max_examples=size(200, 2000))
@given(earlier=customer_text, current=customer_text, content=feedback_text)
def test_the_customers_message_is_never_the_frameworks_feedback(
    earlier: str, current: str, content: str
) -> None:
    messages: list[ModelMessage] = [
        ModelRequest(parts=[UserPromptPart(earlier)]),
        ModelResponse(parts=[TextPart("Confirma?")]),
        ModelRequest(parts=[UserPromptPart(current)]),
        ModelResponse(parts=[TextPart("What should I change (for example, 3pm with Ana)?")]),
        ModelRequest(parts=[feedback(content)]),
    ]
    context = read_context(messages, INSTRUCTIONS)
    assert context.text == current
    assert context.earlier_texts == [earlier]
