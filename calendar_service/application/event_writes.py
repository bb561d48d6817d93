"""The calendar service's write use cases: create, update (and move), cancel — each checks
the request, applies the caller's ownership, then writes through the ``SlotGuard``."""

from __future__ import annotations

import secrets
from dataclasses import dataclass, replace
from datetime import datetime
from functools import partial

from agenda_kit.calendar.errors import (
    CalendarUnavailableError,
    EtagMismatchError,
    EventNotFoundError,
)
from agenda_kit.calendar.port import (
    CalendarEvent,
    ConflictPolicy,
    DateSpan,
    EventChanges,
    EventDraft,
    EventTime,
    Interval,
    SendUpdates,
    Transparency,
)
from calendar_service.application.busy_time import BusyTimeCalendarAdapter
from calendar_service.application.event_checks import (
    all_day_time,
    check_calendar,
    check_changes,
    check_draft,
    check_id,
)
from calendar_service.application.guard import SlotGuard
from calendar_service.application.use_cases import Caller, hidden
from calendar_service.domain import validation as rules


async def _zone_for_all_day(
    calendar: BusyTimeCalendarAdapter, calendar_id: str, fallback: str
) -> str:
    """All-day dates are the calendar's own: its zone, else the request's (checked: a name
    no zone has is the request's error, not the service's)."""
    own = await calendar.calendar_time_zone(calendar_id)
    return own or rules.check_time_zone("time_zone", fallback)


class CreateEvent:
    """Create an event once per (caller, calendar, idempotency key), create-if-free unless
    the caller allows an overlap; returns the event and whether it is new.

    The draft's owner is the calling principal, and the event id is derived from it: the
    same key used by another owner names another event (never the other owner's)."""

    def __init__(self, calendar: BusyTimeCalendarAdapter, guard: SlotGuard) -> None:
        self._calendar = calendar
        self._guard = guard

    async def execute(self, draft: EventDraft) -> tuple[CalendarEvent, bool]:
        check_calendar("calendar_id", draft.calendar_id)
        if draft.all_day is not None:
            zone = await _zone_for_all_day(self._calendar, draft.calendar_id, draft.time_zone)
            timing = all_day_time(draft.all_day, zone)
            draft = replace(draft, start=timing.start, end=timing.end, time_zone=zone)
        check_draft(draft)
        return await self._guard.create(draft)


@dataclass(frozen=True, slots=True, kw_only=True)
class EventUpdate:
    """What to change on which event (``all_day`` set: the event becomes all-day on those
    dates; ``time`` set: timed at those instants)."""

    calendar_id: str
    event_id: str
    changes: EventChanges
    all_day: DateSpan | None = None
    all_day_zone: str | None = None
    """The zone to place ``all_day`` in when the calendar has none of its own."""


class UpdateEvent:
    """Change some fields of an event the caller may see, keeping its id; create-if-free
    over any time the change makes busy that the event did not take before. Another
    owner's event, an absent or a cancelled one is ``EventNotFoundError``."""

    def __init__(self, calendar: BusyTimeCalendarAdapter, guard: SlotGuard) -> None:
        self._calendar = calendar
        self._guard = guard

    async def execute(self, update: EventUpdate, caller: Caller) -> CalendarEvent:
        check_calendar("calendar_id", update.calendar_id)
        check_id("event_id", update.event_id)
        changes = update.changes
        if update.all_day is not None:
            fallback = update.all_day_zone or ""
            zone = await _zone_for_all_day(self._calendar, update.calendar_id, fallback)
            changes = replace(changes, time=all_day_time(update.all_day, zone))
        check_changes(changes)
        for _ in range(_DECISIONS):
            current = await self._calendar.get_event(update.calendar_id, update.event_id)
            if not caller.sees(current) or current.status == "cancelled":
                raise hidden()
            # Written only on the version read (the caller's etag, if it gave one, is its own
            # condition): what to hold and check was decided from that version.
            written = changes if changes.etag is not None else replace(changes, etag=current.etag)
            try:
                return await self._guard.rewrite(
                    current,
                    busy_after(current, changes),
                    changes.conflict_policy,
                    partial(
                        self._calendar.update_event, update.calendar_id, update.event_id, written
                    ),
                )
            except EtagMismatchError:
                if changes.etag is not None or current.etag is None:
                    raise  # the caller's own condition, or none we set
        raise CalendarUnavailableError("The event kept changing; retry the write.")


_DECISIONS = 3
"""How many times an update reads the event and decides again when it changed meanwhile."""


def busy_after(current: CalendarEvent, changes: EventChanges) -> Interval | None:
    """The time the event will take after ``changes`` (None: none, it is transparent). The
    guard claims all of it (a write in flight holds its time, even time the event took when
    read: it may have moved meanwhile) and refuses only over time it did not already take."""
    transparency = changes.transparency or current.transparency
    if transparency is Transparency.TRANSPARENT:
        return None
    time = changes.time
    return Interval(current.start, current.end) if time is None else Interval(time.start, time.end)


@dataclass(frozen=True, slots=True, kw_only=True)
class EventMove:
    """Where an existing event must go; ``time_zone`` of None keeps the event's zone."""

    calendar_id: str
    event_id: str
    start: datetime
    end: datetime
    time_zone: str | None = None
    etag: str | None = None
    conflict_policy: ConflictPolicy = ConflictPolicy.REJECT
    send_updates: SendUpdates = SendUpdates.NONE


class MoveEvent:
    """Move an event the caller may see to a new time keeping its id: an update of its
    time (create-if-free over the new time, its own old time not counting); an absent or
    cancelled event (or another owner's) is ``EventNotFoundError``; moving it where it
    already is succeeds (idempotent)."""

    def __init__(self, update: UpdateEvent) -> None:
        self._update = update

    async def execute(self, move: EventMove, caller: Caller) -> CalendarEvent:
        rules.check_range("time", move.start, move.end, rules.MAX_EVENT_LENGTH)
        time = EventTime(start=move.start, end=move.end, time_zone=move.time_zone)
        changes = EventChanges(
            time=time,
            etag=move.etag,
            conflict_policy=move.conflict_policy,
            send_updates=move.send_updates,
        )
        update = EventUpdate(calendar_id=move.calendar_id, event_id=move.event_id, changes=changes)
        return await self._update.execute(update, caller)


class CancelEvent:
    """Cancel an event the caller may see; an event already cancelled is not an error
    (returns False) and its holds are released. Another owner's event, and an id the calendar
    does not have when read, are answered exactly as an id that was never created on that
    calendar (the backend's own answer for one), so nothing tells them apart, and no answer
    names any id. An id read as absent is never cancelled by that id: ids derive from the
    owner's name and key, so another caller can compute one whose create is still under way,
    and a cancel with no owner condition would take that event (or its hold) once it lands."""

    def __init__(self, calendar: BusyTimeCalendarAdapter, guard: SlotGuard) -> None:
        self._calendar = calendar
        self._guard = guard

    async def execute(
        self,
        calendar_id: str,
        event_id: str,
        caller: Caller,
        *,
        etag: str | None = None,
        send_updates: SendUpdates = SendUpdates.NONE,
    ) -> bool:
        check_calendar("calendar_id", calendar_id)
        check_id("event_id", event_id)
        if etag is not None:
            check_id("etag", etag, longest=rules.MAX_ETAG)
        try:
            event: CalendarEvent | None = await self._calendar.get_event(calendar_id, event_id)
        except EventNotFoundError:
            event = None  # absent now: no one's to cancel, whoever creates it next
        if event is None or not caller.sees(event):
            never_created = secrets.token_hex(16)  # base32hex-valid for Google
            return await self._calendar.cancel_event(calendar_id, never_created)
        try:
            cancelled = await self._calendar.cancel_event(
                calendar_id, event_id, etag=etag, send_updates=send_updates
            )
        except EventNotFoundError:
            await self._guard.cancelled(calendar_id, event_id)
            raise
        await self._guard.cancelled(calendar_id, event_id)
        return cancelled
