"""The fingerprint of a ``CreateEventRequest``: what its idempotency key promises to repeat.

Every field of the message counts (a field added to the proto counts from then on) except
the key itself; spellings the contract defines as equal are made equal first (an unspecified
enum is its documented default, an empty zone is UTC, instants are kept to the millisecond as
events are stored), and so are values the proto marks as compared loosely, read from the
descriptor wherever they are nested: a ``(unordered)`` repeated field is the set of its
elements (sorted, repetitions dropped), a ``(case_insensitive)`` text in lower case (the
attendees: the same people in another order or case are the same request). Unknown fields
change nothing written and are left out."""

from __future__ import annotations

import hashlib

from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.message import Message

from agenda.calendar.v1 import calendar_service_pb2 as pb
from agenda_kit.calendar import event_messages as messages

VERSION = "v2"
"""v2: ``(unordered)`` and ``(case_insensitive)`` fields compared loosely; v1 (kept before
them) compared attendees in the order and case sent."""
_DEFAULTS = {
    "conflict_policy": messages.policy_number(
        messages.CONFLICT_POLICIES[pb.CONFLICT_POLICY_UNSPECIFIED]
    ),
    "transparency": messages.transparency_number(
        messages.TRANSPARENCIES[pb.TRANSPARENCY_UNSPECIFIED]
    ),
    "send_updates": messages.send_updates_number(
        messages.SEND_UPDATES[pb.SEND_UPDATES_UNSPECIFIED]
    ),
}


def request_fingerprint(request: pb.CreateEventRequest) -> str:
    """``v2:`` and the SHA-256 of the canonical request (deterministic serialization)."""
    return request_fingerprints(request)[0]


def request_fingerprints(request: pb.CreateEventRequest) -> tuple[str, str]:
    """The request's fingerprint, then the one v1 gave it: a key kept under v1 (before an
    upgrade) is still replayed by the same request."""
    canonical = _canonical(request)
    earlier = _digest("v1", canonical)
    _loosened(canonical)
    return _digest(VERSION, canonical), earlier


def _canonical(request: pb.CreateEventRequest) -> pb.CreateEventRequest:
    canonical = pb.CreateEventRequest()
    canonical.CopyFrom(request)
    canonical.DiscardUnknownFields()
    canonical.ClearField("idempotency_key")
    for name, default in _DEFAULTS.items():
        if getattr(canonical, name) == 0:
            setattr(canonical, name, default)
    canonical.time_zone = canonical.time_zone or "UTC"
    if canonical.HasField("time"):
        for bound in (canonical.time.start, canonical.time.end):
            bound.nanos -= bound.nanos % 1_000_000
    return canonical


def _loosened(message: Message) -> None:
    """``message`` with its marked fields (at any depth) in their one spelling."""
    for field, value in message.ListFields():
        if _is_map(field):
            continue  # unordered already: deterministic serialization sorts the keys
        options = field.GetOptions()
        nested = field.type == FieldDescriptor.TYPE_MESSAGE
        if not field.is_repeated:
            if nested:
                _loosened(value)
            elif options.Extensions[pb.case_insensitive]:
                setattr(message, field.name, value.lower())
            continue
        elements = list(value)
        if nested:
            for element in elements:
                _loosened(element)
        elif options.Extensions[pb.case_insensitive]:
            elements = [element.lower() for element in elements]
        if options.Extensions[pb.unordered]:
            elements = _as_set(elements, nested=nested)
        if not nested or options.Extensions[pb.unordered]:
            message.ClearField(field.name)
            getattr(message, field.name).extend(elements)


def _as_set(elements: list[object], *, nested: bool) -> list[object]:
    """The distinct elements in one order (messages by their deterministic bytes)."""
    if not nested:
        return sorted(set(elements), key=repr)
    by_bytes = {_bytes(element): element for element in elements}
    return [by_bytes[key] for key in sorted(by_bytes)]


def _bytes(element: object) -> bytes:
    assert isinstance(element, Message)
    return element.SerializeToString(deterministic=True)


def _is_map(field: FieldDescriptor) -> bool:
    return field.message_type is not None and field.message_type.GetOptions().map_entry


def _digest(version: str, canonical: pb.CreateEventRequest) -> str:
    digest = hashlib.sha256(canonical.SerializeToString(deterministic=True)).hexdigest()
    return f"{version}:{digest}"
