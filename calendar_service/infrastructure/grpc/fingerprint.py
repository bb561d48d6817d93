"""The fingerprint of a ``CreateEventRequest``: what its idempotency key promises to repeat.

Every field of the message counts (a field added to the proto counts from then on) except
the key itself; spellings the contract defines as equal are made equal first (an unspecified
enum is its documented default, an empty zone is UTC, instants are kept to the millisecond as
events are stored). Unknown fields change nothing written and are left out."""

from __future__ import annotations

import hashlib

from agenda.calendar.v1 import calendar_service_pb2 as pb
from agenda_kit.calendar import event_messages as messages

VERSION = "v1"
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
    """``v1:`` and the SHA-256 of the canonical request (deterministic serialization)."""
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
    digest = hashlib.sha256(canonical.SerializeToString(deterministic=True)).hexdigest()
    return f"{VERSION}:{digest}"
