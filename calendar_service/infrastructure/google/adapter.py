# Over 300 lines: one adapter of the calendar port (every operation over Google Calendar v3).
"""``GoogleCalendarAdapter``: the calendar port over Google Calendar v3 REST (aiohttp)."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import Any, Self

import aiohttp

from agenda_kit.calendar.errors import (
    CalendarAccessDeniedError,
    CalendarUnavailableError,
    EventNotFoundError,
    InvalidCalendarRequestError,
)
from agenda_kit.calendar.port import (
    CalendarEvent,
    ChangeQuery,
    DeletedEvent,
    EventChanges,
    EventDraft,
    EventPage,
    FreeBusy,
    SendUpdates,
)
from agenda_kit.resilience import TtlCache
from calendar_service.application.busy_time import BusyTimeCalendarAdapter
from calendar_service.application.idempotency import key_reused, same_request
from calendar_service.infrastructure.google import answers, freebusy
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
from calendar_service.infrastructure.google.errors import Scope
from calendar_service.infrastructure.google.failures import GoogleApiError
from calendar_service.infrastructure.google.mapping import (
    OWNER_PROPERTY,
    event_body,
    event_from_json,
    is_all_day,
    kept_fingerprint,
    patch_body,
    replays,
    rfc3339,
)
from calendar_service.infrastructure.google.quota import QuotaGates, QuotaPolicy
from calendar_service.infrastructure.google.transport import ApiCall, GoogleTransport
from calendar_service.infrastructure.page_tokens import SealedPageTokens, listing_of, sync_listing

DEFAULT_API_BASE = "https://www.googleapis.com/calendar/v3"
MAX_PAGE_SIZE = 2500
PAGE_TOKEN_LABEL = b"agenda.calendar.v1 page tokens"
"""What the page-token key is derived from (with the service account's key: every replica
with the same key file accepts the others' tokens; a new key file ends the old tokens)."""
STUB_READS_AT_ONCE = 8
"""``events.get`` calls in flight at once when a feed page's deletions are read whole."""
ZONE_TTL = 3600.0
"""Seconds a calendar's time zone is kept (all-day events are its local dates)."""


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
        quota: QuotaPolicy | None = None,
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
        self.gates = QuotaGates(policy=quota or QuotaPolicy())
        """The shared quota budget of this service account (``quota``)."""
        self._zones: TtlCache[str, str] = TtlCache(ZONE_TTL, max_entries=10_000)
        self._pages = SealedPageTokens(self._tokens.derived_secret(PAGE_TOKEN_LABEL))

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
                self._session,
                self._tokens,
                api_base=self._api_base,
                policy=self._policy,
                gates=self.gates,
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
                    ApiCall("POST", "/freeBusy", body=query.body(), answer=answers.free_busy),
                    budget,
                )

        queries = freebusy.plan(calendar_ids, start, end)
        with translated("calendar", ", ".join(calendar_ids[:3])):
            replies = await all_or_nothing([ask(query) for query in queries])
        return freebusy.merge(calendar_ids, replies)

    async def call_api(self, call: ApiCall, target: str) -> dict[str, Any]:
        """One REST call with this adapter's token, retries and deadline (push channels)."""
        with translated("calendar", target):
            return await self._api().call(call, self._budget())

    async def insert_event(self, draft: EventDraft) -> tuple[CalendarEvent, bool]:
        """Insert with an id derived from (calendar, owner, key); 409 means it exists:
        fetch and return it. The same key with another request (``application.idempotency``:
        the fingerprint kept in the event, never the fields Google may have normalized) is an
        ``IdempotencyConflictError``, as in ``LocalCalendarAdapter``. Google checks a body
        before the id, so a request it refuses outright (attendees it may not invite) is
        checked against the key's event too: a key already used is the answer then."""
        cid = draft.calendar_id
        event_id = self.event_id_for(cid, draft.owner, draft.idempotency_key)
        budget = self._budget()
        params = {"sendUpdates": draft.send_updates.value}
        try:
            with translated("calendar", cid):
                try:
                    body = event_body(draft, event_id)
                    insert = ApiCall(
                        "POST",
                        events_path(cid),
                        params,
                        body,
                        calendar_id=cid,
                        answer=answers.event,
                    )
                    data: dict[str, Any] | None = await self._api().call(insert, budget)
                    created = True
                except GoogleApiError as exc:
                    if exc.status != 409:
                        raise
                    data, created = None, False
        except (CalendarAccessDeniedError, InvalidCalendarRequestError):
            data = await self._kept_for_key(cid, event_id, budget)
            if data is None:
                raise
            created = False
        if data is None:
            data = await self._existing(cid, event_id, budget)
        event = await self._event(cid, event_id, data)
        if not created:
            _refuse_another_request(data, event, draft)
        return event, created

    async def refuse_reused_key(self, draft: EventDraft) -> None:
        """The key's event, if it has one (``events.get``), must be of this request."""
        cid = draft.calendar_id
        event_id = self.event_id_for(cid, draft.owner, draft.idempotency_key)
        budget = self._budget()
        data = await self._kept_for_key(cid, event_id, budget)
        if data is not None:
            _refuse_another_request(data, await self._event(cid, event_id, data), draft)

    async def _kept_for_key(self, cid: str, event_id: str, budget: Budget) -> dict[str, Any] | None:
        """The event a key already created, if any (None: never created, or gone)."""
        try:
            with translated("event", event_id):
                get = ApiCall("GET", event_path(cid, event_id), answer=answers.event)
                return await self._api().call(get, budget)
        except EventNotFoundError:
            return None

    async def _existing(self, cid: str, event_id: str, budget: Budget) -> dict[str, Any]:
        """The event a 409 said exists. Not found a moment later (deleted meanwhile, or the
        provider not consistent yet): the calendar is checked (``CalendarNotFoundError`` only
        if it is gone), else the caller is told to try again, never that the calendar is
        unknown."""
        fetch = ApiCall("GET", event_path(cid, event_id), calendar_id=cid, answer=answers.event)
        try:
            with translated("event", event_id):
                return await self._api().call(fetch, budget)
        except EventNotFoundError as error:
            if was_404(error):
                await self._require_calendar(cid, budget)
            raise CalendarUnavailableError() from error

    async def get_event(self, calendar_id: str, event_id: str) -> CalendarEvent:
        """``events.get``; a 404 is the event's unless ``calendars.get`` says the calendar
        itself is unknown."""
        budget = self._budget()
        try:
            with translated("event", event_id):
                get = ApiCall("GET", event_path(calendar_id, event_id), answer=answers.event)
                data = await self._api().call(get, budget)
        except EventNotFoundError as error:
            if was_404(error):
                await self._require_calendar(calendar_id, budget)
            raise
        return await self._event(calendar_id, event_id, data)

    async def cancel_event(
        self,
        calendar_id: str,
        event_id: str,
        *,
        etag: str | None = None,
        send_updates: SendUpdates = SendUpdates.NONE,
    ) -> bool:
        """``events.delete`` (``If-Match: etag`` when given); 410 (deleted) or 404 means it
        is already gone → False, unless the 404 was for the calendar itself
        (``calendars.get`` tells): ``CalendarNotFoundError``. Google answers 404 alike for
        an id never created and one deleted long ago, so an unknown event in a known
        calendar stays False."""
        budget = self._budget()
        call = ApiCall(
            "DELETE",
            event_path(calendar_id, event_id),
            {"sendUpdates": send_updates.value},
            calendar_id=calendar_id,
            if_match=etag,
            answer=answers.no_body,
        )
        with translated("event", event_id):
            try:
                await self._api().call(call, budget)
            except GoogleApiError as exc:
                if exc.status == 410:
                    return False
                if exc.status != 404:
                    raise
            else:
                return True
        await self._require_calendar(calendar_id, budget)
        return False

    async def update_event(
        self, calendar_id: str, event_id: str, changes: EventChanges
    ) -> CalendarEvent:
        """``events.patch`` of the changed fields (``If-Match`` with ``changes.etag``); the id
        stays. A patch is idempotent, so it is retried on transient failures like any call.
        The event is read first only when the patch needs it (a new time without a zone
        keeps the event's; new references keep the service's own). 404/410, or an event
        that turns out cancelled, is ``EventNotFoundError``."""
        if changes.time is not None:
            check_range(changes.time.start, changes.time.end)
        budget = self._budget()
        path = event_path(calendar_id, event_id)
        try:
            with translated("event", event_id):
                current, kept = await self._current(calendar_id, event_id, changes, budget)
                body = patch_body(changes, current, current.time_zone, kept)
                call = ApiCall(
                    "PATCH",
                    path,
                    {"sendUpdates": changes.send_updates.value},
                    body,
                    calendar_id=calendar_id,
                    if_match=changes.etag,
                    answer=answers.event,
                )
                data = await self._api().call(call, budget)
        except EventNotFoundError as error:
            if was_404(error):  # the event, or the whole calendar?
                await self._require_calendar(calendar_id, budget)
            raise
        event = await self._event(calendar_id, event_id, data)
        if event.status == "cancelled":
            raise EventNotFoundError()
        return event

    async def _current(
        self, calendar_id: str, event_id: str, changes: EventChanges, budget: Budget
    ) -> tuple[CalendarEvent, str | None]:
        """The event as stored when the patch needs it (with the request fingerprint it keeps
        among its private properties), else a stand-in carrying the zone."""
        needs_zone = changes.time is not None and changes.time.time_zone is None
        if not needs_zone and changes.private is None:
            zone = changes.time.time_zone if changes.time is not None else "UTC"
            return _stand_in(calendar_id, event_id, zone or "UTC"), None
        get = ApiCall("GET", event_path(calendar_id, event_id), answer=answers.event)
        data = await self._api().call(get, budget)
        zone = await self._zone_if_all_day(calendar_id, data)
        return live_event(calendar_id, event_id, data, zone), kept_fingerprint(data)

    async def list_events(
        self,
        calendar_id: str,
        start: datetime,
        end: datetime,
        *,
        page_size: int = 100,
        page_token: str | None = None,
        include_cancelled: bool = False,
        private: Mapping[str, str] | None = None,
        owner: str | None = None,
    ) -> EventPage:
        check_range(start, end)
        if page_size < 1:
            raise InvalidCalendarRequestError("page_size must be positive", field="page_size")
        params = [
            ("timeMin", rfc3339(start)),
            ("timeMax", rfc3339(end)),
            ("maxResults", str(min(page_size, MAX_PAGE_SIZE))),
            ("singleEvents", "true"),
            ("orderBy", "startTime"),
            ("showDeleted", "true" if include_cancelled else "false"),
            *_private_filter(_owned(private, owner)),
        ]
        listing = listing_of(calendar_id, start, end, include_cancelled, private or {}, owner)
        if page_token:
            params.append(("pageToken", self._pages.unwrap(page_token, listing)))
        return await self._page(calendar_id, params, listing, feed=False)

    async def list_changes(self, query: ChangeQuery) -> EventPage:
        """``events.list`` as a change feed: Google's ``syncToken``, or ``updatedMin`` (with
        ``showDeleted``) optionally within a range and a private-property filter; the last
        page's ``nextSyncToken`` resumes it."""
        params: list[tuple[str, str]] = [
            ("maxResults", str(min(query.page_size, MAX_PAGE_SIZE))),
            ("singleEvents", "true"),
            ("showDeleted", "true"),
        ]
        resumed = sync_listing(query.calendar_id, query.owner)
        if query.sync_token is not None:
            params.append(("syncToken", self._pages.unwrap_sync(query.sync_token, resumed)))
        else:
            if query.updated_since is not None:
                params.append(("updatedMin", rfc3339(query.updated_since)))
            if query.start is not None and query.end is not None:
                params += [("timeMin", rfc3339(query.start)), ("timeMax", rfc3339(query.end))]
            params += _private_filter(query.private)  # the owner: filtered by the service
        listing = listing_of(
            query.calendar_id,
            query.sync_token,
            query.updated_since,
            query.start,
            query.end,
            query.private,
        )
        if query.page_token:
            params.append(("pageToken", self._pages.unwrap(query.page_token, listing, feed=True)))
        scope: Scope = "sync" if query.sync_token is not None else "feed"
        page = await self._page(query.calendar_id, params, listing, feed=True, scope=scope)
        if page.next_sync_token is None:
            return page
        return replace(page, next_sync_token=self._pages.wrap_sync(page.next_sync_token, resumed))

    async def _page(
        self,
        calendar_id: str,
        params: list[tuple[str, str]],
        listing: str,
        *,
        feed: bool,
        scope: Scope = "calendar",
    ) -> EventPage:
        """One page; Google's next page token goes out wrapped in the service's own, bound
        to ``listing`` and sealed (``page_tokens``): a token the service did not issue for
        this listing is refused before any request, never sent to Google."""
        call = ApiCall("GET", events_path(calendar_id), params, answer=answers.events)
        budget = self._budget()
        with translated(scope, calendar_id):
            data = await self._api().call(call, budget)
        items = data.get("items") or []
        deleted: list[DeletedEvent] = []
        if feed and any(_bare(item) for item in items):
            items, deleted = await self._whole_deletions(calendar_id, items, budget)
        zone = "UTC"
        if any(is_all_day(item) for item in items):
            zone = await self.calendar_time_zone(calendar_id) or "UTC"
        events = (event_from_json(calendar_id, item, zone) for item in items)
        return EventPage(
            events=tuple(event for event in events if event is not None),
            next_page_token=self._wrapped(data.get("nextPageToken"), listing, feed=feed),
            next_sync_token=(data.get("nextSyncToken") or None) if feed else None,
            deleted=tuple(deleted),
        )

    async def _whole_deletions(
        self, calendar_id: str, items: list[Any], budget: Budget
    ) -> tuple[list[Any], list[DeletedEvent]]:
        """A feed page's items with each bare deletion stub (an id and a status: all Google
        promises for a deleted event in a listing) read whole by ``events.get``, which
        "always returns" deleted events: its owner, references and times, so that every
        caller whose event it was learns of the deletion. A stub Google no longer answers
        (404/410) becomes a ``DeletedEvent``, id only. Reads run a few at a time within the
        listing's budget; any other failure fails the page (a deletion is never dropped)."""
        gate = asyncio.Semaphore(STUB_READS_AT_ONCE)

        async def whole(stub: Any) -> Any:
            get = ApiCall("GET", event_path(calendar_id, stub["id"]), answer=answers.event)
            async with gate:
                try:
                    with translated("event", stub["id"]):
                        return await self._api().call(get, budget)
                except EventNotFoundError:
                    return None

        bare = [item for item in items if _bare(item)]
        found = iter(await all_or_nothing([whole(item) for item in bare]))
        kept: list[Any] = []
        deleted: list[DeletedEvent] = []
        for item in items:
            data = next(found) if _bare(item) else item
            if data is not None and not _bare(data):
                kept.append(data)
            else:
                etag = str(item.get("etag", ""))
                deleted.append(DeletedEvent(str(item["id"]), calendar_id, etag))
        return kept, deleted

    def _wrapped(self, provider_token: Any, listing: str, *, feed: bool) -> str | None:
        if not isinstance(provider_token, str) or not provider_token:
            return None
        return self._pages.wrap(provider_token, listing, feed=feed)

    async def calendar_time_zone(self, calendar_id: str) -> str | None:
        """The calendar's ``timeZone`` (``calendars.get``), kept for ``ZONE_TTL`` seconds."""
        kept = self._zones.get(calendar_id)
        if kept is not None:
            return kept
        with translated("calendar", calendar_id):
            get = ApiCall("GET", calendar_path(calendar_id), answer=answers.calendar)
            data = await self._api().call(get, self._budget())
        zone = str(data.get("timeZone") or "UTC")
        self._zones.put(calendar_id, zone)
        return zone

    async def _event(self, calendar_id: str, event_id: str, data: dict[str, Any]) -> CalendarEvent:
        return require_event(
            calendar_id, event_id, data, await self._zone_if_all_day(calendar_id, data)
        )

    async def _zone_if_all_day(self, calendar_id: str, data: dict[str, Any]) -> str:
        if not is_all_day(data):
            return "UTC"
        return await self.calendar_time_zone(calendar_id) or "UTC"

    async def _require_calendar(self, calendar_id: str, budget: Budget) -> None:
        """``calendars.get``; ``CalendarNotFoundError`` when Google does not know the calendar
        (or does not share it with the service account)."""
        with translated("calendar", calendar_id):
            get = ApiCall("GET", calendar_path(calendar_id), answer=answers.calendar)
            await self._api().call(get, budget)

    def _api(self) -> GoogleTransport:
        if self._transport is None:
            raise RuntimeError("GoogleCalendarAdapter is not open: use create() or async with")
        return self._transport

    def _budget(self) -> Budget:
        return Budget.start(self._policy)


def _bare(item: Any) -> bool:
    """A deleted event as a listing may give it: without its times (``answers.event`` lets
    only a cancelled one come so)."""
    return not (item.get("start") and item.get("end"))


def _owned(private: Mapping[str, str] | None, owner: str | None) -> Mapping[str, str] | None:
    """The private-property filter with the owner's (the service's own property), if any.
    Listings only: a filtered feed ends with no sync token on Google, and Google's tokens name
    no event, so a feed is filtered by the service (``ListEvents``)."""
    return private if owner is None else {**(private or {}), OWNER_PROPERTY: owner}


def _private_filter(private: Mapping[str, str] | None) -> list[tuple[str, str]]:
    """Google's ``privateExtendedProperty=key=value``, once per entry (all must match)."""
    return [("privateExtendedProperty", f"{k}={v}") for k, v in (private or {}).items()]


def _stand_in(calendar_id: str, event_id: str, zone: str) -> CalendarEvent:
    """What ``patch_body`` needs of an event it did not read: its zone."""
    epoch = datetime(1970, 1, 1, tzinfo=UTC)
    return CalendarEvent(
        event_id=event_id,
        calendar_id=calendar_id,
        summary="",
        description="",
        start=epoch,
        end=epoch,
        time_zone=zone,
    )


def _refuse_another_request(data: dict[str, Any], event: CalendarEvent, draft: EventDraft) -> None:
    """``IdempotencyConflictError`` unless ``draft`` repeats the request kept in ``data``
    (its fingerprint, else the fields every record has)."""
    if not same_request(kept_fingerprint(data), draft, fields_match=replays(event, draft)):
        raise key_reused()
