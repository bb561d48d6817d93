"""Checks of what a caller asks to write: drafts, changes, their texts, lists and times."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from agenda_kit.calendar.port import Attendee, DateSpan, EventChanges, EventDraft, EventTime
from agenda_kit.calendar.validation import check_calendar_id, id_problem
from calendar_service.domain import validation as rules

RESERVED_PROPERTIES = frozenset({"idempotencyKey", "agendaOwner", "requestFingerprint"})
"""The service's own private properties (key, owner, request fingerprint): never a caller's."""


def check_id(field: str, value: str, *, longest: int = rules.MAX_ID) -> None:
    """An id (calendar, event, key): printable, no edge spaces, bounded."""
    problem = id_problem(value, longest=longest)
    if problem is not None:
        raise rules.InvalidRequestError(field, problem)


def check_calendar(field: str, value: str) -> None:
    """The calendar contract's own rule on calendar ids (``agenda_kit.calendar.validation``)."""
    check_calendar_id(value, field)


_PROPERTY_KEY = re.compile(r"[A-Za-z0-9_-]+")
"""A private property key matches the same events on every backend ("a.b" is a path to
MongoDB and "a=b" a filter's separator to Google: such keys never matched on one of them)."""


def check_private(field: str, properties: Mapping[str, str], *, most: int) -> None:
    """Opaque references: a few short entries, none of the service's own keys."""
    rules.check_count(field, len(properties), lowest=0, highest=most)
    for key, value in properties.items():
        rules.check_text(field, key, longest=rules.MAX_PROPERTY_KEY)
        rules.check_text(field, value, longest=rules.MAX_PROPERTY_VALUE, required=False)
        if key in RESERVED_PROPERTIES:
            raise rules.InvalidRequestError(field, f"{key!r} is reserved")
        if not _PROPERTY_KEY.fullmatch(key):
            raise rules.InvalidRequestError(field, "keys are letters, digits, '_' and '-'")


def check_attendees(attendees: Sequence[Attendee]) -> None:
    rules.check_count("attendees", len(attendees), lowest=0, highest=rules.MAX_ATTENDEES)
    for index, attendee in enumerate(attendees):
        rules.check_email(f"attendees[{index}].email", attendee.email)
        rules.check_text(
            f"attendees[{index}].display_name",
            attendee.display_name,
            longest=rules.MAX_DISPLAY_NAME,
            required=False,
        )


def check_texts(summary: str | None, description: str | None, location: str | None) -> None:
    """The texts set (None: not set); a summary set is never blank, on a create or an update
    (an update to "" stored an event with no title the contract allows)."""
    if summary is not None:
        rules.check_text("summary", summary, longest=rules.MAX_SUMMARY)
    if description is not None:
        rules.check_text(
            "description",
            description,
            longest=rules.MAX_DESCRIPTION,
            required=False,
            multiline=True,
        )
    if location is not None:
        rules.check_text("location", location, longest=rules.MAX_LOCATION, required=False)


def check_draft(draft: EventDraft) -> None:
    """Every field of a draft (before any store or provider call)."""
    check_calendar("calendar_id", draft.calendar_id)
    check_texts(draft.summary, draft.description, draft.location)
    check_id("idempotency_key", draft.idempotency_key, longest=rules.MAX_IDEMPOTENCY_KEY)
    rules.check_range("time", draft.start, draft.end, rules.MAX_EVENT_LENGTH)
    rules.check_time_zone("time_zone", draft.time_zone)
    check_private("private_properties", draft.private, most=rules.MAX_PROPERTIES)
    check_attendees(draft.attendees)


def check_changes(changes: EventChanges) -> None:
    """Every field an update sets."""
    if changes.empty:
        raise rules.InvalidRequestError("update_mask", "names no field to change")
    check_texts(changes.summary, changes.description, changes.location)
    if changes.time is not None:
        rules.check_range("time", changes.time.start, changes.time.end, rules.MAX_EVENT_LENGTH)
        if changes.time.time_zone is not None:
            rules.check_time_zone("time_zone", changes.time.time_zone)
    if changes.private is not None:
        check_private("private_properties", changes.private, most=rules.MAX_PROPERTIES)
    if changes.attendees is not None:
        check_attendees(changes.attendees)
    if changes.etag is not None:
        check_id("etag", changes.etag, longest=rules.MAX_ETAG)


def all_day_time(span: DateSpan, zone_name: str) -> EventTime:
    """The local midnights of ``span``'s dates in ``zone_name`` (at most 31 days)."""
    if span.end - span.start > timedelta(days=rules.MAX_EVENT_LENGTH.days):
        raise rules.InvalidRequestError(
            "all_day", f"must not be longer than {rules.MAX_EVENT_LENGTH.days} days"
        )
    rules.check_day("all_day", span.start)
    rules.check_day("all_day", span.end)
    zone = ZoneInfo(zone_name)
    return EventTime(
        start=_midnight(span.start, zone),
        end=_midnight(span.end, zone),
        time_zone=zone_name,
        all_day=span,
    )


def _midnight(day: date, zone: ZoneInfo) -> datetime:
    """Local midnight of ``day`` (a midnight that DST skips is the first instant after)."""
    return datetime.combine(day, time(0), zone).astimezone(ZoneInfo("UTC"))
