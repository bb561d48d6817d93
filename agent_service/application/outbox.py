"""Reading the outbox: what gateways stream and acknowledge (at-least-once delivery).

The tenant is always the one the caller names (``tenant_id`` of the request) — which tenants
a gateway may name is the authorization layer's business, applied before this use case. The
channels are the caller's (``caller_channels``): a whatsapp gateway neither receives nor
acknowledges a webchat message, which stays due for the webchat gateway.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from uuid import UUID

from agenda_kit.auth.context import caller_channels
from agent_service.application.repositories import Repositories
from agent_service.domain.errors import InvalidInputError
from agent_service.domain.outbox import OutboxCursor, OutboxMessage

MAX_ACK = 500
MAX_WAIT_SECONDS = 20


class OutboxFeed:
    def __init__(self, repos: Repositories, *, poll_seconds: float = 1.0, batch: int = 100) -> None:
        self._repos = repos
        self._poll_seconds = poll_seconds
        self._batch = batch

    async def stream(
        self, tenant_id: UUID, after: OutboxCursor | None, *, wait_seconds: int = 0
    ) -> AsyncIterator[OutboxMessage]:
        """Due, unacknowledged messages after ``after``, oldest first; then (a long poll) up
        to ``wait_seconds`` after the last message sent for more to fall due."""
        if not 0 <= wait_seconds <= MAX_WAIT_SECONDS:
            raise InvalidInputError("wait_seconds", f"must be between 0 and {MAX_WAIT_SECONDS}")
        await self._repos.tenants.get(tenant_id)  # an unknown tenant is NOT_FOUND
        channels = caller_channels()
        loop = asyncio.get_running_loop()
        cursor = after
        give_up = loop.time() + wait_seconds
        while True:
            batch = await self._repos.outbox.due(tenant_id, cursor, self._batch, channels=channels)
            for message in batch:
                yield message
                cursor = message.cursor
            if batch:
                give_up = loop.time() + wait_seconds
            if len(batch) < self._batch:
                left = give_up - loop.time()
                if left <= 0:
                    return
                await asyncio.sleep(min(self._poll_seconds, left))

    async def ack(self, tenant_id: UUID, message_ids: list[UUID]) -> int:
        if not 0 < len(message_ids) <= MAX_ACK:
            raise InvalidInputError("message_ids", f"give 1..{MAX_ACK} message ids")
        await self._repos.tenants.get(tenant_id)
        return await self._repos.outbox.ack(tenant_id, message_ids, channels=caller_channels())
