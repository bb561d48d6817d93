"""The Graph API's send-message endpoint (``POST {base}/{version}/{phone_number_id}/messages``,
bearer access token): text messages and reply-button messages, in Meta's request shape.

Rules: a text is cut to 4096 characters; a button message carries 1–3 reply buttons with
unique titles of at most 20 characters (and ids of at most 256, no edge spaces) and a body of
at most 1024 characters; a reply names the customer's message it answers (``context``). A
send that Meta refuses raises ``GraphError`` with Meta's error code (e.g. 131047: outside the
24-hour window, a template is needed)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import aiohttp

MAX_TEXT = 4096
MAX_BODY = 1024
MAX_TITLE = 20
MAX_BUTTON_ID = 256
MAX_BUTTONS = 3


@dataclass(frozen=True, slots=True)
class Button:
    """A reply button: what a tap sends back (``id``) and what it says (``title``)."""

    id: str
    title: str


class GraphError(Exception):
    """Meta refused a send: HTTP ``status`` and Meta's ``code`` (0 when it sent none)."""

    def __init__(self, status: int, code: int, message: str) -> None:
        super().__init__(f"graph api {status} (code {code}): {message}")
        self.status = status
        self.code = code


def text_message(to: str, body: str, reply_to: str = "") -> dict[str, Any]:
    message: dict[str, Any] = {
        "messaging_product": "whatsapp",
        "recipient_type": "individual",
        "to": to,
        "type": "text",
        "text": {"preview_url": False, "body": body[:MAX_TEXT]},
    }
    if reply_to:
        message["context"] = {"message_id": reply_to}
    return message


def buttons_message(
    to: str, body: str, buttons: list[Button], reply_to: str = ""
) -> dict[str, Any]:
    """A reply-button message; ``buttons`` must already fit Meta's limits (``fits``)."""
    message: dict[str, Any] = {
        "messaging_product": "whatsapp",
        "recipient_type": "individual",
        "to": to,
        "type": "interactive",
        "interactive": {
            "type": "button",
            "body": {"text": body[:MAX_BODY]},
            "action": {
                "buttons": [
                    {"type": "reply", "reply": {"id": b.id, "title": b.title}} for b in buttons
                ]
            },
        },
    }
    if reply_to:
        message["context"] = {"message_id": reply_to}
    return message


def fits(body: str, buttons: list[Button]) -> bool:
    """Whether Meta accepts these buttons under this body (else send the text alone)."""
    titles = [b.title for b in buttons]
    return (
        0 < len(buttons) <= MAX_BUTTONS
        and len(body) <= MAX_BODY
        and len(set(titles)) == len(titles)
        and all(0 < len(b.title) <= MAX_TITLE and b.title.strip() == b.title for b in buttons)
        and all(0 < len(b.id) <= MAX_BUTTON_ID and b.id.strip() == b.id for b in buttons)
    )


class GraphClient:
    """Sends messages as the business's phone number."""

    def __init__(
        self,
        session: aiohttp.ClientSession,
        *,
        base: str,
        version: str,
        phone_number_id: str,
        access_token: str,
    ) -> None:
        self._session = session
        self._url = f"{base.rstrip('/')}/{version}/{phone_number_id}/messages"
        self._headers = {"Authorization": f"Bearer {access_token}"}

    async def send(self, message: dict[str, Any]) -> str:
        """Send one message; the wamid Meta gave it."""
        async with self._session.post(self._url, json=message, headers=self._headers) as reply:
            body: Any = await reply.json(content_type=None)
            if reply.status != 200:
                error = body.get("error", {}) if isinstance(body, dict) else {}
                raise GraphError(
                    reply.status, int(error.get("code", 0)), str(error.get("message", ""))
                )
        return str(body["messages"][0]["id"])
