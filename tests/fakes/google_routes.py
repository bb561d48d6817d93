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
SUBJECT: web.RequestKey[str | None] = web.RequestKey("subject", str)
"""The user a request's token acts for (domain-wide delegation), if any."""
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
        if e.busy and e.start < hi and e.end > lo
    )
    merged: list[tuple[datetime, datetime]] = []
    for start, end in spans:
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((start, end))
    return {"busy": [{"start": stamp(s), "end": stamp(e)} for s, e in merged]}


SEND_UPDATES = frozenset({"all", "externalOnly", "none"})
SYNC_EXCLUSIVE = ("timeMin", "timeMax", "updatedMin", "q", "iCalUID", "orderBy")
SYNC_EXCLUSIVE_PREFIXES = ("privateExtendedProperty", "sharedExtendedProperty")


def _send_updates(request: web.Request) -> None:
    """``sendUpdates`` is optional; any value but Google's three is a 400."""
    value = request.query.get("sendUpdates")
    if value is not None and value not in SEND_UPDATES:
        raise request.app[STATE].refuse("sendUpdates", f"Invalid sendUpdates value: {value}")


def _may_invite(request: web.Request) -> bool:
    """Google lets a service account invite attendees only through a delegated user."""
    return request.get(SUBJECT) is not None


async def insert_event(request: web.Request) -> web.Response:
    state = request.app[STATE]
    _send_updates(request)
    body = await _json(request)
    event = state.insert(request.match_info["calendarId"], body, may_invite=_may_invite(request))
    return web.json_response(event)


async def get_event(request: web.Request) -> web.Response:
    state = request.app[STATE]
    return web.json_response(state.get(*_ids(request)).data)


async def delete_event(request: web.Request) -> web.Response:
    _send_updates(request)
    request.app[STATE].delete(*_ids(request), if_match=request.headers.get("If-Match"))
    return web.Response(status=204)


async def patch_event(request: web.Request) -> web.Response:
    state = request.app[STATE]
    _send_updates(request)
    body = await _json(request)
    answer = state.patch(
        *_ids(request),
        body,
        if_match=request.headers.get("If-Match"),
        may_invite=_may_invite(request),
    )
    return web.json_response(answer)


async def get_calendar(request: web.Request) -> web.Response:
    """``calendars.get``: the calendar's metadata, 404 ``notFound`` when it does not exist."""
    state = request.app[STATE]
    calendar_id = request.match_info["calendarId"]
    state.calendar(calendar_id)
    body = {"kind": "calendar#calendar", "id": calendar_id, "summary": calendar_id}
    return web.json_response(
        body | {"timeZone": state.zones.get(calendar_id, "UTC"), "etag": '"0"'}
    )


async def list_events(request: web.Request) -> web.Response:
    state, query = request.app[STATE], request.query
    events = state.calendar(request.match_info["calendarId"]).values()
    if query.get("orderBy") == "startTime" and query.get("singleEvents") != "true":
        raise EmulatorError(400, "badRequest", "orderBy=startTime requires singleEvents=true.")
    after = _sync_position(state, query)
    chosen = _matching(events, query, after, any_property=state.private_filter_any)
    order = (lambda e: e.changed) if _is_feed(query) else (lambda e: (e.start, e.data["id"]))
    chosen.sort(key=order)
    offset, size = _page_offset(query.get("pageToken")), _page_size(query.get("maxResults"))
    page = chosen[offset : offset + size]
    bare = state.bare_deletions and _is_feed(query)
    items = [_stub(e) if bare and e.cancelled else e.data for e in page]
    answer: dict[str, Any] = {"kind": "calendar#events", "items": items}
    if offset + size < len(chosen):
        answer["nextPageToken"] = base64.urlsafe_b64encode(f"o:{offset + size}".encode()).decode()
    elif _gives_sync_token(query):
        answer["nextSyncToken"] = f"s:{state.sync_generation}:{state.changes}"
    return web.json_response(answer)


def _stub(event: StoredEvent) -> dict[str, Any]:
    """A deleted event as an incremental listing may give it: its id and status only."""
    return {key: event.data[key] for key in ("kind", "etag", "id", "status") if key in event.data}


def _is_feed(query: Any) -> bool:
    return "syncToken" in query or "updatedMin" in query


def _gives_sync_token(query: Any) -> bool:
    """Google hands a sync token at the end of a listing it can resume (not one filtered by
    a range or extended property)."""
    if "syncToken" in query:
        return True
    return not any(k in query for k in ("timeMin", "timeMax")) and not any(
        k.startswith(SYNC_EXCLUSIVE_PREFIXES) for k in query
    )


def _sync_position(state: EmulatorState, query: Any) -> int:
    """The change number a ``syncToken`` resumes after (0 without one); a token combined
    with filters is a 400, an expired or foreign one a 410 ``fullSyncRequired``."""
    token = query.get("syncToken")
    if token is None:
        return 0
    if any(k in query for k in SYNC_EXCLUSIVE) or any(
        k.startswith(SYNC_EXCLUSIVE_PREFIXES) for k in query
    ):
        raise state.refuse("syncToken", "syncToken cannot be combined with these filters.")
    tag, generation, number = [*str(token).split(":", 2), "", ""][:3]
    if tag != "s" or generation != str(state.sync_generation) or not number.isdigit():
        raise EmulatorError(410, "fullSyncRequired", "Sync token is no longer valid.")
    return int(number)


def _matching(
    events: Any, query: Any, after: int, *, any_property: bool = False
) -> list[StoredEvent]:
    lo = parse_time(query["timeMin"], "timeMin") if "timeMin" in query else None
    hi = parse_time(query["timeMax"], "timeMax") if "timeMax" in query else None
    since = parse_time(query["updatedMin"], "updatedMin") if "updatedMin" in query else None
    deleted = query.get("showDeleted") == "true" or "syncToken" in query
    wanted = [_property(text) for text in query.getall("privateExtendedProperty", [])]
    combine = any if any_property and wanted else all
    return [
        e
        for e in events
        if (deleted or not e.cancelled)
        and (lo is None or e.end > lo)
        and (hi is None or e.start < hi)
        and e.changed > after
        and (since is None or parse_time(e.data["updated"], "updated") >= since)
        and combine(_private_of(e).get(k) == v for k, v in wanted)
    ]


def _property(text: str) -> tuple[str, str]:
    key, equals, value = text.partition("=")
    if not equals or not key:
        raise EmulatorError(400, "invalid", "Invalid privateExtendedProperty.")
    return key, value


def _private_of(event: StoredEvent) -> dict[str, str]:
    private: dict[str, str] = (event.data.get("extendedProperties") or {}).get("private") or {}
    return private


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
