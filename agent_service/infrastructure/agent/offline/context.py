"""What the offline model can see: the customer's words, the context block and tool results.

It reads exactly what a real model would read (messages and instructions), nothing else.
"""

from __future__ import annotations

import ast
import json
import re
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from pydantic_ai.messages import (  # the feedback's opening line has no public name
    _RETRY_FEEDBACK_FRAMING,
    ModelMessage,
    ModelRequest,
    ModelResponse,
    RetryPromptPart,
    ToolCallPart,
    ToolReturnPart,
    UserPromptPart,
)

from agent_service.infrastructure.agent.offline.intents import is_negative
from agent_service.infrastructure.agent.offline.when import has_when_mention
from agent_service.infrastructure.agent.tools.results import (
    WRITE_DONE,
    AnyResult,
    Retry,
    read_result,
    read_retry,
    result_code,
)


def is_plain_no(text: str) -> bool:
    """A short "no" with nothing else in it (no day or time): it ends the proposal it answers."""
    return is_negative(text) and not has_when_mention(text) and len(text.split()) <= 4


CATALOG_LISTINGS = ("list_services", "list_professionals")
TURNED_DOWN = "Turned down by this message"
SYSTEM_NOTE = "<system>"
"""How a model without inline system prompts is sent a note such as Pydantic AI's "The
following tool(s) are now available" (a step's tools opening mid-run): never the customer."""
RETRY_FEEDBACK = _RETRY_FEEDBACK_FRAMING
"""The line that opens Pydantic AI's feedback on a response it could not use (an output
validator's ``ModelRetry``, a validation error), which a model receives in the user's voice:
never the customer. It quotes the model's own words back ("'3pm' (time) is not in any tool
result"), so read as the customer's message it would turn a refused fact into a request."""
_LINE = re.compile(
    r"^(Current local date-time|Time zone|Language|Business|Pending action|Customer memory"
    r"|Turned down by this message): (.*)$",
    re.M,
)
_UPCOMING = re.compile(r"(?:^|; )upcoming: (\[.*?\])(?=; [a-z]+: |$)")


@dataclass
class ToolResult:
    """One tool return of this run: its structured result (``data``), or for a retry the
    tool's message (``text``; a retry from the tools is itself a structured ``RETRY``)."""

    tool: str
    text: str
    is_retry: bool = False
    data: AnyResult | None = None
    retry: Retry | None = None

    @property
    def code(self) -> str:
        """The result's code (``RETRY`` for a retry, ``""`` when unstructured)."""
        if self.retry is not None:
            return "RETRY"
        return self.data.result if self.data is not None else ""


@dataclass
class OfflineContext:
    """One model request's view: the current message, earlier messages of the same task,
    the tools already called in this run and what they returned."""

    text: str
    earlier_texts: list[str]
    now: datetime
    zone: ZoneInfo
    language: str
    business: str
    pending: dict[str, Any] | None
    results: list[ToolResult] = field(default_factory=list)
    turned_down: dict[str, Any] | None = None
    """The proposal (tool, arguments) the current message turned down, as the context says."""
    earlier_results: list[ToolResult] = field(default_factory=list)
    """Tool results of the task's earlier turns (its kept history), oldest first."""
    upcoming: tuple[str, ...] = ()
    """The customer's upcoming appointments as the context's memory describes them."""

    def catalog(self, tool: str) -> ToolResult | None:
        """The latest catalog listing (``list_services``, ``list_professionals``) of this run,
        else of the task's earlier turns: the ids it returned are still in the conversation,
        so a model need not look them up again on every turn of the same booking."""
        found = self.result(tool)
        if found is not None or tool not in CATALOG_LISTINGS:
            return found
        for item in reversed(self.earlier_results):
            if item.tool == tool and not item.is_retry:
                return item
        return None

    def knows_catalog(self) -> bool:
        """Both catalog listings are in this run or the task's earlier turns."""
        return all(self.catalog(tool) is not None for tool in CATALOG_LISTINGS)

    def result(self, tool: str) -> ToolResult | None:
        """The latest result of ``tool`` in this run."""
        for item in reversed(self.results):
            if item.tool == tool:
                return item
        return None

    def called(self, tool: str) -> bool:
        return self.result(tool) is not None

    @property
    def fresh_texts(self) -> list[str]:
        """:attr:`texts` up to (not including) the customer's last plain "no": a declined
        proposal's day and time never come back."""
        fresh: list[str] = []
        for candidate in self.texts:
            if fresh and is_plain_no(candidate):
                break
            fresh.append(candidate)
        return fresh

    @property
    def texts(self) -> list[str]:
        """The current message first, then earlier ones of the same task, newest first."""
        return [self.text, *reversed(self.earlier_texts)]


def read_context(messages: list[ModelMessage], instructions: str | None) -> OfflineContext:
    fields = {m.group(1): m.group(2).strip() for m in _LINE.finditer(instructions or "")}
    zone = ZoneInfo(fields.get("Time zone", "UTC"))
    now = (
        datetime.fromisoformat(fields["Current local date-time"])
        if ("Current local date-time" in fields)
        else datetime.now(zone)
    )
    pending = json.loads(fields["Pending action"]) if "Pending action" in fields else None
    prompts = _user_prompts(messages)
    current_index = prompts[-1][0] if prompts else len(messages)
    return OfflineContext(
        text=prompts[-1][1] if prompts else "",
        earlier_texts=_task_texts(messages, prompts[:-1]),
        now=now.astimezone(zone),
        zone=zone,
        language=fields.get("Language", "pt"),
        business=fields.get("Business", ""),
        pending=pending,
        results=_results(messages[current_index:]),
        earlier_results=_results(messages[:current_index]),
        upcoming=upcoming_in(fields.get("Customer memory", "")),
        turned_down=(json.loads(fields[TURNED_DOWN]) if TURNED_DOWN in fields else None),
    )


def upcoming_in(memory: str) -> tuple[str, ...]:
    """The ``upcoming`` list of the memory line (``memory.memory_text``); none when absent or
    not a list of texts."""
    found = _UPCOMING.search(memory)
    try:
        items = ast.literal_eval(found.group(1)) if found else []
    except (ValueError, SyntaxError):
        return ()
    return tuple(str(item) for item in items) if isinstance(items, list) else ()


def _user_prompts(messages: list[ModelMessage]) -> list[tuple[int, str]]:
    found = []
    for index, message in enumerate(messages):
        if isinstance(message, ModelRequest):
            for part in message.parts:
                if (
                    isinstance(part, UserPromptPart)
                    and isinstance(part.content, str)
                    and not part.content.startswith((SYSTEM_NOTE, RETRY_FEEDBACK))
                ):
                    found.append((index, part.content))
    return found


def _task_texts(messages: list[ModelMessage], earlier: list[tuple[int, str]]) -> list[str]:
    """Earlier customer messages since the last completed write (a new task starts after it)."""
    last_done = -1
    for index, message in enumerate(messages):
        if isinstance(message, ModelRequest) and any(
            isinstance(p, ToolReturnPart) and result_code(p.content) in WRITE_DONE
            for p in message.parts
        ):
            last_done = index
    return [text for index, text in earlier if index > last_done][-4:]


def _results(messages: list[ModelMessage]) -> list[ToolResult]:
    results = []
    for message in messages:
        if isinstance(message, ModelRequest):
            for part in message.parts:
                if isinstance(part, ToolReturnPart) and part.outcome == "retried":
                    text = str(part.content)
                    results.append(
                        ToolResult(part.tool_name, text, is_retry=True, retry=read_retry(text))
                    )
                elif isinstance(part, ToolReturnPart):
                    data = read_result(part.content)
                    results.append(ToolResult(part.tool_name, part.model_response_str(), data=data))
                elif isinstance(part, RetryPromptPart) and part.tool_name:
                    text = str(part.content)
                    results.append(
                        ToolResult(part.tool_name, text, is_retry=True, retry=read_retry(text))
                    )
    return results


def calls_in_run(messages: list[ModelMessage]) -> list[ToolCallPart]:
    """Tool calls the model already made in this run (to avoid repeating itself)."""
    prompts = _user_prompts(messages)
    start = prompts[-1][0] if prompts else 0
    return [
        part
        for message in messages[start:]
        if isinstance(message, ModelResponse)
        for part in message.parts
        if isinstance(part, ToolCallPart)
    ]
