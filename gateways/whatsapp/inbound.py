"""What a webhook delivery carries, read from Meta's shape
(``entry[].changes[].value.{metadata.phone_number_id, contacts[], messages[], statuses[]}``).

Rules: only messages to this gateway's phone number id are read; a text gives its body, a
reply-button tap (``interactive.button_reply``) or a template quick reply (``button``) its
id and title; other kinds (media, location, reactions) are not forwarded (none of the agent's
input); anything not in the expected shape is skipped, never an error (the delivery is
acknowledged so Meta does not send it again and again)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

MAX_TEXT = 4000


@dataclass(frozen=True, slots=True, kw_only=True)
class Inbound:
    """One customer message as the agent needs it."""

    wamid: str
    sender: str
    name: str = ""
    text: str = ""
    button_id: str = ""
    """The tapped button's id (a reply button we sent, or a template quick reply)."""


def messages_of(payload: Any, phone_number_id: str) -> Iterator[Inbound]:
    """The supported messages of a webhook payload addressed to ``phone_number_id``."""
    for value in _values(payload):
        if _dict(value.get("metadata")).get("phone_number_id") != phone_number_id:
            continue
        names = {
            _text(contact.get("wa_id")): _text(_dict(contact.get("profile")).get("name"))
            for contact in _dicts(value.get("contacts"))
        }
        for message in _dicts(value.get("messages")):
            inbound = _inbound(message, names)
            if inbound is not None:
                yield inbound


def _inbound(message: dict[str, Any], names: dict[str, str]) -> Inbound | None:
    wamid, sender = _text(message.get("id")), _text(message.get("from"))
    if not wamid or not sender:
        return None
    kind = message.get("type")
    name = names.get(sender, "")
    if kind == "text":
        body = _text(_dict(message.get("text")).get("body"))[:MAX_TEXT]
        return Inbound(wamid=wamid, sender=sender, name=name, text=body) if body.strip() else None
    if kind == "interactive":
        reply = _dict(_dict(message.get("interactive")).get("button_reply"))
        return _tap(wamid, sender, name, _text(reply.get("id")), _text(reply.get("title")))
    if kind == "button":
        button = _dict(message.get("button"))
        return _tap(wamid, sender, name, _text(button.get("payload")), _text(button.get("text")))
    return None


def _tap(wamid: str, sender: str, name: str, button_id: str, title: str) -> Inbound | None:
    if not button_id or not title.strip():
        return None
    return Inbound(
        wamid=wamid, sender=sender, name=name, text=title[:MAX_TEXT], button_id=button_id
    )


def _values(payload: Any) -> Iterator[dict[str, Any]]:
    for entry in _dicts(_dict(payload).get("entry")):
        for change in _dicts(entry.get("changes")):
            if change.get("field", "messages") == "messages":
                yield _dict(change.get("value"))


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _dicts(value: Any) -> list[dict[str, Any]]:
    return [item for item in value if isinstance(item, dict)] if isinstance(value, list) else []


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""
