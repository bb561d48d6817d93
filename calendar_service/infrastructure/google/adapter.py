"""``GoogleCalendarAdapter``: the calendar port over Google Calendar v3 REST (aiohttp)."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from types import TracebackType
from typing import Any, Self

import aiohttp

from agenda_kit.calendar.errors import (
    EventNotFoundError,
    IdempotencyConflictError,
    InvalidCalendarRequestError,
)
from agenda_kit.calendar.port import CalendarEvent, EventDraft, EventPage, FreeBusy
from calendar_service.application.busy_time import BusyTimeCalendarAdapter
from calendar_service.infrastructure.google import freebusy
from calendar_service.infrastructure.google.auth import ServiceAccountTokenSource
from calendar_service.infrastructure.google.budget import Budget, RetryPolicy
from calendar_service.infrastructure.google.edge import (
    all_or_nothing,
    calendar_path,
    check_range,
    event_path,
    events_path,
    live_event,
    require_event,
    translated,
    was_404,
)
from calendar_service.infrastructure.google.failures import GoogleApiError
from calendar_service.infrastructure.google.ids import event_id_for
from calendar_service.infrastructure.google.mapping import (
    event_body,
    event_from_json,
    move_body,
    replays,
    rfc3339,
)
from calendar_service.infrastructure.google.transport import ApiCall, GoogleTransport

DEFAULT_API_BASE = "https://www.googleapis.com/calendar/v3"
MAX_PAGE_SIZE = 2500


class GoogleCalendarAdapter(BusyTimeCalendarAdapter):
    """Google Calendar through a service account (optionally impersonating ``subject``).

    Open it with ``await GoogleCalendarAdapter.create(...)`` or ``async with``; it owns one
    aiohttp session. Every operation's retries fit in the caller's deadline
    (``agenda_kit.deadline``) or, without one, in ``default_budget`` seconds.
    """

    def __init__(
        self,
        *,
        credentials_file: str | Path,
        subject: str | None = None,
        api_base: str = DEFAULT_API_BASE,
        token_uri: str | None = None,
        request_timeout: float = 10.0,
        max_attempts: int = 5,
        default_budget: float = 30.0,
        backoff_initial: float = 0.25,
        backoff_max: float = 8.0,
        backoff_jitter: float = 0.5,
        freebusy_concurrency: int = 4,
        connection_limit: int = 100,
    ) -> None:
        self._tokens = ServiceAccountTokenSource.from_file(
            credentials_file, token_uri=token_uri, subject=subject
        )
        self._policy = RetryPolicy(
            max_attempts=max_attempts,
            request_timeout=request_timeout,
            default_budget=default_budget,
            backoff_initial=backoff_initial,
            backoff_max=backoff_max,
            backoff_jitter=backoff_jitter,
        )
        self._api_base = api_base
        self._freebusy_concurrency = freebusy_concurrency
        self._connection_limit = connection_limit
        self._session: aiohttp.ClientSession | None = None
        self._transport: GoogleTransport | None = None

    @classmethod
    async def create(cls, **settings: Any) -> Self:
        """Build and open an adapter (the constructor's keyword arguments)."""
        adapter = cls(**settings)
        await adapter.open()
        return adapter

    async def open(self) -> None:
        """Open the HTTP session (idempotent)."""
        if self._session is None:
            connector = aiohttp.TCPConnector(limit=self._connection_limit)
            self._session = aiohttp.ClientSession(connector=connector)
            self._transport = GoogleTransport(
                self._session, self._tokens, api_base=self._api_base, policy=self._policy
            )

    async def close(self) -> None:
        """Close the HTTP session."""
        if self._session is not None:
            await self._session.close()
        self._session = None
        self._transport = None

    async def __aenter__(self) -> Self:
        await self.open()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    async def insert_event(self, draft: EventDraft) -> tuple[CalendarEvent, bool]:
        """Insert with an id derived from the key; 409 means it exists: fetch and return it.

        The same key asking for a different start, end or summary (or an id held by another
        key) is an ``IdempotencyConflictError``, as in ``LocalCalendarAdapter``.
        """
        event_id = event_id_for(draft.idempotency_key)
        budget = self._budget()
        with translated("calendar", draft.calendar_id):
            try:
                body = event_body(draft, event_id)
                data = await self._api().call(
                    ApiCall("POST", events_path(draft.calendar_id), body=body), budget
                )
                created = True
            except GoogleApiError as exc:
                if exc.status != 409:
                    raise
                data = await self._api().call(
                    ApiCall("GET", event_path(draft.calendar_id, event_id)), budget
                )
                created = False
        event = require_event(draft.calendar_id, event_id, data)
        if not created and not replays(event, draft):
            raise IdempotencyConflictError(
                f"idempotency key {draft.idempotency_key!r} was already used for event "
                f"{event_id!r} with a different key, start, end or summary"
            )
        return event, created

    async def query_free_busy(
        self,
        calendar_ids: Sequence[str],
        start: datetime,
        end: datetime,
        *,
        fresh: bool = False,
    ) -> list[FreeBusy]:
        """≤ 50 calendars × ≤ 60 days per request, a few requests at a time, merged in order.

        Every call asks Google (nothing is cached here), so ``fresh`` changes nothing.
        """
        check_range(start, end)
        if not calendar_ids:
            return []
        budget = self._budget()
        bound = asyncio.Semaphore(self._freebusy_concurrency)

        async def ask(query: freebusy.FreeBusyQuery) -> dict[str, Any]:
            async with bound:
                return await self._api().call(
                    ApiCall("POST", "/freeBusy", body=query.body()), budget
                )

        queries = freebusy.plan(calendar_ids, start, end)
        with translated("calendar", ", ".join(calendar_ids[:3])):
            answers = await all_or_nothing([ask(query) for query in queries])
        return freebusy.merge(calendar_ids, answers)

    async def call_api(self, call: ApiCall, target: str) -> dict[str, Any]:
        """One REST call with this adapter's token, retries and deadline (push channels)."""
        with translated("calendar", target):
            return await self._api().call(call, self._budget())

    async def get_event(self, calendar_id: str, event_id: str) -> CalendarEvent:
        with translated("event", event_id):
            data = await self._api().call(
                ApiCall("GET", event_path(calendar_id, event_id)), self._budget()
            )
        return require_event(calendar_id, event_id, data)

    async def cancel_event(self, calendar_id: str, event_id: str) -> bool:
        """``events.delete``; 410 (deleted) or 404 means it is already gone → False, unless
        the 404 was for the calendar itself (``calendars.get`` tells): ``CalendarNotFoundError``.
        Google answers 404 alike for an id never created and one deleted long ago, so an
        unknown event in a known calendar stays False.
        """
        budget = self._budget()
        with translated("event", event_id):
            try:
                await self._api().call(ApiCall("DELETE", event_path(calendar_id, event_id)), budget)
            except GoogleApiError as exc:
                if exc.status == 410:
                    return False
                if exc.status != 404:
                    raise
            else:
                return True
        await self._require_calendar(calendar_id, budget)
        return False

    async def move_event(
        self,
        calendar_id: str,
        event_id: str,
        start: datetime,
        end: datetime,
        *,
        time_zone: str | None = None,
    ) -> CalendarEvent:
        """``events.patch`` of start and end; the id stays. A patch is idempotent, so it is
        retried on transient failures like any call. Without ``time_zone`` the event is read
        first to keep its zone. 404/410, or an event that turns out cancelled, is
        ``EventNotFoundError``.
        """
        check_range(start, end)
        budget = self._budget()
        path = event_path(calendar_id, event_id)
        try:
            with translated("event", event_id):
                if time_zone is None:
                    current = await self._api().call(ApiCall("GET", path), budget)
                    time_zone = live_event(calendar_id, event_id, current).time_zone
                body = move_body(start, end, time_zone)
                data = await self._api().call(ApiCall("PATCH", path, body=body), budget)
        except EventNotFoundError as error:
            if was_404(error):  # the event, or the whole calendar?
                await self._require_calendar(calendar_id, budget)
            raise
        return live_event(calendar_id, event_id, data)

    async def list_events(
        self,
        calendar_id: str,
        start: datetime,
        end: datetime,
        *,
        page_size: int = 100,
        page_token: str | None = None,
        include_cancelled: bool = False,
    ) -> EventPage:
        check_range(start, end)
        if page_size < 1:
            raise InvalidCalendarRequestError("page_size must be positive")
        params = {
            "timeMin": rfc3339(start),
            "timeMax": rfc3339(end),
            "maxResults": str(min(page_size, MAX_PAGE_SIZE)),
            "singleEvents": "true",
            "orderBy": "startTime",
            "showDeleted": "true" if include_cancelled else "false",
        }
        if page_token:
            params["pageToken"] = page_token
        with translated("calendar", calendar_id):
            data = await self._api().call(
                ApiCall("GET", events_path(calendar_id), params=params), self._budget()
            )
        events = (event_from_json(calendar_id, item) for item in data.get("items", []))
        return EventPage(
            events=tuple(event for event in events if event is not None),
            next_page_token=data.get("nextPageToken") or None,
        )

    async def _require_calendar(self, calendar_id: str, budget: Budget) -> None:
        """``calendars.get``; ``CalendarNotFoundError`` when Google does not know the calendar
        (or does not share it with the service account)."""
        with translated("calendar", calendar_id):
            await self._api().call(ApiCall("GET", calendar_path(calendar_id)), budget)

    def _api(self) -> GoogleTransport:
        if self._transport is None:
            raise RuntimeError("GoogleCalendarAdapter is not open: use create() or async with")
        return self._transport

    def _budget(self) -> Budget:
        return Budget.start(self._policy)
