"""``BeaniePendingExecutionRepository``: claims and outcomes of confirmed pending actions
(application/pending_executions.py), one document per (tenant, key) under a unique index, so
two replicas never both run one confirmation; leases on the database clock."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any
from uuid import UUID

from beanie import Document
from pymongo.asynchronous.collection import AsyncCollection
from pymongo.errors import DuplicateKeyError

from agent_service.domain.conversations import TurnAction
from agent_service.infrastructure.mongo.base import index
from agent_service.infrastructure.mongo.clock import DatabaseClock
from agent_service.infrastructure.mongo.errors import guarded


class PendingExecutionDocument(Document):
    """A claimed execution; ``actions`` is set once it ran (its outcome)."""

    tenant_id: UUID
    key: str
    lease_until: datetime
    actions: list[dict[str, Any]] | None = None

    class Settings:
        name = "pending_executions"
        indexes = [  # noqa: RUF012
            index("tenant_id", "key", name="one_execution_per_key", unique=True),
        ]


class BeaniePendingExecutionRepository:
    def __init__(self, clock: DatabaseClock) -> None:
        self._clock = clock

    def _claims(self) -> AsyncCollection[dict[str, Any]]:
        collection: AsyncCollection[dict[str, Any]] = (
            PendingExecutionDocument.get_pymongo_collection()
        )
        return collection

    @guarded
    async def claim(self, tenant_id: UUID, key: str, lease: timedelta) -> bool:
        now = await self._clock.now()
        marker = {"tenant_id": tenant_id, "key": key}
        try:
            await self._claims().insert_one(marker | {"lease_until": now + lease, "actions": None})
            return True
        except DuplicateKeyError:
            expired = {"actions": None, "lease_until": {"$lt": now}}
            taken = await self._claims().find_one_and_update(
                marker | expired, {"$set": {"lease_until": now + lease}}
            )
            return taken is not None

    @guarded
    async def complete(self, tenant_id: UUID, key: str, actions: tuple[TurnAction, ...]) -> None:
        await self._claims().update_one(
            {"tenant_id": tenant_id, "key": key},
            {"$set": {"actions": [a.model_dump(mode="json") for a in actions]}},
        )

    @guarded
    async def outcome(self, tenant_id: UUID, key: str) -> tuple[TurnAction, ...] | None:
        found = await self._claims().find_one({"tenant_id": tenant_id, "key": key})
        if found is None or found.get("actions") is None:
            return None
        return tuple(TurnAction.model_validate(a) for a in found["actions"])

    @guarded
    async def release(self, tenant_id: UUID, key: str) -> None:
        await self._claims().delete_one({"tenant_id": tenant_id, "key": key, "actions": None})
