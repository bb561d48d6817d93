"""Protobuf messages ↔ the calendar port's value objects, checked field by field."""

from __future__ import annotations

from datetime import UTC, datetime, time

from google.protobuf.timestamp_pb2 import Timestamp

from agenda.calendar.v1 import calendar_service_pb2 as pb
from agenda_kit.calendar import event_messages as messages
from agenda_kit.calendar.port import (
    DateSpan,
    Interval,
    SlotRules,
    WeeklyHours,
)
from agenda_kit.errors import RequestValidationError
from agenda_kit.proto_time import local_time, to_datetime, to_timestamp
from calendar_service.application.event_writes import EventMove
from calendar_service.application.idempotency import SentDraft
from calendar_service.application.slot_mapping import to_slot_query
from calendar_service.application.use_cases import EventListing, FreeSlotsQuery
from calendar_service.domain import validation as limits
from calendar_service.domain.slot_model import validate_query
from calendar_service.infrastructure.grpc.fingerprint import request_fingerprints

# The longest IANA zone name has 32 characters. ZoneInfo raises OSError (not ValueError)
# for a name longer than a file name may be, so such names are refused here.
_MAX_ZONE_CHARS = 64


def to_range(field: str, message: pb.TimeRange, *, present: bool) -> tuple[datetime, datetime]:
    """Both bounds required; ``end`` after ``start``. Kept to the millisecond, the precision
    holds and busy checks use: every backend stores and checks the same instants (Google was
    sent microseconds the checks had cut: two touching events overlapped by them)."""
    if not present or not message.HasField("start") or not message.HasField("end"):
        raise RequestValidationError(field, "start and end are required")
    start = request_instant(f"{field}.start", message.start)
    end = request_instant(f"{field}.end", message.end)
    if end <= start:
        raise RequestValidationError(field, "end must be after start")
    return start, end


def request_instant(field: str, stamp: Timestamp) -> datetime:
    """Every instant a caller sends, whatever the field (ranges, windows, ``updated_since``):
    a valid Timestamp, cut to the millisecond, between ``validation.EARLIEST`` and
    ``LATEST`` (the years 1900 and 9000, docs/calendar-service.md#errors)."""
    value = limits.to_millisecond(to_datetime(field, stamp))
    if not limits.EARLIEST <= value <= limits.LATEST:
        raise RequestValidationError(
            field, f"must lie between years {limits.EARLIEST.year} and {limits.LATEST.year}"
        )
    return value


def time_zone_name(field: str, text: str) -> str:
    """A zone of the zone database (``validation.check_time_zone``, the one rule of every
    RPC that takes a zone); empty means UTC."""
    if len(text) > _MAX_ZONE_CHARS:
        raise RequestValidationError(field, f"unknown time zone {text[:64]!r}")
    return limits.check_time_zone(field, text)


def date_span(field: str, message: pb.DateSpan) -> DateSpan:
    """A ``DateSpan`` of two "YYYY-MM-DD" dates (``validation.parse_day``); end after start."""
    start = limits.parse_day(f"{field}.start_date", message.start_date)
    end = limits.parse_day(f"{field}.end_date", message.end_date)
    if end <= start:
        raise RequestValidationError(field, "end_date must be after start_date")
    return DateSpan(start, end)


def time_range(start: datetime, end: datetime) -> pb.TimeRange:
    return pb.TimeRange(start=to_timestamp(start), end=to_timestamp(end))


def _weekly_hours(index: int, hours: pb.WeeklyHours) -> WeeklyHours:
    field = f"weekly_hours[{index}]"
    if not 1 <= hours.day_of_week <= 7:
        raise RequestValidationError(f"{field}.day_of_week", "must be 1 (Monday) to 7 (Sunday)")
    start = local_time(f"{field}.start_time", hours.start_time, is_end=False)
    end = local_time(f"{field}.end_time", hours.end_time, is_end=True)
    if start is None or (end is not None and end <= start):
        raise RequestValidationError(field, "end_time must be after start_time")
    return WeeklyHours(day_of_week=hours.day_of_week, start=start, end=end)


def _int_or_default(value: int, default: int | None) -> int | None:
    return default if value == 0 else value


def is_fresh(read_mode: int) -> bool:
    """Whether ``read_mode`` asks for a fresh read; an unknown value is refused."""
    if read_mode not in pb.ReadMode.values():
        raise RequestValidationError("read_mode", f"unknown read mode {read_mode}")
    return read_mode == pb.READ_MODE_FRESH


def check_length(field: str, count: int, most: int) -> None:
    """A repeated field of at most ``most`` entries (checked before any entry is read)."""
    if count > most:
        raise RequestValidationError(field, f"must have at most {most} entries")


def to_free_slots_query(request: pb.GetFreeSlotsRequest) -> FreeSlotsQuery:
    check_length("weekly_hours", len(request.weekly_hours), limits.MAX_WEEKLY_HOURS)
    check_length("windows", len(request.windows), limits.MAX_WINDOWS)
    start, end = to_range("range", request.range, present=request.HasField("range"))
    windows = tuple(
        Interval(*to_range(f"windows[{i}]", window, present=True))
        for i, window in enumerate(request.windows)
    )
    rules = SlotRules(
        time_zone=time_zone_name("time_zone", request.time_zone),
        weekly_hours=tuple(_weekly_hours(i, hours) for i, hours in enumerate(request.weekly_hours)),
        windows=windows,
        step_minutes=_int_or_default(request.step_minutes, None),
        buffer_before_minutes=request.buffer_before_minutes,
        buffer_after_minutes=request.buffer_after_minutes,
        minimum_notice_minutes=request.minimum_notice_minutes,
        max_results=_int_or_default(request.max_results, 500) or 500,
    )
    # The slot engine checks these rules too, but only after the free/busy read, whose range
    # the buffers widen (a huge buffer overflowed it: INTERNAL). Refuse a bad query first.
    validate_query(to_slot_query(start, end, request.duration_minutes, rules))
    return FreeSlotsQuery(
        calendar_id=request.calendar_id,
        start=start,
        end=end,
        duration_minutes=request.duration_minutes,
        rules=rules,
        fresh=is_fresh(request.read_mode),
    )


def to_event_draft(request: pb.CreateEventRequest, owner: str) -> SentDraft:
    """The draft ``owner`` (the calling principal) asks for: timed (``time``) or all-day
    (``all_day``: its instants are placed in the calendar's zone by the use case), with the
    request's fingerprint (what its idempotency key promises to repeat)."""
    check_length("attendees", len(request.attendees), limits.MAX_ATTENDEES)
    check_length("private_properties", len(request.private_properties), limits.MAX_PROPERTIES)
    all_day = None
    if request.HasField("all_day"):
        if request.HasField("time"):
            raise RequestValidationError("time", "must not be set together with all_day")
        all_day = date_span("all_day", request.all_day)
        start = datetime.combine(all_day.start, time(0), UTC)  # placed in the calendar's
        end = datetime.combine(all_day.end, time(0), UTC)  # zone by the use case
    else:
        start, end = to_range("time", request.time, present=request.HasField("time"))
    fingerprint, earlier = request_fingerprints(request)
    return SentDraft(
        calendar_id=request.calendar_id,
        summary=request.summary,
        description=request.description,
        start=start,
        end=end,
        idempotency_key=request.idempotency_key,
        time_zone=time_zone_name("time_zone", request.time_zone),
        owner=owner,
        private=dict(request.private_properties),
        location=request.location,
        attendees=tuple(messages.attendee(a) for a in request.attendees),
        send_updates=messages.enum_value(
            "send_updates", messages.SEND_UPDATES, request.send_updates
        ),
        all_day=all_day,
        transparency=messages.enum_value(
            "transparency", messages.TRANSPARENCIES, request.transparency
        ),
        conflict_policy=messages.enum_value(
            "conflict_policy", messages.CONFLICT_POLICIES, request.conflict_policy
        ),
        fingerprint=fingerprint,
        earlier_fingerprints=(earlier,),
    )


def to_event_move(request: pb.MoveEventRequest) -> EventMove:
    start, end = to_range("time", request.time, present=request.HasField("time"))
    return EventMove(
        calendar_id=request.calendar_id,
        event_id=request.event_id,
        start=start,
        end=end,
        time_zone=time_zone_name("time_zone", request.time_zone) if request.time_zone else None,
        etag=request.etag or None,
        conflict_policy=messages.enum_value(
            "conflict_policy", messages.CONFLICT_POLICIES, request.conflict_policy
        ),
        send_updates=messages.enum_value(
            "send_updates", messages.SEND_UPDATES, request.send_updates
        ),
    )


def to_event_listing(request: pb.ListEventsRequest) -> EventListing:
    """A range listing, or the change feed (``updated_since`` / ``sync_token``)."""
    check_length(
        "private_property_filter",
        len(request.private_property_filter),
        limits.MAX_PROPERTY_FILTER,
    )
    start = end = None
    if request.HasField("range") or not (request.HasField("updated_since") or request.sync_token):
        start, end = to_range("range", request.range, present=request.HasField("range"))
    since = (
        request_instant("updated_since", request.updated_since)
        if request.HasField("updated_since")
        else None
    )
    return EventListing(
        calendar_id=request.calendar_id,
        start=start,
        end=end,
        page_size=request.page_size or 100,
        page_token=request.page_token or None,
        include_cancelled=request.include_cancelled,
        private=dict(request.private_property_filter),
        updated_since=since,
        sync_token=request.sync_token or None,
    )


event_message = messages.event_message
deletion_message = messages.deletion_message
