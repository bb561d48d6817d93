"""An in-process Google Calendar v3 emulator (aiohttp) with OAuth and fault injection.

async with running_emulator() as emulator:
    emulator.state.add_calendar("pro@example.com")
    emulator.faults.fail_next("events.insert", Fault.error(503, "backendError"))
    emulator.watch.channels  # push channels opened with events.watch (google_watch)
    ... GoogleCalendarAdapter(api_base=emulator.base_url, token_uri=emulator.token_uri)
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime

from aiohttp import web

from tests.fakes.google_errors import EmulatorError, error_response
from tests.fakes.google_faults import Fault, FaultPlan
from tests.fakes.google_oauth import TokenIssuer
from tests.fakes.google_routes import OAUTH, STATE, SUBJECT, WATCH, add_routes
from tests.fakes.google_state import EmulatorState
from tests.fakes.google_watch import WatchChannels

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


class Emulator:
    """The emulator's programmable parts: ``state``, ``faults``, ``oauth`` and its URLs."""

    def __init__(self, *, allow_any_calendar: bool = False, latency: float = 0.0) -> None:
        self.state = EmulatorState(allow_any_calendar=allow_any_calendar)
        self.faults = FaultPlan(latency=latency)
        self.oauth = TokenIssuer(token_uri="")
        self.watch = WatchChannels()
        self.state.listeners.append(self.watch.changed)
        self.root_url = ""

    @property
    def base_url(self) -> str:
        return f"{self.root_url}/calendar/v3"

    @property
    def token_uri(self) -> str:
        return f"{self.root_url}/token"

    def app(self) -> web.Application:
        app = web.Application(middlewares=[self._middleware])
        app[STATE] = self.state
        app[OAUTH] = self.oauth
        app[WATCH] = self.watch
        add_routes(app)
        return app

    @web.middleware
    async def _middleware(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        route = request.match_info.route.name or "unknown"
        self.faults.record(route, request.method, request.path)
        self.faults.enter(route)
        try:
            return await self._emulate(route, request, handler)
        finally:
            self.faults.leave(route)

    async def _emulate(
        self, route: str, request: web.Request, handler: Handler
    ) -> web.StreamResponse:
        await self.faults.pass_gate(route)
        if self.faults.latency:
            await asyncio.sleep(self.faults.latency)
        fault = self.faults.pick(route)
        if fault is not None and fault.delay:
            await asyncio.sleep(fault.delay)
        if fault is not None and fault.reset:
            return _reset(request)
        if fault is not None and fault.body is not None:
            return _raw(fault.status or 200, fault.body, fault.content_type)
        if fault is not None and fault.status is not None:
            response = error_response(fault.status, fault.reason or "backendError")
            if fault.retry_after is not None:
                response.headers["Retry-After"] = _retry_after(fault)
                if fault.retry_after_as_date:
                    response.headers["Date"] = format_datetime(ANSWERED_AT, usegmt=True)
            return response
        if route != "token" and not self._authorized(request):
            return error_response(401, "authError")
        return await self._answer(request, handler, fault)

    async def _answer(
        self, request: web.Request, handler: Handler, fault: Fault | None
    ) -> web.StreamResponse:
        try:
            response = await handler(request)
        except EmulatorError as exc:
            response = error_response(exc.code, exc.reason, exc.message)
        if fault is not None and fault.drop_response:
            return _reset(request)
        if fault is not None and fault.garble is not None:
            return _raw(200, fault.garble, fault.content_type)
        return response

    def _authorized(self, request: web.Request) -> bool:
        """A valid bearer token; the user it acts for (if delegated) goes on the request."""
        scheme, _, token = request.headers.get("Authorization", "").partition(" ")
        if scheme != "Bearer" or not self.oauth.valid(token):
            return False
        request[SUBJECT] = self.oauth.tokens[token].subject
        return True


def _raw(status: int, body: bytes, content_type: str) -> web.Response:
    return web.Response(status=status, body=body, headers={"Content-Type": content_type})


def _reset(request: web.Request) -> web.Response:
    """Close the connection without an answer (the client sees a disconnect)."""
    if request.transport is not None:
        request.transport.abort()
    return web.Response(status=500)


@asynccontextmanager
async def running_emulator(
    *, allow_any_calendar: bool = False, latency: float = 0.0
) -> AsyncIterator[Emulator]:
    """Serve an ``Emulator`` on 127.0.0.1, a free port, for the duration of the block."""
    emulator = Emulator(allow_any_calendar=allow_any_calendar, latency=latency)
    runner = web.AppRunner(emulator.app(), shutdown_timeout=0.5, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    host, port = runner.addresses[0][:2]
    emulator.root_url = f"http://{host}:{port}"
    emulator.oauth.token_uri = emulator.token_uri
    emulator.watch.base_url = emulator.base_url
    try:
        yield emulator
    finally:
        await emulator.watch.close()
        await runner.cleanup()


ANSWERED_AT = datetime(2032, 3, 1, 8, 0, 0, tzinfo=UTC)
"""The ``Date`` of an answer whose ``Retry-After`` is an HTTP date (``_retry_after``): fixed,
so that the wait it names is exact whatever the machine's clock says."""


def _retry_after(fault: Fault) -> str:
    seconds = fault.retry_after or 0
    if not fault.retry_after_as_date:
        return str(seconds)
    return format_datetime(ANSWERED_AT + timedelta(seconds=seconds), usegmt=True)
