"""What the gateway sends for an agent's answer, and what a tapped button means.

Rules (docs/gateways.md#replies):
- a response whose message a burst's other reply covers (``covered_by_message_id``), or with
  no reply (a human has the conversation), sends nothing: one WhatsApp message per burst;
- a reply with a pending action's quick replies is a reply-button message when Meta's limits
  allow it (else the text alone: the reply always ends with the question in words);
- a button's id is ``agenda:<confirm|decline>:<pending id>``: a tap is read back into that
  structured decision (``decision_of``), never from its title; anything else is no decision.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from agenda.agent.v1 import agent_service_pb2 as pb
from gateways.whatsapp.graph import Button, buttons_message, fits, text_message

CONFIRM = "confirm"
DECLINE = "decline"
_BUTTON = re.compile(r"^agenda:(confirm|decline):([!-~]{1,200})$")


@dataclass(frozen=True, slots=True)
class Decision:
    """The customer's structured answer to a pending action."""

    choice: str
    pending_id: str


@dataclass(frozen=True, slots=True)
class QuickReply:
    choice: str
    label: str


@dataclass(frozen=True, slots=True)
class PendingChoice:
    """A pending action as buttons need it: its id and its labelled quick replies."""

    pending_id: str
    quick_replies: tuple[QuickReply, ...]


def button_id(decision: Decision) -> str:
    return f"agenda:{decision.choice}:{decision.pending_id}"


def decision_of(tapped_id: str) -> Decision | None:
    """The decision a tapped button's id stands for (None: not one of ours)."""
    match = _BUTTON.match(tapped_id)
    return None if match is None else Decision(match.group(1), match.group(2))


def buttons_for(pending: PendingChoice | None) -> list[Button]:
    if pending is None:
        return []
    return [
        Button(button_id(Decision(reply.choice, pending.pending_id)), reply.label)
        for reply in pending.quick_replies
        if reply.choice in (CONFIRM, DECLINE)
    ]


def pending_choice(response: pb.SendMessageResponse) -> PendingChoice | None:
    """The response's pending action with quick replies, when the agent sends them (the
    consent issue's ``PendingAction.id`` and ``quick_replies``; until then: none)."""
    return None


def outgoing(response: pb.SendMessageResponse, to: str, reply_to: str) -> dict[str, Any] | None:
    """The Graph API message answering the customer's message ``reply_to``, or None."""
    if response.covered_by_message_id or not response.reply.strip():
        return None
    buttons = buttons_for(pending_choice(response))
    if buttons and fits(response.reply, buttons):
        return buttons_message(to, response.reply, buttons, reply_to)
    return text_message(to, response.reply, reply_to)
