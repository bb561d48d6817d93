"""Google push notifications (``events.watch`` channels) for the free/busy cache.

A calendar the cache keeps is followed with a channel: Google POSTs a notification to
``address`` whenever the calendar's events change (made anywhere, a person editing Google
Calendar included), and the receiver invalidates that calendar's cached busy time. A channel
carries a random token that the notification must echo (anything else is refused), lives
``channel_ttl`` seconds and is opened again by the next answer once less than
``renew_margin`` is left. Notifications may arrive late or (rarely) not at all: the cache keeps
a followed calendar only for a bounded TTL, and the pre-write fresh re-check never uses it.
"""

from __future__ import annotations

import asyncio
import secrets
import time
import uuid
from collections.abc import Callable
from contextlib import AsyncExitStack
from dataclasses import dataclass
from typing import Any

import structlog
from aiohttp import web

from agenda_kit.calendar.errors import CalendarError
from calendar_service.infrastructure.google import answers
from calendar_service.infrastructure.google.adapter import GoogleCalendarAdapter
from calendar_service.infrastructure.google.edge import events_path
from calendar_service.infrastructure.google.transport import ApiCall

log = structlog.get_logger("agenda.calendar.watch")
NOTIFICATIONS_PATH = "/google/notifications"


@dataclass(frozen=True, slots=True)
class Channel:
    calendar_id: str
    channel_id: str
    resource_id: str
    token: str
    expires_at: float  # wall clock (Google's expiration is an epoch timestamp)


class GoogleChangeFeed:
    """The ``ChangeFeed`` of the Google backend; ``on_change(calendar_id)`` is called for
    every notification of a change (not for a channel's opening ``sync`` message)."""

    def __init__(
        self,
        adapter: GoogleCalendarAdapter,
        address: str,
        on_change: Callable[[str], None],
        *,
        channel_ttl: int = 3600,
        renew_margin: float = 120.0,
        clock: Callable[[], float] = time.time,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        self._adapter = adapter
        self._address = address
        self._on_change = on_change
        self._channel_ttl = channel_ttl
        self._renew_margin = renew_margin
        self._clock = clock
        self._monotonic = monotonic
        self._heard: dict[str, float] = {}  # by calendar, on the monotonic clock
        self._channels: dict[str, Channel] = {}  # by calendar
        self._by_id: dict[str, Channel] = {}
        self._opening: dict[str, asyncio.Task[None]] = {}
        self.notifications = 0

    def assured_seconds(self, calendar_id: str) -> float:
        channel = self._channels.get(calendar_id)
        if channel is None:
            return 0.0
        return max(0.0, channel.expires_at - self._renew_margin - self._clock())

    def heard_within(self, calendar_id: str, seconds: float) -> bool:
        heard = self._heard.get(calendar_id)
        return heard is not None and self._monotonic() - heard <= seconds

    def follow(self, calendar_id: str) -> None:
        if calendar_id in self._opening or self.assured_seconds(calendar_id) > 0:
            return
        task = asyncio.get_running_loop().create_task(self._open(calendar_id))
        self._opening[calendar_id] = task
        task.add_done_callback(lambda _: self._opening.pop(calendar_id, None))

    def notified(self, channel_id: str, token: str, state: str) -> bool:
        """A notification arrived; False (refused) unless it names a live channel of ours
        with its token."""
        channel = self._by_id.get(channel_id)
        if channel is None or not secrets.compare_digest(token, channel.token):
            return False
        self.notifications += 1
        self._heard[channel.calendar_id] = self._monotonic()
        if state != "sync":  # "sync" only says the channel is open; what came before it
            self._on_change(channel.calendar_id)  # was cached with the short TTL
        log.debug("google_watch.notified", calendar=channel.calendar_id, state=state)
        return True

    async def close(self) -> None:
        """Stop opening channels and stop the open ones (best effort)."""
        for task in list(self._opening.values()):
            task.cancel()
        for channel in list(self._channels.values()):
            try:
                await stop_channel(self._adapter, channel.channel_id, channel.resource_id)
            except CalendarError as error:
                log.info("google_watch.stop_failed", calendar=channel.calendar_id, error=str(error))
        self._channels.clear()
        self._by_id.clear()

    async def _open(self, calendar_id: str) -> None:
        token, channel_id = secrets.token_urlsafe(32), uuid.uuid4().hex
        body = {
            "id": channel_id,
            "type": "web_hook",
            "address": self._address,
            "token": token,
            "params": {"ttl": str(self._channel_ttl)},
        }
        try:
            answer = await watch_events(self._adapter, calendar_id, body)
            expires = int(answer.get("expiration") or 0) / 1000
            channel = Channel(calendar_id, channel_id, str(answer["resourceId"]), token, expires)
        except (CalendarError, KeyError, ValueError) as error:
            log.info("google_watch.open_failed", calendar=calendar_id, error=str(error))
            return
        old = self._channels.get(calendar_id)
        self._channels[calendar_id] = channel
        self._by_id[channel.channel_id] = channel
        if old is not None:
            self._by_id.pop(old.channel_id, None)
            await self._stop_quietly(old)

    async def _stop_quietly(self, channel: Channel) -> None:
        try:
            await stop_channel(self._adapter, channel.channel_id, channel.resource_id)
        except CalendarError as error:
            log.info("google_watch.stop_failed", calendar=channel.calendar_id, error=str(error))


async def watch_events(
    adapter: GoogleCalendarAdapter, calendar_id: str, channel: dict[str, Any]
) -> dict[str, Any]:
    """``events.watch``: open a push channel (``channel`` is Google's channel body); the
    answer is Google's ``api#channel`` resource."""
    path = events_path(calendar_id) + "/watch"
    return await adapter.call_api(
        ApiCall("POST", path, body=channel, answer=answers.channel), calendar_id
    )


async def stop_channel(adapter: GoogleCalendarAdapter, channel_id: str, resource_id: str) -> None:
    """``channels.stop``: Google sends no more notifications on that channel."""
    body = {"id": channel_id, "resourceId": resource_id}
    stop = ApiCall("POST", "/channels/stop", body=body, answer=answers.no_body)
    await adapter.call_api(stop, channel_id)


def receiver(feed: GoogleChangeFeed) -> web.Application:
    """The HTTP endpoint Google delivers to: 200 for a notification of ours, else 404."""

    async def notification(request: web.Request) -> web.Response:
        headers = request.headers
        accepted = feed.notified(
            headers.get("X-Goog-Channel-ID", ""),
            headers.get("X-Goog-Channel-Token", ""),
            headers.get("X-Goog-Resource-State", ""),
        )
        return web.Response(status=200 if accepted else 404)

    app = web.Application()
    app.router.add_post(NOTIFICATIONS_PATH, notification)
    return app


async def start_feed(
    adapter: GoogleCalendarAdapter,
    address: str,
    on_change: Callable[[str], None],
    *,
    host: str,
    port: int,
    resources: AsyncExitStack,
) -> GoogleChangeFeed:
    """A feed whose receiver listens on ``host:port`` (behind the HTTPS ``address``); both
    are closed with ``resources``."""
    feed = GoogleChangeFeed(adapter, address, on_change)
    runner = web.AppRunner(receiver(feed), access_log=None)
    await runner.setup()
    resources.push_async_callback(runner.cleanup)
    await web.TCPSite(runner, host, port).start()
    resources.push_async_callback(feed.close)
    log.info("google_watch_receiver_ready", host=host, port=port, address=address)
    return feed
