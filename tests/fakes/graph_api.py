"""A stand-in of the WhatsApp Cloud API's send-message endpoint (aiohttp) that checks every
request the way Meta documents it (/work/shared/REFERENCES.md §1), for the gateway's tests.

    async with running_graph_api(phone_number_id="1055", token="tok") as graph:
        ...  # point the gateway at graph.base
        graph.sent          # the accepted messages, in order
        graph.refuse(131047)  # the next send is refused with that Meta error code

``POST /{version}/{phone_number_id}/messages`` with ``Authorization: Bearer <token>``:
``messaging_product: "whatsapp"``, ``to``, and a ``text`` (body 1..4096) or an
``interactive`` reply-button message (body 1..1024; 1–3 buttons of type ``reply``, unique
non-empty titles of at most 20 characters, ids of at most 256 with no edge spaces); an
optional ``context.message_id``. Anything else is a 400 in Graph's error shape, so a gateway
cannot pass a test with a request Meta would refuse.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

JSON = dict[str, Any]
_VERSION = re.compile(r"^v[0-9]+\.[0-9]+$")
_PHONE = re.compile(r"^[0-9]{6,15}$")


class RefusedError(Exception):
    def __init__(self, message: str, code: int = 100) -> None:
        super().__init__(message)
        self.message = message
        self.code = code


@dataclass
class FakeGraphApi:
    phone_number_id: str
    token: str
    root_url: str = ""
    sent: list[JSON] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)
    _refusals: list[int] = field(default_factory=list)
    _ids: itertools.count[int] = field(default_factory=lambda: itertools.count(1))

    @property
    def base(self) -> str:
        return self.root_url

    def refuse(self, code: int) -> None:
        """Refuse the next send with Meta's error ``code`` (e.g. 131047: re-engagement)."""
        self._refusals.append(code)

    def app(self) -> web.Application:
        app = web.Application()
        app.router.add_post("/{version}/{phone}/messages", self._messages)
        return app

    async def _messages(self, request: web.Request) -> web.Response:
        try:
            self._check_path(request)
            if request.headers.get("Authorization") != f"Bearer {self.token}":
                raise RefusedError("Invalid OAuth access token.", 190)
            body = await request.json()
            check_message(body)
            if self._refusals:
                raise RefusedError("Message failed to send", self._refusals.pop(0))
        except RefusedError as error:
            self.refused.append(error.message)
            status = 401 if error.code == 190 else 400
            payload = {
                "error": {"message": error.message, "type": "OAuthException", "code": error.code}
            }
            return web.json_response(payload, status=status)
        except ValueError:
            return web.json_response({"error": {"message": "bad JSON", "code": 100}}, status=400)
        self.sent.append(body)
        wamid = f"wamid.out{next(self._ids)}"
        return web.json_response(
            {
                "messaging_product": "whatsapp",
                "contacts": [{"input": body["to"], "wa_id": body["to"]}],
                "messages": [{"id": wamid}],
            }
        )

    def _check_path(self, request: web.Request) -> None:
        if not _VERSION.match(request.match_info["version"]):
            raise RefusedError("Unknown path components")
        if request.match_info["phone"] != self.phone_number_id:
            raise RefusedError("Unsupported post request: unknown phone number id")

    def texts(self) -> list[str]:
        """The bodies of every accepted message (text or button body)."""
        return [
            m["text"]["body"] if m["type"] == "text" else m["interactive"]["body"]["text"]
            for m in self.sent
        ]


def check_message(body: Any) -> None:
    """Refuse what the Cloud API refuses (the parts a gateway can get wrong)."""
    if not isinstance(body, dict) or body.get("messaging_product") != "whatsapp":
        raise RefusedError("(#100) The parameter messaging_product is required.")
    if body.get("recipient_type", "individual") != "individual":
        raise RefusedError("(#100) Invalid parameter recipient_type")
    if not isinstance(body.get("to"), str) or not _PHONE.match(body["to"]):
        raise RefusedError("(#100) Invalid parameter to")
    context = body.get("context")
    if context is not None and not (
        isinstance(context, dict) and isinstance(context.get("message_id"), str)
    ):
        raise RefusedError("(#100) Invalid parameter context")
    kind = body.get("type")
    if kind == "text":
        text = body.get("text")
        if not isinstance(text, dict) or not isinstance(text.get("body"), str):
            raise RefusedError("(#100) The parameter text['body'] is required.")
        if not 0 < len(text["body"]) <= 4096:
            raise RefusedError("(#100) Param text['body'] must be at most 4096 characters long.")
        return
    if kind == "interactive":
        _check_buttons(body.get("interactive"))
        return
    raise RefusedError(f"(#100) Unsupported message type {kind!r}")


def _check_buttons(interactive: Any) -> None:
    if not isinstance(interactive, dict) or interactive.get("type") != "button":
        raise RefusedError("(#100) Invalid interactive type")
    text = (interactive.get("body") or {}).get("text")
    if not isinstance(text, str) or not 0 < len(text) <= 1024:
        raise RefusedError("(#100) Param interactive['body']['text'] is required, at most 1024")
    buttons = (interactive.get("action") or {}).get("buttons")
    if not isinstance(buttons, list) or not 1 <= len(buttons) <= 3:
        raise RefusedError("(#100) Param interactive['action']['buttons'] must have 1 to 3 buttons")
    titles = []
    for button in buttons:
        reply = button.get("reply") if isinstance(button, dict) else None
        if button.get("type") != "reply" or not isinstance(reply, dict):
            raise RefusedError("(#100) Button type must be reply")
        title, button_id = reply.get("title"), reply.get("id")
        if not isinstance(title, str) or not 0 < len(title) <= 20:
            raise RefusedError("(#100) Button title must be 1 to 20 characters")
        if not isinstance(button_id, str) or not 0 < len(button_id) <= 256:
            raise RefusedError("(#100) Button id must be 1 to 256 characters")
        if button_id.strip() != button_id:
            raise RefusedError("(#100) Button id cannot have leading or trailing spaces")
        titles.append(title)
    if len(set(titles)) != len(titles):
        raise RefusedError("(#100) Button titles must be unique")


@asynccontextmanager
async def running_graph_api(*, phone_number_id: str, token: str) -> AsyncIterator[FakeGraphApi]:
    """The stand-in on ``127.0.0.1`` and a free port, for the block's duration."""
    fake = FakeGraphApi(phone_number_id, token)
    runner = web.AppRunner(fake.app())
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    fake.root_url = f"http://127.0.0.1:{runner.addresses[0][1]}"
    try:
        yield fake
    finally:
        await runner.cleanup()
