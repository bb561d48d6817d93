"""Events and their parts ↔ ``agenda.calendar.v1`` messages, both ways (the service writes
them, the gRPC client reads them). Enum values a peer does not know are refused by
``enum_value`` (the service answers INVALID_ARGUMENT naming the field)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import date
from typing import Any, TypeVar

from agenda.calendar.v1 import calendar_service_pb2 as pb
from agenda_kit import proto_time
from agenda_kit.calendar.errors import InvalidCalendarRequestError
from agenda_kit.calendar.values import (
    Attendee,
    CalendarEvent,
    ConflictPolicy,
    DateSpan,
    DeletedEvent,
    SendUpdates,
    Transparency,
)

E = TypeVar("E")
N = TypeVar("N", bound=int)

CONFLICT_POLICIES: dict[pb.ConflictPolicy.ValueType, ConflictPolicy] = {
    pb.CONFLICT_POLICY_UNSPECIFIED: ConflictPolicy.REJECT,
    pb.CONFLICT_POLICY_REJECT: ConflictPolicy.REJECT,
    pb.CONFLICT_POLICY_ALLOW_OVERLAP: ConflictPolicy.ALLOW_OVERLAP,
}
TRANSPARENCIES: dict[pb.Transparency.ValueType, Transparency] = {
    pb.TRANSPARENCY_UNSPECIFIED: Transparency.OPAQUE,
    pb.TRANSPARENCY_OPAQUE: Transparency.OPAQUE,
    pb.TRANSPARENCY_TRANSPARENT: Transparency.TRANSPARENT,
}
SEND_UPDATES: dict[pb.SendUpdates.ValueType, SendUpdates] = {
    pb.SEND_UPDATES_UNSPECIFIED: SendUpdates.NONE,
    pb.SEND_UPDATES_NONE: SendUpdates.NONE,
    pb.SEND_UPDATES_EXTERNAL_ONLY: SendUpdates.EXTERNAL_ONLY,
    pb.SEND_UPDATES_ALL: SendUpdates.ALL,
}


def enum_value(field: str, table: Mapping[Any, E], value: int) -> E:
    """The port's value of a proto enum; a number the contract does not define is refused."""
    try:
        return table[value]
    except KeyError:
        raise InvalidCalendarRequestError(f"{field}: unknown value {value}", field=field) from None


def _number(table: Mapping[N, E], value: E) -> N:
    """The proto enum number of a port value (the explicit one, never UNSPECIFIED)."""
    return max((number for number, known in table.items() if known == value), key=int)


def policy_number(value: ConflictPolicy) -> pb.ConflictPolicy.ValueType:
    return _number(CONFLICT_POLICIES, value)


def transparency_number(value: Transparency) -> pb.Transparency.ValueType:
    return _number(TRANSPARENCIES, value)


def send_updates_number(value: SendUpdates) -> pb.SendUpdates.ValueType:
    return _number(SEND_UPDATES, value)


_DAY = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


def _date(field: str, text: str) -> date:
    """A date spelled "YYYY-MM-DD" in ASCII digits, the contract's only spelling (as the
    service checks it: ISO week, ordinal, basic and other digits name the same day
    otherwise)."""
    try:
        if not _DAY.fullmatch(text):
            raise ValueError("not YYYY-MM-DD")
        return date.fromisoformat(text)
    except ValueError:
        raise InvalidCalendarRequestError(
            f"{field}: must be a date YYYY-MM-DD", field=field
        ) from None


def date_span(field: str, message: pb.DateSpan) -> DateSpan:
    """A ``DateSpan`` message as the port's: two "YYYY-MM-DD" dates, end after start (what
    the calendar client reads back: an all-day event's dates)."""
    start = _date(f"{field}.start_date", message.start_date)
    end = _date(f"{field}.end_date", message.end_date)
    if end <= start:
        raise InvalidCalendarRequestError(
            f"{field}: end_date must be after start_date", field=field
        )
    return DateSpan(start, end)


def date_span_message(span: DateSpan) -> pb.DateSpan:
    return pb.DateSpan(start_date=span.start.isoformat(), end_date=span.end.isoformat())


def attendee(message: pb.Attendee) -> Attendee:
    return Attendee(
        email=message.email,
        display_name=message.display_name,
        optional=message.optional,
        response_status=message.response_status or "needsAction",
    )


def attendee_message(value: Attendee) -> pb.Attendee:
    return pb.Attendee(
        email=value.email,
        display_name=value.display_name,
        optional=value.optional,
        response_status=value.response_status,
    )


def event_message(event: CalendarEvent) -> pb.Event:
    """The port's event as the ``Event`` message."""
    message = pb.Event(
        event_id=event.event_id,
        calendar_id=event.calendar_id,
        summary=event.summary,
        description=event.description,
        time=pb.TimeRange(
            start=proto_time.to_timestamp(event.start), end=proto_time.to_timestamp(event.end)
        ),
        time_zone=event.time_zone,
        status=event.status,
        idempotency_key=event.idempotency_key or "",
        owner=event.owner,
        private_properties=event.private,
        location=event.location,
        attendees=[attendee_message(a) for a in event.attendees],
        transparency=transparency_number(event.transparency),
        recurring_event_id=event.recurring_event_id,
        etag=event.etag,
    )
    if event.all_day is not None:
        message.all_day.CopyFrom(date_span_message(event.all_day))
    if event.created is not None:
        message.create_time.CopyFrom(proto_time.to_timestamp(event.created))
    if event.updated is not None:
        message.update_time.CopyFrom(proto_time.to_timestamp(event.updated))
    return message


def deletion_message(gone: DeletedEvent) -> pb.Event:
    """A change feed's deletion known by id only: an ``Event`` with its id, calendar, etag
    and status "cancelled", and no ``time`` (``is_deletion``)."""
    return pb.Event(
        event_id=gone.event_id, calendar_id=gone.calendar_id, status="cancelled", etag=gone.etag
    )


def is_deletion(message: pb.Event) -> bool:
    """Whether ``message`` is a deletion known by id only (``deletion_message``)."""
    return message.status == "cancelled" and not message.HasField("time")


def deletion(message: pb.Event) -> DeletedEvent:
    return DeletedEvent(message.event_id, message.calendar_id, message.etag)


def calendar_event(message: pb.Event) -> CalendarEvent:
    """An ``Event`` message as the port's event (what the gRPC client returns)."""
    return CalendarEvent(
        event_id=message.event_id,
        calendar_id=message.calendar_id,
        summary=message.summary,
        description=message.description,
        start=proto_time.instant(message.time.start),
        end=proto_time.instant(message.time.end),
        time_zone=message.time_zone or "UTC",
        status=message.status or "confirmed",
        idempotency_key=message.idempotency_key or None,
        owner=message.owner,
        private=dict(message.private_properties),
        location=message.location,
        attendees=tuple(attendee(a) for a in message.attendees),
        all_day=date_span("all_day", message.all_day) if message.HasField("all_day") else None,
        transparency=TRANSPARENCIES.get(message.transparency, Transparency.OPAQUE),
        recurring_event_id=message.recurring_event_id,
        created=(
            proto_time.instant(message.create_time) if message.HasField("create_time") else None
        ),
        updated=(
            proto_time.instant(message.update_time) if message.HasField("update_time") else None
        ),
        etag=message.etag,
    )
