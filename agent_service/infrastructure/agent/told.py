"""What a reply of a turn that changed nothing may repeat as told (``application/statements``):
this turn's tool returns as the model read them and their text values, the words of those
values (not of the system's notes to the model), and the system's sentences for the
structured results the conversation holds (``outcome_text.told``)."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence

from agent_service.application.text import normalize
from agent_service.infrastructure.agent.deps import ToolText
from agent_service.infrastructure.agent.outcome_text import Held, told
from agent_service.infrastructure.agent.tools.results import read_result, read_retry


def told_texts(texts: Sequence[ToolText], codes: Sequence[str], has_upcoming: bool) -> list[str]:
    """What a no-change reply may repeat as told (``statements``): this turn's tool returns
    and their text values, and the system's sentences for the structured results the
    conversation holds (``outcome_text.told``)."""
    found: list[str] = []
    held = []
    for item in texts:
        values = _text_values(item.text)
        if item.this_turn:
            found += [item.text, *values]
        held.append(_held(item))
    return found + told(held, codes, has_upcoming)


def told_words(texts: Sequence[ToolText]) -> frozenset[str]:
    """The folded words of this turn's tool returns — their values, not their notes (a note
    is the system's instruction to the model, not something a tool found)."""
    found: set[str] = set()
    for item in texts:
        if item.this_turn:
            values = _json_values(item.text, skip=NOTE_KEYS)
            for value in [item.text] if values is None else values:
                found.update(_WORD.findall(normalize(value)))
    return frozenset(found)


NOTE_KEYS = frozenset({"note"})
_WORD = re.compile(r"[^\W\d_]+")


def _text_values(text: str) -> list[str]:
    """The strings inside a JSON tool return (an FAQ answer as the salon wrote it, unescaped);
    none for a plain text."""
    return _json_values(text) or []


def _json_values(text: str, skip: frozenset[str] = frozenset()) -> list[str] | None:
    """The strings inside ``text`` read as JSON, but those under a ``skip`` key; ``None`` when
    ``text`` is no JSON."""
    if not text.startswith(("{", "[")):
        return None
    try:
        data = json.loads(text)
    except ValueError:
        return None
    found: list[str] = []
    stack = [data]
    while stack:
        value = stack.pop()
        if isinstance(value, str):
            found.append(value)
        elif isinstance(value, dict):
            stack.extend(v for k, v in value.items() if k not in skip)
        elif isinstance(value, list):
            stack.extend(value)
    return found


def this_turn_outcomes(texts: Sequence[ToolText], language: str) -> list[str]:
    """The system's sentences for this turn's structured outcomes in ``language`` (what a
    refused reply is replaced by: ``truth``)."""
    held = [_held(item) for item in texts if item.this_turn]
    return told(held, (language,), True, catalog=False)


def _held(item: ToolText) -> Held:
    """``item``'s structured result, or its tool's retry as it returned (or wrapped as a tool
    error's text)."""
    data = read_result(item.text)
    if data is not None:
        return Held(data, None, item.this_turn)
    retries = (read_retry(t) for t in (item.text, *_text_values(item.text)))
    return Held(None, next((r for r in retries if r is not None), None), item.this_turn)
