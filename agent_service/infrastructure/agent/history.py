"""Pydantic AI message history kept as JSON in the graph state (per specialist), bounded.

Per task: only the specialist that answered keeps its messages, and only while its task is
open (``task_history``). A specialist taking over, or starting after a finished task, starts
from no messages; what happened before reaches it as the short summary in the context block
(``memory.task_summary``). Sent tokens then grow with the task, not with the conversation.

A specialist taking over a task another one left unfinished (a price question, then "book me
one") gets that task's conversation text — the customer's messages and the replies, at most
``HANDOVER_EXCHANGES`` of them, never its tool calls and results (``handed_over``): what was
asked about (a service, a professional) carries over without the other job's tool traffic.

A read tool's result that a later call in the kept history returned again, word for word (a
model re-reading the services every turn), is kept once: the older copies say so
(``_once``). The same policy applies to any agent kept with ``task_history``.

Bounds: every text in a kept message is cut to ``MAX_PART_CHARS``; a tool call whose arguments
are larger is kept with empty arguments; a specialist's history is at most
``MAX_HISTORY_CHARS`` of JSON (the oldest exchanges go first). So whatever a model says or
passes, a conversation document stays far below MongoDB's 16 MB.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic_ai.messages import (
    ModelMessage,
    ModelMessagesTypeAdapter,
    ModelRequest,
    ModelResponse,
    TextPart,
    UserPromptPart,
)

KEEP_MESSAGES = 16
HANDOVER_EXCHANGES = 2
READ_TOOLS = frozenset(
    {"list_services", "list_professionals", "check_availability", "list_my_appointments"}
)
REPEATED = "(same result as this tool's later call below)"
MIN_REPEATED_CHARS = 2 * len(REPEATED)
MAX_PART_CHARS = 2000
MAX_HISTORY_CHARS = 60_000
_CUT = "…"


def dump_history(messages: list[ModelMessage]) -> list[Any]:
    """JSON of the latest messages, cut so the kept part starts at a customer message (the
    oldest exchanges go first while the whole is over ``MAX_HISTORY_CHARS`` of JSON)."""
    kept = _from_customer_message(messages[-KEEP_MESSAGES:])
    dumped: list[Any] = []
    sizes: list[int | None] = []  # each message's JSON length (None: changed, measure again)
    for message in ModelMessagesTypeAdapter.dump_python(kept, mode="json"):
        size = len(json.dumps(message))  # within MAX_PART_CHARS: no text in it can be longer
        fits = size <= MAX_PART_CHARS or _fits(message, calls=True)
        dumped.append(message if fits else bound(message))
        sizes.append(size if fits else None)
    for index in _once(dumped):
        sizes[index] = None
    # A list's JSON is its items' joined by ", " in brackets: 2 characters more per item.
    after = [
        2 + (len(json.dumps(m)) if size is None else size)
        for m, size in zip(dumped, sizes, strict=True)
    ]
    for index in range(len(after) - 2, -1, -1):
        after[index] += after[index + 1]  # the JSON length from this message on
    start = 0
    while start < len(dumped) and after[start] > MAX_HISTORY_CHARS:
        start = _customer_message_at(dumped, start + 1)
    return dumped[start:]


def _once(dumped: list[Any]) -> set[int]:
    """Older word-for-word copies of a read tool's result replaced by a short note; the
    indexes of the messages changed."""
    seen: set[tuple[str, str]] = set()
    changed: set[int] = set()
    for index in range(len(dumped) - 1, -1, -1):
        message = dumped[index]
        for part in message.get("parts", []):
            if part.get("part_kind") != "tool-return" or part.get("tool_name") not in READ_TOOLS:
                continue
            content = part.get("content")
            if not isinstance(content, str) or len(content) < MIN_REPEATED_CHARS:
                continue
            key = (part["tool_name"], content)
            if key in seen:
                part["content"] = REPEATED
                changed.add(index)
            seen.add(key)
    return changed


def task_history(name: str, messages: list[ModelMessage], done: bool) -> dict[str, list[Any]]:
    """The histories to keep after ``name`` answered: its own task's messages, or none once
    the task is done; every other specialist's are dropped (their tasks are over)."""
    return {} if done else {name: dump_history(messages)}


def handed_over(histories: dict[str, list[Any]], name: str) -> list[ModelMessage] | None:
    """For ``name`` starting with no messages of its own: the other specialists' unfinished
    task as text only (customer message → final reply), the latest ``HANDOVER_EXCHANGES``."""
    exchanges: list[tuple[str, str]] = []
    for other, dumped in histories.items():
        if other != name:
            exchanges.extend(_text_exchanges(dumped))
    if not exchanges:
        return None
    messages: list[ModelMessage] = []
    for asked, replied in exchanges[-HANDOVER_EXCHANGES:]:
        messages.append(ModelRequest(parts=[UserPromptPart(content=asked)]))
        messages.append(ModelResponse(parts=[TextPart(content=replied)]))
    return messages


def _text_exchanges(dumped: list[Any]) -> list[tuple[str, str]]:
    """(customer text, final reply text) pairs; a turn that ended without a text reply (an
    escape to the router) is left out."""
    exchanges: list[tuple[str, str]] = []
    asked: str | None = None
    for message in dumped:
        for part in message.get("parts", []):
            kind, content = part.get("part_kind"), part.get("content")
            if kind == "user-prompt" and isinstance(content, str):
                asked = content
            elif kind == "text" and asked is not None and isinstance(content, str):
                exchanges.append((asked, content))
                asked = None
    return exchanges


def load_history(data: list[Any] | None) -> list[ModelMessage] | None:
    if not data:
        return None
    return ModelMessagesTypeAdapter.validate_python(data)


def bounded_messages(messages: list[ModelMessage]) -> list[ModelMessage]:
    """``messages`` with every oversized text cut (what a model is sent back stays bounded,
    e.g. a validation error echoing a 10 MB argument); unchanged when nothing is oversized."""
    dumped = ModelMessagesTypeAdapter.dump_python(messages, mode="json")
    if all(_fits(message) for message in dumped):
        return messages
    return ModelMessagesTypeAdapter.validate_python([bound(m) for m in dumped])


def bound(value: Any) -> Any:
    """Every string cut to ``MAX_PART_CHARS``; oversized tool-call arguments emptied."""
    if isinstance(value, str):
        return value if len(value) <= MAX_PART_CHARS else value[: MAX_PART_CHARS - 1] + _CUT
    if isinstance(value, list):
        return [bound(item) for item in value]
    if isinstance(value, dict):
        if value.get("part_kind") == "tool-call" and len(json.dumps(value.get("args"))) > (
            MAX_PART_CHARS
        ):
            value = value | {"args": {}}
        return {key: bound(item) for key, item in value.items()}
    return value


def _fits(value: Any, *, calls: bool = False) -> bool:
    """Whether every string in ``value`` (JSON: dicts, lists, scalars) is within
    ``MAX_PART_CHARS`` and, with ``calls``, every tool call's arguments too: what ``bound``
    leaves unchanged. One loop over a stack, not a call per value (a history holds hundreds)."""
    pending = [value]
    take, extend = pending.pop, pending.extend
    while pending:
        item = take()
        kind = type(item)
        if kind is str:
            if len(item) > MAX_PART_CHARS:
                return False
        elif kind is list:
            extend(item)
        elif kind is dict:
            if (
                calls
                and item.get("part_kind") == "tool-call"
                and len(json.dumps(item.get("args"))) > MAX_PART_CHARS
            ):
                return False
            extend(item.values())
    return True


def _from_customer_message(messages: list[ModelMessage]) -> list[ModelMessage]:
    for index, message in enumerate(messages):
        if isinstance(message, ModelRequest) and any(
            isinstance(part, UserPromptPart) for part in message.parts
        ):
            return messages[index:]
    return []


def _customer_message_at(dumped: list[Any], start: int) -> int:
    """The index of the first customer message at or after ``start`` (``len``: none)."""
    for index in range(start, len(dumped)):
        message = dumped[index]
        if message.get("kind") == "request" and any(
            part.get("part_kind") == "user-prompt" for part in message.get("parts", [])
        ):
            return index
    return len(dumped)
