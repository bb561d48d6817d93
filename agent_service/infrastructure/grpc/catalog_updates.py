"""Update requests of the CatalogService (AIP-134): the ``update_mask`` checked against the
resource's fields, then applied to the stored resource as its protobuf message.

Rules: mask paths are the resource's field paths (``name``, ``policy.slot_step_minutes``); a
message or repeated field named in the mask is replaced whole; an empty mask or ``*`` replaces
every field; ids, creation time and ``etag`` never change (naming them is
INVALID_ARGUMENT, as is an unknown path or ``*`` with other paths). What the change makes is
validated like a create (``to_*`` of ``catalog_mappers``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from google.protobuf.field_mask_pb2 import FieldMask
from google.protobuf.message import Message

from agent_service.domain.errors import InvalidInputError

E = TypeVar("E")
M = TypeVar("M", bound=Message)
IMMUTABLE = frozenset({"id", "tenant_id", "created_at", "etag"})
_ALL = "*"


def mask_change(
    patch: M,
    mask: FieldMask,
    *,
    owner: str,
    to_message: Callable[[E], M],
    to_entity: Callable[[M], E],
) -> Callable[[E], E]:
    """The change an update request makes of the stored entity (checked now, applied later
    to whatever is stored when the update writes)."""
    paths = _checked(mask, patch, owner)

    def change(stored: E) -> E:
        merged = to_message(stored)
        if paths:
            FieldMask(paths=paths).MergeMessage(
                patch, merged, replace_message_field=True, replace_repeated_field=True
            )
        else:
            kept = {name: getattr(merged, name) for name in _immutable_of(merged)}
            merged.CopyFrom(patch)
            for name, value in kept.items():
                _assign(merged, name, value)
        return to_entity(merged)

    return change


def _checked(mask: FieldMask, patch: Message, owner: str) -> list[str]:
    """The mask's paths (empty: every field), or ``InvalidInputError``."""
    paths = list(mask.paths)
    if paths in ([], [_ALL]):
        return []
    for index, path in enumerate(paths):
        where = f"update_mask.paths[{index}]"
        if path == _ALL:
            raise InvalidInputError(where, "'*' replaces every field and stands alone")
        if path.split(".", 1)[0] in IMMUTABLE:
            raise InvalidInputError(where, f"{owner}.{path} cannot be changed")
        if not FieldMask(paths=[path]).IsValidForDescriptor(patch.DESCRIPTOR):  # type: ignore[arg-type]
            raise InvalidInputError(where, f"{owner} has no field {path[:100]!r}")
    return paths


def _immutable_of(message: Message) -> list[str]:
    return [field.name for field in message.DESCRIPTOR.fields if field.name in IMMUTABLE]


def _assign(message: Message, name: str, value: object) -> None:
    field = message.DESCRIPTOR.fields_by_name[name]
    if field.message_type is not None:
        getattr(message, name).CopyFrom(value)
    else:
        setattr(message, name, value)
