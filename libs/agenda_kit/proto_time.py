"""Protobuf ``Timestamp`` and ``HH:MM`` fields ↔ Python values, for both services and the kit.

Parsers name the field they reject: ``error(field, message)`` is raised (by default
``RequestValidationError``; a service may pass its own domain error with the same signature).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import UTC, datetime, time

from google.protobuf.timestamp_pb2 import Timestamp

from agenda_kit.errors import RequestValidationError

__all__ = ["hhmm", "instant", "local_time", "to_datetime", "to_timestamp"]

FieldError = Callable[[str, str], Exception]
_HHMM = re.compile(r"^([01]\d|2[0-4]):([0-5]\d)$")
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_MIN_SECONDS = -62135596800  # 0001-01-01T00:00:00Z
_MAX_SECONDS = 253402300799  # 9999-12-31T23:59:59Z


def to_datetime(
    field: str, stamp: Timestamp, *, error: FieldError = RequestValidationError
) -> datetime:
    """A Timestamp as an aware UTC datetime; out-of-range values are rejected."""
    if not _MIN_SECONDS <= stamp.seconds <= _MAX_SECONDS or not 0 <= stamp.nanos < 10**9:
        raise error(field, "timestamp out of range")
    return stamp.ToDatetime(tzinfo=UTC)


def instant(stamp: Timestamp) -> datetime:
    """A Timestamp a trusted peer sent, as an aware UTC datetime (no range check)."""
    return stamp.ToDatetime(tzinfo=UTC)


def to_timestamp(value: datetime) -> Timestamp:
    """Seconds and nanos computed directly (``FromDatetime`` costs ~3× more per slot); a naive
    value is read as local time, as ``datetime.astimezone`` does."""
    if value.tzinfo is None:
        value = value.astimezone(UTC)
    delta = value - _EPOCH
    return Timestamp(seconds=delta.days * 86_400 + delta.seconds, nanos=delta.microseconds * 1000)


def local_time(
    field: str, text: str, *, is_end: bool, error: FieldError = RequestValidationError
) -> time | None:
    """``HH:MM``; ``24:00`` (only as an end) is midnight at the end of the day: None."""
    match = _HHMM.match(text)
    if match is None or (match.group(1) == "24" and match.group(2) != "00"):
        raise error(field, f"expected HH:MM, got {text[:16]!r}")
    if match.group(1) != "24":
        return time(int(match.group(1)), int(match.group(2)))
    if not is_end:
        raise error(field, "24:00 is only valid as an end time")
    return None


def hhmm(value: time | None, *, error: Callable[[str], Exception] = ValueError) -> str:
    """``09:30`` → "09:30"; ``None`` (end of day) → "24:00"; seconds are not representable."""
    if value is None:
        return "24:00"
    if value.second or value.microsecond:
        raise error(f"weekly hours are whole minutes, got {value}")
    return f"{value.hour:02d}:{value.minute:02d}"
