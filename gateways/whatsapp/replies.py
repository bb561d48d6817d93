"""What the gateway sends for an agent's answer, and what a tapped button means.

Rules (docs/gateways.md#replies):
- a response whose message a burst's other reply covers (``covered_by_message_id``), or with
  no reply (a human has the conversation), sends nothing: one WhatsApp message per burst;
- a reply with a pending action's quick replies is a reply-button message when Meta's limits
  allow it (else the text alone: the reply always ends with the question in words);
- a button's id is ``agenda:<confirm|decline>:<pending id>``: a tap is read back into that
  structured decision (``decision_of``), never from its title; anything else is no decision;
- the structured parts (``PendingAction.id``/``quick_replies``, ``SendMessageRequest.
  confirm_pending_id``/``decline_pending_id``: the consent issue's fields) are read and set by
  name from the agent's message descriptors, so this gateway runs against an agent with or
  without them: without them a reply has no buttons and a tap is its title as text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from google.protobuf.message import Message

from agenda.agent.v1 import agent_service_pb2 as pb
from gateways.whatsapp.graph import Button, buttons_message, fits, text_message

CONFIRM = "confirm"
DECLINE = "decline"
_BUTTON = re.compile(r"^agenda:(confirm|decline):([!-~]{1,241})$")
"""241 = Meta's 256 characters of a button id less the longest prefix."""
DECISION_FIELDS = {CONFIRM: "confirm_pending_id", DECLINE: "decline_pending_id"}
"""The SendMessageRequest field each decision is sent in."""
_CHOICE_SUFFIXES = {"_CONFIRM": CONFIRM, "_DECLINE": DECLINE}


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
    """One button per confirm/decline quick reply; none when an id would not read back
    (``decision_of``): then the reply goes as text and the customer types their answer."""
    if pending is None:
        return []
    buttons = [
        Button(button_id(Decision(reply.choice, pending.pending_id)), reply.label)
        for reply in pending.quick_replies
        if reply.choice in (CONFIRM, DECLINE)
    ]
    if any(decision_of(button.id) is None for button in buttons):
        return []
    return buttons


def pending_choice(response: Message) -> PendingChoice | None:
    """The response's pending action with its quick replies, when the agent sends them
    (``PendingAction.id`` and ``quick_replies``); None without a pending id."""
    if not response.HasField("pending"):
        return None
    pending: Message = getattr(response, "pending")  # noqa: B009 - any SendMessageResponse
    fields = pending.DESCRIPTOR.fields_by_name
    if "id" not in fields or "quick_replies" not in fields:
        return None
    pending_id = str(getattr(pending, "id"))  # noqa: B009 - read by name (module docstring)
    if not pending_id:
        return None
    replies = tuple(_quick_reply(reply) for reply in getattr(pending, "quick_replies"))  # noqa: B009
    return PendingChoice(pending_id, tuple(reply for reply in replies if reply.choice))


def _quick_reply(reply: Message) -> QuickReply:
    """A quick reply's choice read by its enum value's name (``QUICK_REPLY_CHOICE_CONFIRM``)."""
    number = int(getattr(reply, "choice"))  # noqa: B009
    enum = reply.DESCRIPTOR.fields_by_name["choice"].enum_type
    value = enum.values_by_number.get(number) if enum is not None else None
    name = value.name if value is not None else ""
    choice = next((c for suffix, c in _CHOICE_SUFFIXES.items() if name.endswith(suffix)), "")
    return QuickReply(choice, str(getattr(reply, "label")))  # noqa: B009


def with_decision(request: Message, tapped_id: str) -> bool:
    """Put the decision a tapped button stands for into ``request`` (its
    ``confirm_pending_id`` or ``decline_pending_id``); False, and nothing set, when the tap is
    no decision of ours or the agent's request has no such field."""
    decision = decision_of(tapped_id)
    if decision is None:
        return False
    field = DECISION_FIELDS[decision.choice]
    if field not in request.DESCRIPTOR.fields_by_name:
        return False
    setattr(request, field, decision.pending_id)
    return True


def outgoing(response: pb.SendMessageResponse, to: str, reply_to: str) -> dict[str, Any] | None:
    """The Graph API message answering the customer's message ``reply_to``, or None."""
    if response.covered_by_message_id or not response.reply.strip():
        return None
    buttons = buttons_for(pending_choice(response))
    if buttons and fits(response.reply, buttons):
        return buttons_message(to, response.reply, buttons, reply_to)
    return text_message(to, response.reply, reply_to)
