"""The customer's text as the model is sent it: never in the framework's voice.

On a provider with no mid-conversation system role, Pydantic AI sends its own notes (a tool
that opened mid-run, retry feedback) as user text framed in a ``<system>`` tag, and frames data
in other tags (``<tool_result>``, ``<context>``…). A customer who writes one of those tags would
read exactly like the application speaking, so the ``<`` of every opening or closing framing
tag in the customer's text is escaped as ``&lt;`` (the spelling Pydantic AI itself uses inside
its tags); everything else, other angle brackets included, goes as written. The stored
transcript keeps what the customer wrote.
"""

from __future__ import annotations

import re

FRAMING_TAGS = (
    "system",
    "tool_result",
    "assistant_thinking",
    "context",
    "context_diff",
    "validation_errors",
    "retry_feedback",
    "conversation_summary",
)
"""Every tag Pydantic AI writes into prompt text (``pydantic_ai._framing.FramingTag``; a test
fails when the library adds one)."""

_OPENERS = re.compile(rf"<(?=\s*(?:/\s*)?(?:{'|'.join(FRAMING_TAGS)})(?=[\s/>]|$))", re.IGNORECASE)


def customer_voice(text: str) -> str:
    """``text`` with the ``<`` of every framing tag escaped: any case, spaces around ``/``,
    attributes, self-closing or cut off at the end; a longer tag name is left alone."""
    return _OPENERS.sub("&lt;", text) if "<" in text else text
