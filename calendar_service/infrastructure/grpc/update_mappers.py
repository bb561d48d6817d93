"""``UpdateEventRequest`` → the use case's ``EventUpdate``, through its field mask (AIP-134):
the paths named change, an empty mask means every populated field, any other path is
INVALID_ARGUMENT naming ``update_mask``."""

from __future__ import annotations

from agenda.calendar.v1 import calendar_service_pb2 as pb
from agenda_kit.calendar import event_messages as messages
from agenda_kit.calendar.grpc_mappers import UPDATABLE
from agenda_kit.calendar.port import EventChanges, EventTime
from agenda_kit.errors import RequestValidationError
from calendar_service.application.event_writes import EventUpdate
from calendar_service.domain import validation as limits
from calendar_service.infrastructure.grpc.mappers import (
    check_length,
    date_span,
    time_zone_name,
    to_range,
)


def populated(event: pb.Event) -> list[str]:
    """The updatable fields ``event`` sets (what an empty mask means)."""
    present = {
        "summary": bool(event.summary),
        "description": bool(event.description),
        "location": bool(event.location),
        "time": event.HasField("time"),
        "time_zone": bool(event.time_zone),
        "all_day": event.HasField("all_day"),
        "attendees": bool(event.attendees),
        "transparency": event.transparency != pb.TRANSPARENCY_UNSPECIFIED,
        "private_properties": bool(event.private_properties),
    }
    return [path for path in UPDATABLE if present[path]]


def mask_paths(request: pb.UpdateEventRequest) -> frozenset[str]:
    paths = list(request.update_mask.paths) or populated(request.event)
    unknown = sorted(set(paths) - set(UPDATABLE))
    if unknown:
        raise RequestValidationError("update_mask", f"cannot update {', '.join(unknown)}")
    chosen = frozenset(paths)
    if {"time", "all_day"} <= chosen:
        raise RequestValidationError("update_mask", "time and all_day exclude each other")
    if "time_zone" in chosen and not chosen & {"time", "all_day"}:
        raise RequestValidationError("update_mask", "time_zone changes only with time")
    return chosen


def to_event_update(request: pb.UpdateEventRequest) -> EventUpdate:
    event = request.event
    paths = mask_paths(request)
    check_length("event.attendees", len(event.attendees), limits.MAX_ATTENDEES)
    check_length("event.private_properties", len(event.private_properties), limits.MAX_PROPERTIES)
    zone = time_zone_name("event.time_zone", event.time_zone) if "time_zone" in paths else None
    timing = None
    if "time" in paths:
        start, end = to_range("event.time", event.time, present=event.HasField("time"))
        timing = EventTime(start=start, end=end, time_zone=zone)
    changes = EventChanges(
        summary=event.summary if "summary" in paths else None,
        description=event.description if "description" in paths else None,
        location=event.location if "location" in paths else None,
        time=timing,
        attendees=(
            tuple(messages.attendee(a) for a in event.attendees) if "attendees" in paths else None
        ),
        transparency=(
            messages.enum_value("event.transparency", messages.TRANSPARENCIES, event.transparency)
            if "transparency" in paths
            else None
        ),
        private=dict(event.private_properties) if "private_properties" in paths else None,
        etag=request.etag or None,
        send_updates=messages.enum_value(
            "send_updates", messages.SEND_UPDATES, request.send_updates
        ),
        conflict_policy=messages.enum_value(
            "conflict_policy", messages.CONFLICT_POLICIES, request.conflict_policy
        ),
    )
    all_day = date_span("event.all_day", event.all_day) if "all_day" in paths else None
    return EventUpdate(
        calendar_id=request.calendar_id,
        event_id=request.event_id,
        changes=changes,
        all_day=all_day,
        all_day_zone=zone if all_day is not None else None,
    )
