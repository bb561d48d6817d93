"""The calendar port's value objects: intervals, slot rules, events, drafts, changes, pages.

All instants are timezone-aware; adapters return them in UTC. Ranges are half-open
``[start, end)``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime, time
from enum import StrEnum


@dataclass(frozen=True, slots=True)
class Interval:
    """A half-open interval ``[start, end)`` of aware instants."""

    start: datetime
    end: datetime

    def __post_init__(self) -> None:
        if self.start.tzinfo is None or self.end.tzinfo is None:
            raise ValueError("interval bounds must be timezone-aware")
        if self.end <= self.start:
            raise ValueError("interval end must be after its start")


@dataclass(frozen=True, slots=True, kw_only=True)
class WeeklyHours:
    """A recurring local window: ``day_of_week`` (1 = Monday … 7 = Sunday) from ``start`` to
    ``end`` local time; ``end`` of ``None`` means midnight at the end of that day."""

    day_of_week: int
    start: time
    end: time | None


@dataclass(frozen=True, slots=True, kw_only=True)
class SlotRules:
    """How free slots are cut: availability, grid, buffers and notice.

    With no ``weekly_hours`` and no ``windows`` the whole requested range is available.
    ``step_minutes`` of ``None`` means the duration when it divides 1440, else 15.
    """

    time_zone: str = "UTC"
    weekly_hours: tuple[WeeklyHours, ...] = ()
    windows: tuple[Interval, ...] = ()
    step_minutes: int | None = None
    buffer_before_minutes: int = 0
    buffer_after_minutes: int = 0
    minimum_notice_minutes: int = 0
    max_results: int = 500


class FreeBusyError(StrEnum):
    """Why one calendar's busy time could not be read (adapters map their vendor's reasons)."""

    NOT_FOUND = "not_found"
    """The calendar does not exist."""
    FORBIDDEN = "forbidden"
    """The calendar exists but may not be read with these credentials."""
    MISSING = "missing"
    """The backend's answer left the calendar out."""
    UNAVAILABLE = "unavailable"
    """The backend could not read it now; a later read may succeed."""


@dataclass(frozen=True, slots=True, kw_only=True)
class FreeBusy:
    """Busy time of one calendar; ``error`` says why it could not be read (busy is then empty)."""

    calendar_id: str
    busy: tuple[Interval, ...] = ()
    error: FreeBusyError | None = None


class ConflictPolicy(StrEnum):
    """What a write does when the event's time is busy."""

    REJECT = "reject"
    """Create-if-free: write only if the time is free, else ``SlotTakenError``."""
    ALLOW_OVERLAP = "allow_overlap"
    """Write even over busy time (the caller explicitly accepts an overlap)."""


class Transparency(StrEnum):
    """Whether an event makes its time busy (Google ``transparency``)."""

    OPAQUE = "opaque"
    TRANSPARENT = "transparent"


class SendUpdates(StrEnum):
    """Whom the provider notifies of a write (Google ``sendUpdates``)."""

    NONE = "none"
    EXTERNAL_ONLY = "externalOnly"
    ALL = "all"


@dataclass(frozen=True, slots=True, kw_only=True)
class Attendee:
    """A person invited to an event; ``response_status`` is the provider's, read only."""

    email: str
    display_name: str = ""
    optional: bool = False
    response_status: str = "needsAction"


@dataclass(frozen=True, slots=True)
class DateSpan:
    """The local dates ``[start, end)`` of an all-day event (``end`` exclusive, as Google)."""

    start: date
    end: date

    def __post_init__(self) -> None:
        if self.end <= self.start:
            raise ValueError("an all-day span must end after it starts")


@dataclass(frozen=True, slots=True, kw_only=True)
class EventDraft:
    """What a caller asks to be written. For an all-day event ``all_day`` holds its dates
    and ``start``/``end`` the local midnights of those dates in the calendar's zone."""

    calendar_id: str
    summary: str
    description: str
    start: datetime
    end: datetime
    idempotency_key: str
    time_zone: str = "UTC"
    owner: str = ""
    """The principal writing it (set by the calendar service, never by its callers)."""
    private: dict[str, str] = field(default_factory=dict)
    """Opaque references (Google ``extendedProperties.private``), never personal data."""
    location: str = ""
    attendees: tuple[Attendee, ...] = ()
    send_updates: SendUpdates = SendUpdates.NONE
    all_day: DateSpan | None = None
    transparency: Transparency = Transparency.OPAQUE
    conflict_policy: ConflictPolicy = ConflictPolicy.REJECT


@dataclass(frozen=True, slots=True, kw_only=True)
class CalendarEvent:
    """An event as stored by the provider (``all_day``: its dates, if it is all-day)."""

    event_id: str
    calendar_id: str
    summary: str
    description: str
    start: datetime
    end: datetime
    time_zone: str = "UTC"
    status: str = "confirmed"
    idempotency_key: str | None = None
    owner: str = ""
    """The principal that wrote it; empty for events written outside the service."""
    private: dict[str, str] = field(default_factory=dict)
    location: str = ""
    attendees: tuple[Attendee, ...] = ()
    all_day: DateSpan | None = None
    transparency: Transparency = Transparency.OPAQUE
    recurring_event_id: str = ""
    """For an instance of a recurring event, the recurring event's id."""
    created: datetime | None = None
    updated: datetime | None = None
    etag: str = ""
    """Changes with every change of the event (Google's etag; the local calendar's version)."""

    @property
    def is_busy(self) -> bool:
        """Whether it takes its time: not cancelled and not transparent."""
        return self.status != "cancelled" and self.transparency is Transparency.OPAQUE


@dataclass(frozen=True, slots=True, kw_only=True)
class EventTime:
    """When an event takes place: instants, the zone it is written in and, for an all-day
    event, its dates (``start``/``end`` are then their local midnights)."""

    start: datetime
    end: datetime
    time_zone: str | None = None
    all_day: DateSpan | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class EventChanges:
    """An update: every field that is not None replaces the stored one (``private``
    replaces the caller's own references, never the service's)."""

    summary: str | None = None
    description: str | None = None
    location: str | None = None
    time: EventTime | None = None
    attendees: tuple[Attendee, ...] | None = None
    transparency: Transparency | None = None
    private: dict[str, str] | None = None
    etag: str | None = None
    """Write only if the event still has this etag (else ``EtagMismatchError``)."""
    send_updates: SendUpdates = SendUpdates.NONE
    conflict_policy: ConflictPolicy = ConflictPolicy.REJECT

    @property
    def empty(self) -> bool:
        return all(
            value is None
            for value in (
                self.summary,
                self.description,
                self.location,
                self.time,
                self.attendees,
                self.transparency,
                self.private,
            )
        )


@dataclass(frozen=True, slots=True)
class DeletedEvent:
    """A deletion in a change feed that the provider no longer describes: its id only
    (Google: "deleted events are only guaranteed to have the id field populated", and one
    it no longer answers whole cannot be told apart by owner or time)."""

    event_id: str
    calendar_id: str
    etag: str = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class EventPage:
    """One page of events ordered by start; ``next_page_token`` is None on the last page.
    The last page of a change-feed listing carries ``next_sync_token``. ``deleted``: the
    feed's deletions known by id only (``DeletedEvent``)."""

    events: tuple[CalendarEvent, ...] = field(default_factory=tuple)
    next_page_token: str | None = None
    next_sync_token: str | None = None
    deleted: tuple[DeletedEvent, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class ChangeQuery:
    """A change-feed listing: events changed since ``updated_since`` (cancelled ones too) or
    since ``sync_token`` (then nothing else may be set), optionally within ``[start, end)``
    and carrying every ``private`` entry."""

    calendar_id: str
    updated_since: datetime | None = None
    sync_token: str | None = None
    start: datetime | None = None
    end: datetime | None = None
    private: dict[str, str] = field(default_factory=dict)
    page_size: int = 100
    page_token: str | None = None
    owner: str | None = None
    """Only the changes of events that owner wrote (None: every owner's); a backend whose
    tokens name no event may return others' too (Google: a filtered feed gets no sync token),
    and the caller filters."""
