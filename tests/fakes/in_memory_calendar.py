"""A hand-written fake calendar: events in a dict, the same rules as the calendar service
(create-if-free included, so agent tests that use it directly keep the booking guarantee)."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from datetime import UTC, datetime

from agenda_kit.calendar.errors import (
    CalendarError,
    CalendarNotFoundError,
    EtagMismatchError,
    EventNotFoundError,
    IdempotencyConflictError,
    InvalidCalendarRequestError,
    SlotTakenError,
)
from agenda_kit.calendar.port import (
    CalendarEvent,
    ChangeQuery,
    ConflictPolicy,
    EventChanges,
    EventDraft,
    EventPage,
    FreeBusy,
    FreeBusyError,
    Interval,
    SendUpdates,
    Transparency,
)
from calendar_service.application.busy_time import BusyTimeCalendarAdapter


class InMemoryCalendar(BusyTimeCalendarAdapter):
    """Events per calendar in memory; ``fail_with`` makes every call raise that error.
    Calendars whose id starts with "missing" do not exist."""

    def __init__(self, clock: Callable[[], datetime] | None = None) -> None:
        if clock is not None:
            self.clock = clock
        self.events: dict[str, CalendarEvent] = {}
        self.changed: dict[str, int] = {}
        self._versions = itertools.count(1)
        self.free_busy_calls = 0
        self.fresh_free_busy_calls = 0
        self.fail_with: CalendarError | None = None

    def _check(self) -> None:
        if self.fail_with is not None:
            raise self.fail_with

    def _stamp(self, event: CalendarEvent) -> CalendarEvent:
        version = next(self._versions)
        stamped = replace(event, etag=f'"{version}"', updated=self.clock())
        self.events[event.event_id] = stamped
        self.changed[event.event_id] = version
        return stamped

    async def query_free_busy(
        self,
        calendar_ids: Sequence[str],
        start: datetime,
        end: datetime,
        *,
        fresh: bool = False,
    ) -> list[FreeBusy]:
        self._check()
        self.free_busy_calls += 1
        self.fresh_free_busy_calls += fresh
        return [self._busy(calendar_id, start, end) for calendar_id in calendar_ids]

    def _busy(self, calendar_id: str, start: datetime, end: datetime) -> FreeBusy:
        if calendar_id.startswith("missing"):
            return FreeBusy(calendar_id=calendar_id, error=FreeBusyError.NOT_FOUND)
        spans = sorted(
            (max(e.start, start), min(e.end, end))
            for e in self._overlapping(calendar_id, start, end)
        )
        return FreeBusy(calendar_id=calendar_id, busy=tuple(Interval(s, e) for s, e in spans))

    def _overlapping(
        self, calendar_id: str, start: datetime, end: datetime, but: str = ""
    ) -> list[CalendarEvent]:
        return [
            e
            for e in self.events.values()
            if e.calendar_id == calendar_id
            and e.is_busy
            and e.event_id != but
            and e.start < end
            and e.end > start
        ]

    def _refuse_overlap(self, calendar_id: str, start: datetime, end: datetime, but: str) -> None:
        taken = self._overlapping(calendar_id, start, end, but)
        if taken:
            first = min(taken, key=lambda e: e.start)
            raise SlotTakenError(
                metadata={
                    "conflictStart": max(first.start, start).isoformat(),
                    "conflictEnd": min(first.end, end).isoformat(),
                    "heldBy": "event",
                }
            )

    async def refuse_reused_key(self, draft: EventDraft) -> None:
        self._check()
        event_id = self.event_id_for(draft.calendar_id, draft.owner, draft.idempotency_key)
        existing = self.events.get(event_id)
        if existing is not None and (existing.start, existing.end) != (draft.start, draft.end):
            raise IdempotencyConflictError()

    async def insert_event(self, draft: EventDraft) -> tuple[CalendarEvent, bool]:
        await self.refuse_reused_key(draft)
        event_id = self.event_id_for(draft.calendar_id, draft.owner, draft.idempotency_key)
        existing = self.events.get(event_id)
        if existing is not None:
            return existing, False
        if _guarded(draft.conflict_policy, draft.transparency):
            self._refuse_overlap(draft.calendar_id, draft.start, draft.end, event_id)
        event = CalendarEvent(
            event_id=event_id,
            calendar_id=draft.calendar_id,
            summary=draft.summary,
            description=draft.description,
            start=draft.start,
            end=draft.end,
            time_zone=draft.time_zone,
            idempotency_key=draft.idempotency_key,
            owner=draft.owner,
            private=dict(draft.private),
            location=draft.location,
            attendees=draft.attendees,
            all_day=draft.all_day,
            transparency=draft.transparency,
            created=self.clock(),
        )
        return self._stamp(event), True

    async def get_event(self, calendar_id: str, event_id: str) -> CalendarEvent:
        self._check()
        if calendar_id.startswith("missing"):  # as in free/busy: an unknown calendar
            raise CalendarNotFoundError()
        event = self.events.get(event_id)
        if event is None or event.calendar_id != calendar_id:
            raise EventNotFoundError()
        return event

    async def cancel_event(
        self,
        calendar_id: str,
        event_id: str,
        *,
        etag: str | None = None,
        send_updates: SendUpdates = SendUpdates.NONE,
    ) -> bool:
        event = await self.get_event(calendar_id, event_id)
        if etag is not None and etag != event.etag:
            raise EtagMismatchError()
        if event.status == "cancelled":
            return False
        self._stamp(replace(event, status="cancelled"))
        return True

    async def update_event(
        self, calendar_id: str, event_id: str, changes: EventChanges
    ) -> CalendarEvent:
        """Same id, the changed fields; a cancelled or unknown event is ``EventNotFoundError``;
        a time made busy over another event is ``SlotTakenError`` unless overlap is allowed."""
        event = await self.get_event(calendar_id, event_id)
        if event.status == "cancelled":
            raise EventNotFoundError()
        if changes.etag is not None and changes.etag != event.etag:
            raise EtagMismatchError()
        updated = _changed(event, changes)
        if updated.end <= updated.start:
            raise InvalidCalendarRequestError("end must be after start")
        if changes.conflict_policy is ConflictPolicy.REJECT and updated.is_busy:
            self._refuse_overlap(calendar_id, updated.start, updated.end, event_id)
        return self._stamp(updated)

    async def calendar_time_zone(self, calendar_id: str) -> str | None:
        return None

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
        self._check()
        matching = sorted(
            (
                e
                for e in self.events.values()
                if e.calendar_id == calendar_id
                and e.start < end
                and e.end > start
                and (include_cancelled or e.status != "cancelled")
                and _carries(e, private)
                and owner in (None, e.owner)
            ),
            key=lambda e: (e.start, e.event_id),
        )
        return _paged(matching, page_size, page_token)

    async def list_changes(self, query: ChangeQuery) -> EventPage:
        """Changes after the sync token's version, or updated at/after ``updated_since``."""
        self._check()
        after = _version(query.sync_token)
        since = query.updated_since or datetime.min.replace(tzinfo=UTC)
        matching = sorted(
            (
                e
                for e in self.events.values()
                if e.calendar_id == query.calendar_id
                and self.changed.get(e.event_id, 0) > after
                and (e.updated or since) >= since
                and (query.start is None or e.start < (query.end or e.end))
                and (query.end is None or e.end > (query.start or e.start))
                and _carries(e, query.private)
                and query.owner in (None, e.owner)
            ),
            key=lambda e: self.changed.get(e.event_id, 0),
        )
        page = _paged(matching, query.page_size, query.page_token)
        if page.next_page_token is None:
            newest = max(self.changed.values(), default=0)
            return replace(page, next_sync_token=f"v{newest}")
        return page


def _guarded(policy: ConflictPolicy, transparency: Transparency) -> bool:
    return policy is ConflictPolicy.REJECT and transparency is Transparency.OPAQUE


def _changed(event: CalendarEvent, changes: EventChanges) -> CalendarEvent:
    fields: dict[str, object] = {
        name: value
        for name, value in (
            ("summary", changes.summary),
            ("description", changes.description),
            ("location", changes.location),
            ("attendees", changes.attendees),
            ("transparency", changes.transparency),
            ("private", changes.private),
        )
        if value is not None
    }
    if changes.time is not None:
        fields |= {
            "start": changes.time.start,
            "end": changes.time.end,
            "time_zone": changes.time.time_zone or event.time_zone,
            "all_day": changes.time.all_day,
        }
    return replace(event, **fields)  # type: ignore[arg-type]


def _carries(event: CalendarEvent, private: Mapping[str, str] | None) -> bool:
    return all(event.private.get(k) == v for k, v in (private or {}).items())


def _version(token: str | None) -> int:
    if not token:
        return 0
    try:
        return int(token.removeprefix("v"))
    except ValueError as error:
        raise InvalidCalendarRequestError("invalid sync token", field="sync_token") from error


def _paged(matching: list[CalendarEvent], page_size: int, page_token: str | None) -> EventPage:
    try:
        offset = int(page_token or 0)
    except ValueError as error:
        raise InvalidCalendarRequestError("invalid page token") from error
    page = matching[offset : offset + page_size]
    more = offset + page_size < len(matching)
    return EventPage(events=tuple(page), next_page_token=str(offset + page_size) if more else None)
