# Over 300 lines: one adapter of the calendar port (every operation over the MongoDB calendar).
"""``LocalCalendarAdapter``: calendars and events kept in MongoDB through Beanie."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any, NoReturn

from pymongo import ReturnDocument
from pymongo.errors import DuplicateKeyError

from agenda_kit.calendar.errors import (
    CalendarNotFoundError,
    CalendarUnavailableError,
    EtagMismatchError,
    EventNotFoundError,
    InvalidCalendarRequestError,
)
from agenda_kit.calendar.port import (
    CalendarEvent,
    ChangeQuery,
    EventChanges,
    EventDraft,
    EventPage,
    FreeBusy,
    SendUpdates,
)
from calendar_service.application.busy_time import BusyTimeCalendarAdapter
from calendar_service.application.idempotency import key_reused, same_request
from calendar_service.infrastructure.local.changes import change_set, feed_page, feed_query
from calendar_service.infrastructure.local.day_keys import MAX_KEYS_PER_READ
from calendar_service.infrastructure.local.documents import (
    CANCELLED,
    CONFIRMED,
    CalendarDocument,
    EventDocument,
)
from calendar_service.infrastructure.local.errors import translated_errors
from calendar_service.infrastructure.local.paging import (
    decode_token,
    listing_of,
    sealed_page_tokens,
)
from calendar_service.infrastructure.local.queries import (
    BUSY_CODEC,
    BUSY_FIELDS,
    BY_CHANGE,
    BY_START,
    after,
    busy_filter,
    busy_of,
    check_event_range,
    check_range,
    is_busy,
    overlapping,
    page_of,
)
from calendar_service.infrastructure.page_tokens import SealedPageTokens

MAX_PAGE_SIZE = 1000
_UPDATE_ROUNDS = 8
"""Reads and conditional writes an update tries before giving up under constant writes."""


def _utc_now() -> datetime:
    return datetime.now(UTC)


class LocalCalendarAdapter(BusyTimeCalendarAdapter):
    """The built-in calendar: events in MongoDB (``init_local_calendar`` must have run).

    Business rules, the same as the Google adapter's:
    - ``insert_event`` is idempotent per (calendar, owner, idempotency key): the event id is
      derived from the three, so a retry, or any number of concurrent duplicates, finds the
      one stored event (``created=False``); reusing a key for a different request (another
      fingerprint: ``application.idempotency``) is an ``IdempotencyConflictError``. A key
      whose event was cancelled stays used.
      Another owner's key names another event.
    - Every write bumps ``version`` (the etag) and ``updated_at`` (the change feed's order);
      a write with an etag happens only while the version matches (``EtagMismatchError``).
    - Calendars are created lazily by their first event. A calendar with no events is simply
      free: free/busy of an unknown calendar is an empty busy list, never an error.
    - Cancelling marks the event ``cancelled``; it stays readable (``get_event``, and
      ``list_events`` with ``include_cancelled``) and leaves busy time. Cancelling it again
      returns False; an id that never existed is ``EventNotFoundError``, and a calendar
      that never held an event is ``CalendarNotFoundError`` (cancel and move).
    - Moving rewrites start and end of a confirmed event in one atomic update (same id); a
      cancelled or unknown event is ``EventNotFoundError``; moving it where it is succeeds.
    - An event is at most ``MAX_EVENT_LENGTH`` (31 days) long, else
      ``InvalidCalendarRequestError`` (the service checks the same limit first). Free/busy
      reads find events by the keys of the UTC days they keep busy (``day_keys``), which
      the same update that writes start, end or status keeps; a read needing more than
      ``max_keys_per_read`` keys (many calendars over a long range) uses the overlap filter.
    - Beanie binds the documents to one database per process, so one adapter serves one
      database.
    """

    def __init__(
        self,
        *,
        clock: Callable[[], datetime] = _utc_now,
        max_keys_per_read: int = MAX_KEYS_PER_READ,
    ) -> None:
        self._clock = clock
        self._max_keys = max_keys_per_read
        self._sealer: SealedPageTokens | None = None

    @property
    def max_keys_per_read(self) -> int:
        """Day keys a busy read may ask for; more (or 0: always) reads by the overlap filter."""
        return self._max_keys

    async def insert_event(self, draft: EventDraft) -> tuple[CalendarEvent, bool]:
        check_event_range(draft.start, draft.end)
        event_id = self.event_id_for(draft.calendar_id, draft.owner, draft.idempotency_key)
        with translated_errors("insert_event"):
            stored = await _stored_for_key(draft)
            if stored is None:
                await self._ensure_calendar(draft)
                document = EventDocument.from_domain(draft, event_id, self._clock())
                if await _insert_new(document):
                    return document.to_domain(), True
                stored = await _stored_for_key(draft)
        if stored is None:  # we collided with it, and events are never deleted
            raise CalendarUnavailableError()
        return _replayed(stored, draft), False

    async def refuse_reused_key(self, draft: EventDraft) -> None:
        with translated_errors("insert_event"):
            stored = await _stored_for_key(draft)
        if stored is not None:
            _replayed(stored, draft)

    async def query_free_busy(
        self,
        calendar_ids: Sequence[str],
        start: datetime,
        end: datetime,
        *,
        fresh: bool = False,
    ) -> list[FreeBusy]:
        """Read from MongoDB every time (nothing is cached here, so ``fresh`` changes nothing).

        Only the three fields busy time needs, as raw documents with dates as integer
        milliseconds: parsing whole Beanie documents cost several times the query itself on
        a busy week, and a datetime per bound is made only for the merged busy intervals."""
        check_range(start, end)
        wanted = busy_filter(list(dict.fromkeys(calendar_ids)), start, end, max_keys=self._max_keys)
        with translated_errors("query_free_busy"):
            events = EventDocument.get_pymongo_collection().with_options(codec_options=BUSY_CODEC)
            cursor = events.find(wanted, BUSY_FIELDS)
            documents = await cursor.to_list()
        by_calendar: defaultdict[str, list[dict[str, Any]]] = defaultdict(list)
        for document in documents:
            if is_busy(document):
                by_calendar[document["calendar_id"]].append(document)
        return [
            FreeBusy(calendar_id=calendar_id, busy=busy_of(by_calendar[calendar_id], start, end))
            for calendar_id in calendar_ids
        ]

    async def get_event(self, calendar_id: str, event_id: str) -> CalendarEvent:
        with translated_errors("get_event"):
            document = await EventDocument.find_one({"_id": event_id, "calendar_id": calendar_id})
        if document is None:
            raise EventNotFoundError()
        return document.to_domain()

    async def cancel_event(
        self,
        calendar_id: str,
        event_id: str,
        *,
        etag: str | None = None,
        send_updates: SendUpdates = SendUpdates.NONE,
    ) -> bool:
        """Mark it cancelled (no one is notified: the local calendar sends no mail)."""
        mine = {"_id": event_id, "calendar_id": calendar_id}
        condition = mine | {"status": CONFIRMED} | _version_of(etag)
        change: dict[str, Any] = {
            "status": CANCELLED,
            "busy_days": [],
            "updated_at": self._clock(),
        }
        with translated_errors("cancel_event"):
            result = await EventDocument.get_pymongo_collection().update_one(
                condition, {"$set": change, "$inc": {"version": 1}}
            )
            if result.modified_count:
                return True
            exists = await EventDocument.find_one(mine)
        if exists is None:
            await _absent(calendar_id, event_id, "cancel_event")
        if etag is not None and exists.status == CONFIRMED:
            raise EtagMismatchError()
        return False

    async def update_event(
        self, calendar_id: str, event_id: str, changes: EventChanges
    ) -> CalendarEvent:
        """One atomic update of the changed fields of a confirmed event (same id; day keys
        follow its time and transparency), conditioned on the version read: a concurrent
        write makes it read again (``changes.etag`` given: ``EtagMismatchError`` instead).
        A cancelled or unknown event is ``EventNotFoundError``."""
        if changes.time is not None:
            check_event_range(changes.time.start, changes.time.end)
        for _ in range(_UPDATE_ROUNDS):
            updated = await self._update_once(calendar_id, event_id, changes)
            if updated is not None:
                return updated
        raise CalendarUnavailableError("The event kept changing; retry the update.")

    async def _update_once(
        self, calendar_id: str, event_id: str, changes: EventChanges
    ) -> CalendarEvent | None:
        mine = {"_id": event_id, "calendar_id": calendar_id}
        with translated_errors("update_event"):
            stored = await EventDocument.find_one(mine | {"status": CONFIRMED})
            if stored is None:
                await _absent(calendar_id, event_id, "update_event")
            if changes.etag is not None and changes.etag != stored.to_domain().etag:
                raise EtagMismatchError()
            raw = await EventDocument.get_pymongo_collection().find_one_and_update(
                mine | {"status": CONFIRMED} | _at_version(stored.version),
                {"$set": change_set(stored, changes, self._clock()), "$inc": {"version": 1}},
                return_document=ReturnDocument.AFTER,
            )
        if raw is None:  # written (or cancelled) between the read and the write
            if changes.etag is not None:
                raise EtagMismatchError()
            return None
        moved: EventDocument = EventDocument.model_validate(raw)
        return moved.to_domain()

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
        _check_page_size(page_size)
        query: dict[str, Any] = {"calendar_id": calendar_id} | overlapping(start, end)
        query |= {f"private.{key}": value for key, value in (private or {}).items()}
        if owner is not None:
            query["owner"] = owner
        if not include_cancelled:
            query["status"] = CONFIRMED
        listing = listing_of(calendar_id, start, end, include_cancelled, private or {}, owner)
        with translated_errors("list_events"):
            pages = await self._pages()
            if page_token is not None:
                query["$or"] = after(decode_token(page_token, listing, pages))
            documents = (
                await EventDocument.find(query).sort(BY_START).limit(page_size + 1).to_list()
            )
        return page_of(documents, page_size, listing, pages)

    async def list_changes(self, query: ChangeQuery) -> EventPage:
        """Events changed at or after the position (``updated_at``, cancellations included),
        in change order; the last page's sync token resumes a little before the newest
        change listed (``changes.FEED_OVERLAP``), so a write committed late is not missed."""
        _check_page_size(query.page_size)
        with translated_errors("list_changes"):
            pages = await self._pages()
            wanted, since = feed_query(query, pages)
            documents = (
                await EventDocument.find(wanted)
                .sort(BY_CHANGE)
                .limit(query.page_size + 1)
                .to_list()
            )
        return feed_page(documents, query.page_size, since, query, pages)

    async def _pages(self) -> SealedPageTokens:
        """The page-token sealer, its key read from the calendar's database once."""
        if self._sealer is None:
            database = EventDocument.get_pymongo_collection().database
            self._sealer = await sealed_page_tokens(database)
        return self._sealer

    async def calendar_time_zone(self, calendar_id: str) -> str | None:
        """The zone the calendar was created with (its first event's), if it exists."""
        with translated_errors("calendar_time_zone"):
            calendar = await CalendarDocument.find_one({"_id": calendar_id})
        return None if calendar is None else calendar.time_zone

    async def _ensure_calendar(self, draft: EventDraft) -> None:
        """Create the draft's calendar unless it exists (concurrent creators are fine)."""
        created = {"name": draft.calendar_id, "time_zone": draft.time_zone}
        try:
            await CalendarDocument.get_pymongo_collection().update_one(
                {"_id": draft.calendar_id},
                {"$setOnInsert": created | {"created_at": self._clock()}},
                upsert=True,
            )
        except DuplicateKeyError:
            return  # a concurrent upsert created it first


async def _absent(calendar_id: str, event_id: str, operation: str) -> NoReturn:
    """Raise why ``event_id`` is not there: its calendar is unknown, or the event is."""
    with translated_errors(operation):
        calendar = await CalendarDocument.find_one({"_id": calendar_id})
    if calendar is None:
        raise CalendarNotFoundError()
    raise EventNotFoundError()


async def _stored_for_key(draft: EventDraft) -> EventDocument | None:
    """The caller's event for this key (by its fields, so events stored before ids were
    scoped by owner are found too)."""
    return await EventDocument.find_one(
        {
            "calendar_id": draft.calendar_id,
            "owner": draft.owner,
            "idempotency_key": draft.idempotency_key,
        }
    )


def _version_of(etag: str | None) -> dict[str, Any]:
    """The filter of a write conditioned on ``etag`` (``"<version>"``); none without one."""
    if etag is None:
        return {}
    try:
        return _at_version(int(etag.strip('"')))
    except ValueError:
        return {"version": -1}  # not an etag of ours: matches nothing


def _at_version(version: int) -> dict[str, Any]:
    """Events still at ``version`` (events stored before versions count as version 1)."""
    if version == 1:
        return {"version": {"$in": [1, None]}}
    return {"version": version}


def _check_page_size(page_size: int) -> None:
    if not 1 <= page_size <= MAX_PAGE_SIZE:
        raise InvalidCalendarRequestError(
            f"page_size must be between 1 and {MAX_PAGE_SIZE}", field="page_size"
        )


async def _insert_new(document: EventDocument) -> bool:
    """Insert ``document``; False when an event with its id or key is already stored."""
    try:
        await document.insert()
    except DuplicateKeyError:
        return False
    return True


def _replayed(stored: EventDocument, draft: EventDraft) -> CalendarEvent:
    """The stored event for a repeated key, provided the draft repeats its request."""
    if not same_request(stored.fingerprint, draft, fields_match=stored.matches(draft)):
        raise key_reused()
    return stored.to_domain()
