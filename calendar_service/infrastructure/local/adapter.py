"""``LocalCalendarAdapter``: calendars and events kept in MongoDB through Beanie."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import Any, NoReturn

from pymongo import ReturnDocument
from pymongo.errors import DuplicateKeyError

from agenda_kit.calendar.errors import (
    CalendarNotFoundError,
    CalendarUnavailableError,
    EventNotFoundError,
    IdempotencyConflictError,
    InvalidCalendarRequestError,
)
from agenda_kit.calendar.port import CalendarEvent, EventDraft, EventPage, FreeBusy
from calendar_service.application.busy_time import BusyTimeCalendarAdapter
from calendar_service.infrastructure.local.day_keys import MAX_KEYS_PER_READ, event_day_keys
from calendar_service.infrastructure.local.documents import (
    CANCELLED,
    CONFIRMED,
    CalendarDocument,
    EventDocument,
    stored_instant,
)
from calendar_service.infrastructure.local.errors import translated_errors
from calendar_service.infrastructure.local.ids import event_id_for
from calendar_service.infrastructure.local.paging import decode_token
from calendar_service.infrastructure.local.queries import (
    BUSY_CODEC,
    BUSY_FIELDS,
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

MAX_PAGE_SIZE = 1000


def _utc_now() -> datetime:
    return datetime.now(UTC)


class LocalCalendarAdapter(BusyTimeCalendarAdapter):
    """The built-in calendar: events in MongoDB (``init_local_calendar`` must have run).

    Business rules, the same as the Google adapter's:
    - ``insert_event`` is idempotent per (calendar, idempotency key): the event id is derived
      from both, so a retry, or any number of concurrent duplicates, finds the one stored
      event (``created=False``); reusing a key for a different start, end or summary is an
      ``IdempotencyConflictError``. A key whose event was cancelled stays used.
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

    @property
    def max_keys_per_read(self) -> int:
        """Day keys a busy read may ask for; more (or 0: always) reads by the overlap filter."""
        return self._max_keys

    async def insert_event(self, draft: EventDraft) -> tuple[CalendarEvent, bool]:
        check_event_range(draft.start, draft.end)
        event_id = event_id_for(draft.calendar_id, draft.idempotency_key)
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
            raise EventNotFoundError(f"event {event_id!r} not found in {calendar_id!r}")
        return document.to_domain()

    async def cancel_event(self, calendar_id: str, event_id: str) -> bool:
        mine = {"_id": event_id, "calendar_id": calendar_id}
        with translated_errors("cancel_event"):
            result = await EventDocument.get_pymongo_collection().update_one(
                mine | {"status": CONFIRMED},
                {"$set": {"status": CANCELLED, "busy_days": [], "updated_at": self._clock()}},
            )
            if result.modified_count:
                return True
            exists = await EventDocument.find_one(mine)
        if exists is None:
            await _absent(calendar_id, event_id, "cancel_event")
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
        check_event_range(start, end)
        start, end = stored_instant(start), stored_instant(end)
        changes: dict[str, Any] = {
            "start": start,
            "end": end,
            "busy_days": event_day_keys(calendar_id, start, end),
            "updated_at": self._clock(),
        }
        if time_zone is not None:
            changes["time_zone"] = time_zone
        with translated_errors("move_event"):
            raw = await EventDocument.get_pymongo_collection().find_one_and_update(
                {"_id": event_id, "calendar_id": calendar_id, "status": CONFIRMED},
                {"$set": changes},
                return_document=ReturnDocument.AFTER,
            )
        if raw is None:
            await _absent(calendar_id, event_id, "move_event")
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
    ) -> EventPage:
        check_range(start, end)
        if not 1 <= page_size <= MAX_PAGE_SIZE:
            raise InvalidCalendarRequestError(f"page_size must be between 1 and {MAX_PAGE_SIZE}")
        query: dict[str, Any] = {"calendar_id": calendar_id} | overlapping(start, end)
        if not include_cancelled:
            query["status"] = CONFIRMED
        if page_token is not None:
            query["$or"] = after(decode_token(page_token))
        with translated_errors("list_events"):
            documents = (
                await EventDocument.find(query).sort(BY_START).limit(page_size + 1).to_list()
            )
        return page_of(documents, page_size)

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
        raise CalendarNotFoundError(f"calendar {calendar_id!r} not found")
    raise EventNotFoundError(f"event {event_id!r} not found in {calendar_id!r}")


async def _stored_for_key(draft: EventDraft) -> EventDocument | None:
    return await EventDocument.find_one(
        {"calendar_id": draft.calendar_id, "idempotency_key": draft.idempotency_key}
    )


async def _insert_new(document: EventDocument) -> bool:
    """Insert ``document``; False when an event with its id or key is already stored."""
    try:
        await document.insert()
    except DuplicateKeyError:
        return False
    return True


def _replayed(stored: EventDocument, draft: EventDraft) -> CalendarEvent:
    """The stored event for a repeated key, provided the draft asks for the same event."""
    if not stored.matches(draft):
        raise IdempotencyConflictError(
            f"idempotency key {draft.idempotency_key!r} was already used for event "
            f"{stored.id!r} with a different start, end or summary"
        )
    return stored.to_domain()
