"""``ChatState`` (docs/agents.md#chatstate): the graph's state. Nodes return only the keys
they change; lists that accumulate over a turn have reducers."""

from __future__ import annotations

import operator
from typing import Annotated, Any, TypedDict


class ChatState(TypedDict, total=False):
    tenant_id: str
    customer_id: str
    session_id: str
    message: str
    history: list[dict[str, str]]  # [{role, content}] latest transcript
    language: str
    conversation_language: str  # settled on the first message with evidence; "" until then
    current_datetime: str
    current_weekday: str
    memory: dict[str, Any]  # customer name, upcoming appointments, summary
    intent: str
    intent_confidence: float
    active_specialist: str
    escaped_from: Annotated[list[str], operator.add]
    response: str
    citations: Annotated[list[dict[str, str]], operator.add]
    pending_action: dict[str, Any] | None
    histories: dict[str, list[Any]]  # Pydantic AI messages (JSON) per specialist
    summary: str
    status: str  # routing, answering, done, error
    error: str | None
    trace_id: str
    answered_by: str
