"""Field parsers of the agent's protobuf messages; each error names the field it rejects."""

from __future__ import annotations

import re
from datetime import date, datetime, time
from typing import Any, TypeVar
from uuid import UUID

from google.protobuf.timestamp_pb2 import Timestamp
from pydantic import BaseModel, ValidationError

from agenda_kit import ids, proto_time
from agent_service.domain.errors import InvalidInputError

M = TypeVar("M", bound=BaseModel)
DEFAULT_PAGE_SIZE = 50
MAX_PAGE_SIZE = 500
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def parse_uuid(field: str, text: str) -> UUID:
    """A UUID in its one spelling (``agenda_kit.ids``: the policy reads tenant ids the same
    way), or ``InvalidInputError("<field>: not a UUID")``."""
    try:
        return ids.parse_uuid(text)
    except ValueError:
        raise InvalidInputError(field, "not a UUID") from None


def optional_uuid(field: str, text: str) -> UUID | None:
    """Empty means "not given"."""
    return parse_uuid(field, text) if text else None


def local_time(field: str, text: str, *, is_end: bool) -> time | None:
    """``HH:MM``; ``24:00`` (only as an end) is midnight at the end of the day: None."""
    return proto_time.local_time(field, text, is_end=is_end, error=InvalidInputError)


def time_text(value: time | None) -> str:
    return "24:00" if value is None else value.strftime("%H:%M")


def local_date(field: str, text: str) -> date:
    """``YYYY-MM-DD``."""
    try:
        if _DATE.match(text):
            return date.fromisoformat(text)
    except ValueError:
        pass
    raise InvalidInputError(field, f"expected YYYY-MM-DD, got {text[:16]!r}")


def to_datetime(field: str, stamp: Timestamp) -> datetime:
    """A Timestamp as an aware UTC datetime; out-of-range values are rejected."""
    return proto_time.to_datetime(field, stamp, error=InvalidInputError)


timestamp = proto_time.to_timestamp


def page_size(value: int) -> int:
    """AIP-158: 0 means the default (50); more than 500 is served as 500; negative is
    ``InvalidInputError``."""
    if value < 0:
        raise InvalidInputError("page_size", "must not be negative")
    if value == 0:
        return DEFAULT_PAGE_SIZE
    return min(value, MAX_PAGE_SIZE)


def build(model: type[M], field: str, **values: Any) -> M:
    """``model(**values)``; a validation error names ``field.<its loc>`` (e.g.
    ``service.duration_minutes: Input should be a multiple of 5``)."""
    try:
        return model(**values)
    except ValidationError as error:
        first = error.errors(include_url=False, include_input=False)[0]
        where = ".".join((field, *(str(part) for part in first["loc"])))
        raise InvalidInputError(where, first["msg"].removeprefix("Value error, ")) from error
