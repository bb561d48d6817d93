"""An error names only ids the caller sent.

Rule (applied by the request-context interceptor to every mapped error, whatever raised it):
a UUID in the status message, an ``ErrorInfo`` metadata value or a field violation that is not
one of the UUIDs of the request (any field, any depth, compared in canonical form) is replaced
by ``<id>``. So a message built deep in a use case ("appointment 9f… is being moved", a
calendar's "event … not found") can never tell a caller an id it did not already hold — the
enumeration rule of docs/security.md, enforced at the edge rather than trusted to every
message's author.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import replace
from typing import Any
from uuid import UUID

from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.message import Message

from agenda_kit.errors import MappedError

_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", re.I | re.A)
UNSENT = "<id>"


def _strings(message: Message) -> Iterator[str]:
    for descriptor, value in message.ListFields():
        values = value if descriptor.is_repeated else (value,)
        if descriptor.type == FieldDescriptor.TYPE_STRING:
            yield from values
        elif descriptor.type == FieldDescriptor.TYPE_MESSAGE:
            entry = descriptor.message_type
            if entry is not None and entry.GetOptions().map_entry:
                for key, item in value.items():
                    yield from (v for v in (key, item) if isinstance(v, str))
            else:
                for item in values:
                    yield from _strings(item)


def sent_ids(request: Any) -> frozenset[UUID]:
    """Every UUID written in any string field of ``request`` (none for a non-message)."""
    if not isinstance(request, Message):
        return frozenset()
    return frozenset(UUID(found) for text in _strings(request) for found in _UUID.findall(text))


def redact(text: str, sent: frozenset[UUID]) -> str:
    return _UUID.sub(lambda m: m.group(0) if UUID(m.group(0)) in sent else UNSENT, text)


def without_unsent_ids(mapped: MappedError, request: Any) -> MappedError:
    """``mapped`` with every UUID the request did not carry replaced (see the rule)."""
    sent = sent_ids(request)
    return replace(
        mapped,
        message=redact(mapped.message, sent),
        metadata={key: redact(value, sent) for key, value in mapped.metadata.items()},
        violations=tuple((path, redact(text, sent)) for path, text in mapped.violations),
    )
