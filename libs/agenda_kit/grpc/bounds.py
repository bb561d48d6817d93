"""Length bounds on every string and list of a request, from its descriptor.

Rules (``RequestBounds.check``, run at the edge after authentication and before anything
reads the request): every string (and bytes) field of the request and of every message in it
is at most its bound in characters and contains no NUL; every repeated field and map has at
most its bound of items. A field without an explicit bound has the default one, so a field
added to a contract is bounded from its first day. The first violation is INVALID_ARGUMENT
naming the field (``message.customer.channel``; list items by the list's path).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.message import Message

from agenda_kit.errors import RequestValidationError

DEFAULT_STRING_CHARS = 256
DEFAULT_LIST_ITEMS = 100


@dataclass(frozen=True, slots=True)
class RequestBounds:
    """``strings``/``lists``: a field's full name (``pkg.Message.field``) → its bound."""

    strings: Mapping[str, int] = field(default_factory=dict)
    lists: Mapping[str, int] = field(default_factory=dict)
    default_string: int = DEFAULT_STRING_CHARS
    default_list: int = DEFAULT_LIST_ITEMS

    def string_bound(self, descriptor: FieldDescriptor) -> int:
        return self.strings.get(descriptor.full_name, self.default_string)

    def list_bound(self, descriptor: FieldDescriptor) -> int:
        return self.lists.get(descriptor.full_name, self.default_list)

    def check(self, message: Message, prefix: str = "") -> None:
        """``RequestValidationError`` for the first field over its bound (see the rules)."""
        for descriptor, value in message.ListFields():
            path = f"{prefix}{descriptor.name}"
            if not descriptor.is_repeated:
                self._check_value(descriptor, value, path)
                continue
            if len(value) > self.list_bound(descriptor):
                raise RequestValidationError(path, f"at most {self.list_bound(descriptor)} items")
            entry = descriptor.message_type
            if entry is not None and entry.GetOptions().map_entry:
                key_field, value_field = entry.fields_by_name["key"], entry.fields_by_name["value"]
                for key, item in value.items():
                    self._check_value(key_field, key, path)
                    self._check_value(value_field, item, path)
            else:
                for item in value:
                    self._check_value(descriptor, item, path)

    def _check_value(self, descriptor: FieldDescriptor, value: Any, path: str) -> None:
        if descriptor.type in (FieldDescriptor.TYPE_STRING, FieldDescriptor.TYPE_BYTES):
            bound = self.string_bound(descriptor)
            if len(value) > bound:
                raise RequestValidationError(path, f"at most {bound} characters")
            if (b"\x00" if isinstance(value, bytes) else "\x00") in value:
                raise RequestValidationError(path, "must not contain NUL characters")
        elif descriptor.type == FieldDescriptor.TYPE_MESSAGE:
            self.check(value, f"{path}.")
