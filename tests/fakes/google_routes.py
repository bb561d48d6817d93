"""Calendar v3 REST handlers of the emulator (freeBusy, events.*) and the OAuth token route."""

from __future__ import annotations

import base64
from datetime import datetime
from typing import Any

from aiohttp import web

from tests.fakes.google_errors import EmulatorError
from tests.fakes.google_oauth import OAuthError, TokenIssuer
from tests.fakes.google_state import (
    MAX_FREEBUSY_CALENDARS,
    MAX_FREEBUSY_RANGE,
    EmulatorState,
    StoredEvent,
    parse_time,
    stamp,
)
from tests.fakes.google_watch import WatchChannels

STATE = web.AppKey("state", EmulatorState)
OAUTH = web.AppKey("oauth", TokenIssuer)
WATCH = web.AppKey("watch", WatchChannels)
MAX_PAGE = 2500


async def _json(request: web.Request) -> dict[str, Any]:
    try:
        body = await request.json()
    except ValueError as exc:
        raise EmulatorError(400, "parseError", "Parse Error") from exc
    if not isinstance(body, dict):
        raise EmulatorError(400, "parseError", "Parse Error")
    return body


async def token(request: web.Request) -> web.Response:
    form = {key: str(value) for key, value in (await request.post()).items()}
    try:
        answer = request.app[OAUTH].grant(form)
    except OAuthError as exc:
        body = {"error": exc.error, "error_description": exc.description}
        return web.json_response(body, status=exc.status)
    return web.json_response(answer)


async def free_busy(request: web.Request) -> web.Response:
    body = await _json(request)
    lo, hi = parse_time(body.get("timeMin"), "timeMin"), parse_time(body.get("timeMax"), "timeMax")
    if hi <= lo:
        raise EmulatorError(400, "timeRangeEmpty", "The specified time range is empty.")
    if hi - lo > MAX_FREEBUSY_RANGE:
        raise EmulatorError(400, "timeRangeTooLong", "The requested time range is too long.")
    items = body.get("items") or []
    if len(items) > MAX_FREEBUSY_CALENDARS:
        raise EmulatorError(400, "tooManyCalendarsRequested", "Too many calendars requested.")
    state = request.app[STATE]
    calendars = {item["id"]: _busy_entry(state, item["id"], lo, hi) for item in items}
    return web.json_response(
        {"kind": "calendar#freeBusy", "timeMin": stamp(lo), "timeMax": stamp(hi)}
        | {"calendars": calendars}
    )


def _busy_entry(state: EmulatorState, calendar_id: str, lo: datetime, hi: datetime) -> Any:
    if calendar_id not in state.calendars and not state.allow_any_calendar:
        return {"errors": [{"domain": "global", "reason": "notFound"}], "busy": []}
    spans = sorted(
        (max(e.start, lo), min(e.end, hi))
        for e in state.events(calendar_id)
        if not e.cancelled and e.start < hi and e.end > lo
    )
    merged: list[tuple[datetime, datetime]] = []
    for start, end in spans:
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((start, end))
    return {"busy": [{"start": stamp(s), "end": stamp(e)} for s, e in merged]}


async def insert_event(request: web.Request) -> web.Response:
    state = request.app[STATE]
    event = state.insert(request.match_info["calendarId"], await _json(request))
    return web.json_response(event)


async def get_event(request: web.Request) -> web.Response:
    state = request.app[STATE]
    return web.json_response(state.get(*_ids(request)).data)


async def delete_event(request: web.Request) -> web.Response:
    request.app[STATE].delete(*_ids(request))
    return web.Response(status=204)


async def patch_event(request: web.Request) -> web.Response:
    state = request.app[STATE]
    return web.json_response(state.patch(*_ids(request), await _json(request)))


async def get_calendar(request: web.Request) -> web.Response:
    """``calendars.get``: the calendar's metadata, 404 ``notFound`` when it does not exist."""
    calendar_id = request.match_info["calendarId"]
    request.app[STATE].calendar(calendar_id)
    body = {"kind": "calendar#calendar", "id": calendar_id, "summary": calendar_id}
    return web.json_response(body | {"timeZone": "UTC", "etag": '"0"'})


async def list_events(request: web.Request) -> web.Response:
    state, query = request.app[STATE], request.query
    events = state.calendar(request.match_info["calendarId"]).values()
    if query.get("orderBy") == "startTime" and query.get("singleEvents") != "true":
        raise EmulatorError(400, "badRequest", "orderBy=startTime requires singleEvents=true.")
    chosen = sorted(_matching(events, query), key=lambda e: (e.start, e.data["id"]))
    offset, size = _page_offset(query.get("pageToken")), _page_size(query.get("maxResults"))
    page = chosen[offset : offset + size]
    answer: dict[str, Any] = {"kind": "calendar#events", "items": [e.data for e in page]}
    if offset + size < len(chosen):
        answer["nextPageToken"] = base64.urlsafe_b64encode(f"o:{offset + size}".encode()).decode()
    return web.json_response(answer)


def _matching(events: Any, query: Any) -> list[StoredEvent]:
    lo = parse_time(query["timeMin"], "timeMin") if "timeMin" in query else None
    hi = parse_time(query["timeMax"], "timeMax") if "timeMax" in query else None
    deleted = query.get("showDeleted") == "true"
    return [
        e
        for e in events
        if (deleted or not e.cancelled)
        and (lo is None or e.end > lo)
        and (hi is None or e.start < hi)
    ]


def _page_offset(token: str | None) -> int:
    if not token:
        return 0
    try:
        tag, _, number = base64.urlsafe_b64decode(token).decode().partition(":")
        if tag != "o":
            raise ValueError(tag)
        return int(number)
    except (ValueError, UnicodeDecodeError) as exc:
        raise EmulatorError(400, "invalid", "Invalid page token.") from exc


def _page_size(text: str | None) -> int:
    try:
        size = int(text) if text else 250
    except ValueError as exc:
        raise EmulatorError(400, "invalid", "Invalid maxResults.") from exc
    if size < 1:
        raise EmulatorError(400, "invalid", "Invalid maxResults.")
    return min(size, MAX_PAGE)


async def watch_events(request: web.Request) -> web.Response:
    """``events.watch``: open a push channel on the calendar's events."""
    calendar_id = request.match_info["calendarId"]
    request.app[STATE].calendar(calendar_id)
    return web.json_response(request.app[WATCH].watch(calendar_id, await _json(request)))


async def stop_channel(request: web.Request) -> web.Response:
    """``channels.stop``: no more notifications on that channel."""
    request.app[WATCH].stop(await _json(request))
    return web.Response(status=204)


def _ids(request: web.Request) -> tuple[str, str]:
    return request.match_info["calendarId"], request.match_info["eventId"]


def add_routes(app: web.Application) -> None:
    events = "/calendar/v3/calendars/{calendarId}/events"
    app.router.add_post("/token", token, name="token")
    app.router.add_post("/calendar/v3/freeBusy", free_busy, name="freeBusy")
    app.router.add_get("/calendar/v3/calendars/{calendarId}", get_calendar, name="calendars.get")
    app.router.add_post(events, insert_event, name="events.insert")
    app.router.add_get(events, list_events, name="events.list")
    app.router.add_post(events + "/watch", watch_events, name="events.watch")
    app.router.add_post("/calendar/v3/channels/stop", stop_channel, name="channels.stop")
    app.router.add_get(events + "/{eventId}", get_event, name="events.get")
    app.router.add_delete(events + "/{eventId}", delete_event, name="events.delete")
    app.router.add_patch(events + "/{eventId}", patch_event, name="events.patch")
