"""The length bound of every string and list of the calendar contract, checked at the edge
(after authentication, before anything decodes a field), from the descriptors.

The bounds are the domain's own limits (``calendar_service.domain.validation``), so the edge
never refuses what the use cases would accept; fields not listed (dates, times of day,
response statuses, output-only fields of ``Event`` that an update ignores) have the kit's
defaults (``agenda_kit.grpc.bounds``: 256 characters, 100 items). So a field added to the
contract is bounded from its first day, even before a use case checks it; the use cases
still check what only they can (printable ids, e-mail shapes, zones, ranges).
"""

from __future__ import annotations

from agenda_kit.grpc.bounds import RequestBounds
from calendar_service.domain import validation as rules

_C = "agenda.calendar.v1."
_CALENDARS = ("GetFreeSlots", "CreateEvent", "GetEvent", "CancelEvent", "ListEvents")
_EVENTS = ("GetEvent", "CancelEvent", "MoveEvent", "UpdateEvent")
_ETAGS = ("CancelEvent", "MoveEvent", "UpdateEvent")
_ZONES = ("GetFreeSlots", "CreateEvent", "MoveEvent")


def _each(methods: tuple[str, ...], field: str, bound: int) -> dict[str, int]:
    return {f"{_C}{method}Request.{field}": bound for method in methods}


CALENDAR_BOUNDS = RequestBounds(
    strings={
        **_each((*_CALENDARS, "MoveEvent", "UpdateEvent"), "calendar_id", rules.MAX_ID),
        **_each(_EVENTS, "event_id", rules.MAX_ID),
        **_each(_ETAGS, "etag", rules.MAX_ETAG),
        **_each(_ZONES, "time_zone", rules.MAX_TIME_ZONE),
        f"{_C}QueryFreeBusyRequest.calendar_ids": rules.MAX_ID,
        f"{_C}CreateEventRequest.summary": rules.MAX_SUMMARY,
        f"{_C}CreateEventRequest.description": rules.MAX_DESCRIPTION,
        f"{_C}CreateEventRequest.location": rules.MAX_LOCATION,
        f"{_C}CreateEventRequest.idempotency_key": rules.MAX_IDEMPOTENCY_KEY,
        f"{_C}CreateEventRequest.PrivatePropertiesEntry.key": rules.MAX_PROPERTY_KEY,
        f"{_C}CreateEventRequest.PrivatePropertiesEntry.value": rules.MAX_PROPERTY_VALUE,
        f"{_C}Attendee.email": rules.MAX_EMAIL,
        f"{_C}Attendee.display_name": rules.MAX_DISPLAY_NAME,
        f"{_C}ListEventsRequest.page_token": rules.MAX_TOKEN,
        f"{_C}ListEventsRequest.sync_token": rules.MAX_TOKEN,
        f"{_C}ListEventsRequest.PrivatePropertyFilterEntry.key": rules.MAX_PROPERTY_KEY,
        f"{_C}ListEventsRequest.PrivatePropertyFilterEntry.value": rules.MAX_PROPERTY_VALUE,
        f"{_C}Event.event_id": rules.MAX_ID,
        f"{_C}Event.calendar_id": rules.MAX_ID,
        f"{_C}Event.summary": rules.MAX_SUMMARY,
        f"{_C}Event.description": rules.MAX_DESCRIPTION,
        f"{_C}Event.location": rules.MAX_LOCATION,
        f"{_C}Event.time_zone": rules.MAX_TIME_ZONE,
        f"{_C}Event.idempotency_key": rules.MAX_IDEMPOTENCY_KEY,
        f"{_C}Event.owner": rules.MAX_ID,
        f"{_C}Event.recurring_event_id": rules.MAX_ID,
        f"{_C}Event.etag": rules.MAX_ETAG,
        f"{_C}Event.PrivatePropertiesEntry.key": rules.MAX_PROPERTY_KEY,
        f"{_C}Event.PrivatePropertiesEntry.value": rules.MAX_PROPERTY_VALUE,
    },
    lists={
        f"{_C}GetFreeSlotsRequest.weekly_hours": rules.MAX_WEEKLY_HOURS,
        f"{_C}GetFreeSlotsRequest.windows": rules.MAX_WINDOWS,
        f"{_C}QueryFreeBusyRequest.calendar_ids": rules.MAX_CALENDARS_PER_QUERY,
        f"{_C}CreateEventRequest.attendees": rules.MAX_ATTENDEES,
        f"{_C}CreateEventRequest.private_properties": rules.MAX_PROPERTIES,
        f"{_C}ListEventsRequest.private_property_filter": rules.MAX_PROPERTY_FILTER,
        f"{_C}Event.attendees": rules.MAX_ATTENDEES,
        f"{_C}Event.private_properties": rules.MAX_PROPERTIES,
    },
)
