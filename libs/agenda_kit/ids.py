"""The one spelling of every id a request carries, checked once at the edge.

- UUIDs (tenants, conversations, messages, catalog entities): exactly ``8-4-4-4-12`` ASCII
  hexadecimal digits, any letter case; the canonical form is lowercase. Python's ``UUID()``
  also accepts braces, ``urn:uuid:``, missing or misplaced hyphens, ``_`` between digits and
  non-ASCII decimal digits (``int()`` reads ``"٣"`` as 3): each of those is refused here, so
  two different strings never name the same id in one place and different ids in another.
- Channels: ``^[a-z0-9_-]{1,32}\\Z`` — ``\\Z``, not ``$``, which also matches before a
  trailing newline (``"whatsapp\\n"`` would be a second spelling of ``whatsapp``).
"""

from __future__ import annotations

import re
from uuid import UUID

_UUID = re.compile(
    r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}", re.ASCII
)
_CHANNEL = re.compile(r"[a-z0-9_-]{1,32}", re.ASCII)
CHANNEL_RULE = "lowercase letters, digits, '-', '_' (1..32)"


def parse_uuid(text: str) -> UUID:
    """The UUID ``text`` spells in the one accepted form; ``ValueError`` otherwise."""
    if not _UUID.fullmatch(text):
        raise ValueError("not a UUID")
    return UUID(text)


def canonical_uuid(text: str) -> str:
    """``text`` as the canonical (lowercase, hyphenated) UUID string; ``ValueError``."""
    return str(parse_uuid(text))


def is_channel(text: str) -> bool:
    """Whether ``text`` is a channel name (the exact, whole string)."""
    return _CHANNEL.fullmatch(text) is not None
