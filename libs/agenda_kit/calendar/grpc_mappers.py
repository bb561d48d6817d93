"""The calendar port's value objects ↔ ``agenda.calendar.v1`` messages, for the gRPC client.

Rules: instants must be timezone-aware (a naive one is an ``InvalidCalendarRequestError``, never
silently read as local time); weekly hours go out as "HH:MM" with an open end as "24:00";
final gRPC statuses map to port errors in ``client_errors``, the client's one error table.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime, time

from google.protobuf.timestamp_pb2 import Timestamp

from agenda.calendar.v1 import calendar_service_pb2 as pb
from agenda_kit import proto_time
from agenda_kit.calendar import event_messages as messages
from agenda_kit.calendar.errors import (
    InvalidCalendarRequestError,
)
from agenda_kit.calendar.port import (
    ChangeQuery,
    EventChanges,
    EventDraft,
    EventTime,
    FreeBusy,
    FreeBusyError,
    Interval,
    SlotRules,
    WeeklyHours,
)


def timestamp(value: datetime) -> Timestamp:
    if value.tzinfo is None or value.utcoffset() is None:
        raise InvalidCalendarRequestError(f"instant {value.isoformat()} must be timezone-aware")
    return proto_time.to_timestamp(value)


def time_range(start: datetime, end: datetime) -> pb.TimeRange:
    return pb.TimeRange(start=timestamp(start), end=timestamp(end))


def hhmm(value: time | None) -> str:
    """``09:30`` → "09:30"; ``None`` (end of day) → "24:00"; seconds are not representable."""
    return proto_time.hhmm(value, error=InvalidCalendarRequestError)


def _weekly_hours(hours: WeeklyHours) -> pb.WeeklyHours:
    return pb.WeeklyHours(
        day_of_week=hours.day_of_week, start_time=hhmm(hours.start), end_time=hhmm(hours.end)
    )


def free_slots_request(
    calendar_id: str, start: datetime, end: datetime, duration_minutes: int, rules: SlotRules
) -> pb.GetFreeSlotsRequest:
    return pb.GetFreeSlotsRequest(
        calendar_id=calendar_id,
        range=time_range(start, end),
        duration_minutes=duration_minutes,
        time_zone=rules.time_zone,
        weekly_hours=[_weekly_hours(hours) for hours in rules.weekly_hours],
        windows=[time_range(window.start, window.end) for window in rules.windows],
        step_minutes=rules.step_minutes or 0,
        buffer_before_minutes=rules.buffer_before_minutes,
        buffer_after_minutes=rules.buffer_after_minutes,
        minimum_notice_minutes=rules.minimum_notice_minutes,
        max_results=rules.max_results,
    )


def free_busy_request(
    calendar_ids: Sequence[str], start: datetime, end: datetime
) -> pb.QueryFreeBusyRequest:
    return pb.QueryFreeBusyRequest(calendar_ids=list(calendar_ids), range=time_range(start, end))


def create_event_request(draft: EventDraft) -> pb.CreateEventRequest:
    """The request; an all-day draft sends its dates (the service places them in the
    calendar's zone), a timed one its instants."""
    request = pb.CreateEventRequest(
        calendar_id=draft.calendar_id,
        summary=draft.summary,
        description=draft.description,
        time_zone=draft.time_zone,
        idempotency_key=draft.idempotency_key,
        private_properties=dict(draft.private),
        conflict_policy=messages.policy_number(draft.conflict_policy),
        location=draft.location,
        attendees=[messages.attendee_message(a) for a in draft.attendees],
        send_updates=messages.send_updates_number(draft.send_updates),
        transparency=messages.transparency_number(draft.transparency),
    )
    if draft.all_day is not None:
        request.all_day.CopyFrom(messages.date_span_message(draft.all_day))
    else:
        request.time.CopyFrom(time_range(draft.start, draft.end))
    return request


def list_events_request(
    calendar_id: str,
    start: datetime,
    end: datetime,
    *,
    page_size: int,
    page_token: str | None,
    include_cancelled: bool,
    private: Mapping[str, str] | None = None,
) -> pb.ListEventsRequest:
    return pb.ListEventsRequest(
        calendar_id=calendar_id,
        range=time_range(start, end),
        page_size=page_size,
        page_token=page_token or "",
        include_cancelled=include_cancelled,
        private_property_filter=dict(private or {}),
    )


def changes_request(query: ChangeQuery) -> pb.ListEventsRequest:
    """A change-feed listing."""
    request = pb.ListEventsRequest(
        calendar_id=query.calendar_id,
        page_size=query.page_size,
        page_token=query.page_token or "",
        include_cancelled=True,
        private_property_filter=dict(query.private),
        sync_token=query.sync_token or "",
    )
    if query.updated_since is not None:
        request.updated_since.CopyFrom(timestamp(query.updated_since))
    if query.start is not None and query.end is not None:
        request.range.CopyFrom(time_range(query.start, query.end))
    return request


UPDATABLE = (
    "summary",
    "description",
    "location",
    "time",
    "time_zone",
    "all_day",
    "attendees",
    "transparency",
    "private_properties",
)
"""The ``UpdateEventRequest.update_mask`` paths (Event fields a caller may change)."""


def update_event_request(
    calendar_id: str, event_id: str, changes: EventChanges
) -> pb.UpdateEventRequest:
    """The request changing exactly the fields ``changes`` sets."""
    event = pb.Event(
        summary=changes.summary or "",
        description=changes.description or "",
        location=changes.location or "",
        attendees=[messages.attendee_message(a) for a in changes.attendees or ()],
        private_properties=dict(changes.private or {}),
    )
    paths = [
        name
        for name, value in (
            ("summary", changes.summary),
            ("description", changes.description),
            ("location", changes.location),
            ("attendees", changes.attendees),
            ("private_properties", changes.private),
        )
        if value is not None
    ]
    if changes.transparency is not None:
        event.transparency = messages.transparency_number(changes.transparency)
        paths.append("transparency")
    if changes.time is not None:
        paths.extend(_time_paths(event, changes.time))
    request = pb.UpdateEventRequest(
        calendar_id=calendar_id,
        event_id=event_id,
        event=event,
        etag=changes.etag or "",
        conflict_policy=messages.policy_number(changes.conflict_policy),
        send_updates=messages.send_updates_number(changes.send_updates),
    )
    request.update_mask.paths.extend(paths)
    return request


def _time_paths(event: pb.Event, time: EventTime) -> list[str]:
    paths = []
    if time.all_day is not None:
        event.all_day.CopyFrom(messages.date_span_message(time.all_day))
        paths.append("all_day")
    else:
        event.time.CopyFrom(time_range(time.start, time.end))
        paths.append("time")
    if time.time_zone is not None:
        event.time_zone = time.time_zone
        paths.append("time_zone")
    return paths


instant = proto_time.instant


def interval(message: pb.TimeRange) -> Interval:
    return Interval(instant(message.start), instant(message.end))


calendar_event = messages.calendar_event


_ERROR_CODES: dict[FreeBusyError, pb.FreeBusyError.ValueType] = {
    FreeBusyError.NOT_FOUND: pb.FREE_BUSY_ERROR_NOT_FOUND,
    FreeBusyError.FORBIDDEN: pb.FREE_BUSY_ERROR_FORBIDDEN,
    FreeBusyError.MISSING: pb.FREE_BUSY_ERROR_MISSING,
    FreeBusyError.UNAVAILABLE: pb.FREE_BUSY_ERROR_UNAVAILABLE,
}
_BY_ERROR_CODE = {code: error for error, code in _ERROR_CODES.items()}
LEGACY_ERROR_TEXT: dict[FreeBusyError, str] = {
    FreeBusyError.NOT_FOUND: "notFound",
    FreeBusyError.FORBIDDEN: "forbidden",
    FreeBusyError.MISSING: "missing",
    FreeBusyError.UNAVAILABLE: "unavailable",
}
"""The deprecated ``CalendarBusy.error`` text of each error, as older clients read it."""
_BY_LEGACY_TEXT = {text: error for error, text in LEGACY_ERROR_TEXT.items()}


def free_busy(message: pb.CalendarBusy) -> FreeBusy:
    return FreeBusy(
        calendar_id=message.calendar_id,
        busy=tuple(interval(span) for span in message.busy),
        error=free_busy_error(message),
    )


def free_busy_error(message: pb.CalendarBusy) -> FreeBusyError | None:
    """``error_code``; from a server older than it, the legacy text (unknown text: UNAVAILABLE)."""
    if message.error_code != pb.FREE_BUSY_ERROR_UNSPECIFIED:
        return _BY_ERROR_CODE.get(message.error_code, FreeBusyError.UNAVAILABLE)
    if not message.error:
        return None
    return _BY_LEGACY_TEXT.get(message.error, FreeBusyError.UNAVAILABLE)


def calendar_busy(answer: FreeBusy) -> pb.CalendarBusy:
    """The answer as sent: ``error_code`` and, for older clients, the legacy ``error`` text."""
    error = answer.error
    return pb.CalendarBusy(
        calendar_id=answer.calendar_id,
        busy=[time_range(span.start, span.end) for span in answer.busy],
        error="" if error is None else LEGACY_ERROR_TEXT[error],
        error_code=pb.FREE_BUSY_ERROR_UNSPECIFIED if error is None else _ERROR_CODES[error],
    )
