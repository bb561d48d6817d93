"""``ChatState`` (docs/agents.md#chatstate): the graph's state. Nodes return only the keys
they change; lists that accumulate over a turn have reducers. Only what a node reads or the
engine keeps is a key: LangGraph's per-step work grows with the number of channels (ids reach
the nodes through ``AgentDeps``, the turn's citations are collected in ``AgentDeps.turn``)."""

from __future__ import annotations

import operator
from typing import Annotated, Any, TypedDict


class ChatState(TypedDict, total=False):
    message: str
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
    pending_action: dict[str, Any] | None
    last_executed: dict[str, Any] | None  # repeated_confirmations.Executed, between turns
    histories: dict[str, list[Any]]  # Pydantic AI messages (JSON) per specialist
    summary: str
    status: str  # routing, answering, done, error
    error: str | None
    answered_by: str
