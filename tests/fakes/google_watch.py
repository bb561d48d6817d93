"""Push notification channels of the Google Calendar emulator (``events.watch``,
``channels.stop``), in the shape Google uses.

``POST /calendars/{calendarId}/events/watch`` with ``{"id", "type": "web_hook", "address",
"token"?, "params": {"ttl"}?}`` answers an ``api#channel`` resource (``id``, ``resourceId``,
``resourceUri``, ``token``, ``expiration`` in epoch milliseconds as a string); the emulator
then POSTs an empty-bodied notification to ``address`` — ``X-Goog-Resource-State: sync``
first, ``exists`` after every change to the calendar's events (through the API or
``EmulatorState`` directly) — with the headers ``X-Goog-Channel-ID``,
``X-Goog-Channel-Token``, ``X-Goog-Channel-Expiration``, ``X-Goog-Resource-ID``,
``X-Goog-Resource-URI``, ``X-Goog-Resource-State`` and ``X-Goog-Message-Number``.
Google requires an HTTPS address; the emulator also accepts ``http://`` on loopback
(tests and benchmarks have no certificate).
"""

from __future__ import annotations

import asyncio
import itertools
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from email.utils import formatdate
from typing import Any
from urllib.parse import urlsplit

import aiohttp

from tests.fakes.google_errors import EmulatorError

DEFAULT_TTL_SECONDS = 604_800  # Google's default (and maximum) for events channels
_LOOPBACK = frozenset({"127.0.0.1", "localhost", "::1"})


@dataclass
class Channel:
    channel_id: str
    calendar_id: str
    address: str
    token: str | None
    resource_id: str
    resource_uri: str
    expiration_ms: int
    messages: itertools.count[int] = field(default_factory=lambda: itertools.count(1))

    def resource(self) -> dict[str, Any]:
        body = {
            "kind": "api#channel",
            "id": self.channel_id,
            "resourceId": self.resource_id,
            "resourceUri": self.resource_uri,
            "expiration": str(self.expiration_ms),
        }
        return body | ({"token": self.token} if self.token is not None else {})


@dataclass(frozen=True, slots=True)
class Delivery:
    """One notification sent: its channel, state and the receiver's HTTP status (0: failed)."""

    channel_id: str
    state: str
    status: int


class WatchChannels:
    """Open channels by id; notifications go out as tasks on the running loop."""

    def __init__(self, base_url: str = "", clock: Callable[[], float] = time.time) -> None:
        self.base_url = base_url
        self.clock = clock
        """Google's clock (seconds since the epoch): channel expirations are set and checked
        on it; a test replaces it to move the emulator's time."""
        self.channels: dict[str, Channel] = {}
        self.deliveries: list[Delivery] = []
        self._tasks: set[asyncio.Task[None]] = set()
        self._session: aiohttp.ClientSession | None = None

    def watch(self, calendar_id: str, body: dict[str, Any]) -> dict[str, Any]:
        channel_id, address = body.get("id"), body.get("address")
        if not isinstance(channel_id, str) or not channel_id:
            raise EmulatorError(400, "required", "Missing channel id.")
        if body.get("type") not in ("web_hook", "webhook"):
            raise EmulatorError(400, "invalid", "Unknown channel type.")
        if not isinstance(address, str) or not _deliverable(address):
            raise EmulatorError(400, "push.webhookUrlNotHttps", "WebHook callback must be HTTPS.")
        if channel_id in self.channels:
            raise EmulatorError(400, "channelIdNotUnique", "Channel id not unique.")
        ttl = int(((body.get("params") or {}).get("ttl")) or DEFAULT_TTL_SECONDS)
        channel = Channel(
            channel_id=channel_id,
            calendar_id=calendar_id,
            address=address,
            token=body.get("token"),
            resource_id=uuid.uuid4().hex,
            resource_uri=f"{self.base_url}/calendars/{calendar_id}/events?alt=json",
            expiration_ms=int((self.clock() + min(ttl, DEFAULT_TTL_SECONDS)) * 1000),
        )
        self.channels[channel_id] = channel
        self._send(channel, "sync")
        return channel.resource()

    def stop(self, body: dict[str, Any]) -> None:
        channel = self.channels.get(str(body.get("id")))
        if channel is None or channel.resource_id != body.get("resourceId"):
            raise EmulatorError(404, "notFound", "Channel not found.")
        del self.channels[channel.channel_id]

    def changed(self, calendar_id: str) -> None:
        """A calendar's events changed: notify every live channel watching it."""
        now_ms = self.clock() * 1000
        for channel in list(self.channels.values()):
            if channel.calendar_id == calendar_id and channel.expiration_ms > now_ms:
                self._send(channel, "exists")

    async def settled(self) -> None:
        """Wait until every notification sent so far has been delivered (or failed)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    async def close(self) -> None:
        await self.settled()
        if self._session is not None:
            await self._session.close()
            self._session = None

    def _send(self, channel: Channel, state: str) -> None:
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no loop (a synchronous test): nothing can be delivered
            return
        task = loop.create_task(self._deliver(channel, state, next(channel.messages)))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _deliver(self, channel: Channel, state: str, number: int) -> None:
        headers = {
            "X-Goog-Channel-ID": channel.channel_id,
            "X-Goog-Channel-Expiration": formatdate(channel.expiration_ms / 1000, usegmt=True),
            "X-Goog-Resource-ID": channel.resource_id,
            "X-Goog-Resource-URI": channel.resource_uri,
            "X-Goog-Resource-State": state,
            "X-Goog-Message-Number": str(number),
        }
        if channel.token is not None:
            headers["X-Goog-Channel-Token"] = channel.token
        if self._session is None:
            self._session = aiohttp.ClientSession()
        try:
            async with self._session.post(channel.address, headers=headers, data=b"") as reply:
                status = reply.status
        except (aiohttp.ClientError, OSError):
            status = 0
        self.deliveries.append(Delivery(channel.channel_id, state, status))


def _deliverable(address: str) -> bool:
    parts = urlsplit(address)
    return parts.scheme == "https" or (parts.scheme == "http" and parts.hostname in _LOOPBACK)
