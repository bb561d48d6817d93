"""The calendar port's value objects ↔ ``agenda.calendar.v1`` messages, for the gRPC client.

Rules: instants must be timezone-aware (a naive one is an ``InvalidCalendarRequestError``, never
silently read as local time); weekly hours go out as "HH:MM" with an open end as "24:00";
final gRPC status codes map to port errors in ``port_error``, the client's one error table.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime, time

import grpc
from google.protobuf.timestamp_pb2 import Timestamp

from agenda.calendar.v1 import calendar_service_pb2 as pb
from agenda_kit import proto_time
from agenda_kit.calendar.errors import (
    CalendarError,
    CalendarNotFoundError,
    CalendarQuotaError,
    CalendarUnavailableError,
    EventNotFoundError,
    IdempotencyConflictError,
    InvalidCalendarRequestError,
)
from agenda_kit.calendar.port import (
    CalendarEvent,
    EventDraft,
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
    return pb.CreateEventRequest(
        calendar_id=draft.calendar_id,
        summary=draft.summary,
        description=draft.description,
        time=time_range(draft.start, draft.end),
        time_zone=draft.time_zone,
        idempotency_key=draft.idempotency_key,
        private_properties=dict(draft.private),
    )


def list_events_request(
    calendar_id: str,
    start: datetime,
    end: datetime,
    *,
    page_size: int,
    page_token: str | None,
    include_cancelled: bool,
) -> pb.ListEventsRequest:
    return pb.ListEventsRequest(
        calendar_id=calendar_id,
        range=time_range(start, end),
        page_size=page_size,
        page_token=page_token or "",
        include_cancelled=include_cancelled,
    )


instant = proto_time.instant


def interval(message: pb.TimeRange) -> Interval:
    return Interval(instant(message.start), instant(message.end))


def calendar_event(message: pb.Event) -> CalendarEvent:
    return CalendarEvent(
        event_id=message.event_id,
        calendar_id=message.calendar_id,
        summary=message.summary,
        description=message.description,
        start=instant(message.time.start),
        end=instant(message.time.end),
        time_zone=message.time_zone or "UTC",
        status=message.status or "confirmed",
        idempotency_key=message.idempotency_key or None,
        owner=message.owner,
        private=dict(message.private_properties),
    )


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


CREDENTIALS_REJECTED_MESSAGE = (
    "O serviço de calendário recusou as credenciais deste cliente; verifique o token de acesso."
)
_BY_CODE: dict[grpc.StatusCode, Callable[[str], CalendarError]] = {
    grpc.StatusCode.INVALID_ARGUMENT: InvalidCalendarRequestError,
    grpc.StatusCode.ALREADY_EXISTS: IdempotencyConflictError,
    grpc.StatusCode.RESOURCE_EXHAUSTED: CalendarQuotaError,
}
CREDENTIAL_CODES = frozenset({grpc.StatusCode.UNAUTHENTICATED, grpc.StatusCode.PERMISSION_DENIED})
EXPECTED_CODES = frozenset(
    {grpc.StatusCode.INVALID_ARGUMENT, grpc.StatusCode.NOT_FOUND, grpc.StatusCode.ALREADY_EXISTS}
)


def port_error(code: grpc.StatusCode, details: str, *, event_scoped: bool) -> CalendarError:
    """The port error for a final status: the one table of the client.

    NOT_FOUND names the event for event RPCs and the calendar for calendar-level ones;
    rejected credentials and every other code (UNAVAILABLE, DEADLINE_EXCEEDED, CANCELLED,
    INTERNAL, …) become ``CalendarUnavailableError`` — the caller cannot fix those.
    """
    if code is grpc.StatusCode.NOT_FOUND:
        return EventNotFoundError(details) if event_scoped else CalendarNotFoundError(details)
    if code in CREDENTIAL_CODES:
        return CalendarUnavailableError(CREDENTIALS_REJECTED_MESSAGE)
    factory = _BY_CODE.get(code)
    return CalendarUnavailableError() if factory is None else factory(details)
