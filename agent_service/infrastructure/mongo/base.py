"""What every agent document shares: a UUID ``_id``, a tenant, UTC millisecond instants."""

from __future__ import annotations

from abc import abstractmethod
from datetime import UTC, datetime
from typing import Any
from uuid import UUID

from beanie import Document
from pymongo import ASCENDING, IndexModel


def stored_instant(value: datetime) -> datetime:
    """``value`` in UTC truncated to whole milliseconds, as BSON keeps it."""
    utc = value.astimezone(UTC)
    return utc.replace(microsecond=utc.microsecond // 1000 * 1000)


def index(*keys: str, name: str, unique: bool = False) -> IndexModel:
    """An ascending compound index on ``keys``."""
    return IndexModel([(key, ASCENDING) for key in keys], name=name, unique=unique)


class ScopedDocument(Document):
    """A document owned by one tenant; ``_id`` is the entity's UUID."""

    id: UUID  # type: ignore[assignment]  # the entity id, not an ObjectId
    tenant_id: UUID

    @abstractmethod
    def to_domain(self) -> Any:
        """The domain entity this document stores (each subclass narrows the type)."""
