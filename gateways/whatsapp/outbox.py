"""The tenant's outbox to WhatsApp: proactive messages (a booking settled after its turn, a
reminder) streamed from the agent, sent, then acknowledged.

Rules (docs/gateways.md#outbox): delivery is at least once, so a message is acknowledged
only after Meta accepted it; one Meta refused (e.g. 131047, the customer's 24-hour window
closed: a production gateway sends an approved template instead) is left unacknowledged and
comes again (the stream starts again from the oldest unacknowledged message after
``WHATSAPP_OUTBOX_RETRY_SECONDS``); messages of other channels are left to their gateways; the
stream is a long poll re-opened from the last cursor, so messages are sent as they fall due.
"""

from __future__ import annotations

import asyncio

import grpc
import structlog

from agenda.agent.v1 import agent_service_pb2 as pb
from agenda.agent.v1 import agent_service_pb2_grpc as pb_grpc
from gateways.whatsapp.graph import GraphClient, GraphError, text_message
from gateways.whatsapp.relay import CHANNEL

log = structlog.get_logger("agenda.gateway.whatsapp")
REOPEN_AFTER_ERROR_SECONDS = 2.0


class OutboxRelay:
    """Streams, sends and acknowledges the tenant's outbox."""

    def __init__(
        self,
        agent: pb_grpc.AgentServiceAsyncStub,
        graph: GraphClient,
        *,
        tenant_id: str,
        wait_seconds: int,
        retry_seconds: float,
    ) -> None:
        self._agent = agent
        self._graph = graph
        self._tenant_id = tenant_id
        self._wait = wait_seconds
        self._retry = retry_seconds
        self._cursor = ""
        self._unsent = False

    async def run(self) -> None:
        """Deliver for ever (cancel to stop)."""
        while True:
            try:
                await self.deliver(self._wait)
            except grpc.aio.AioRpcError as error:
                log.warning("outbox_stream_failed", code=error.code().name)
                await asyncio.sleep(REOPEN_AFTER_ERROR_SECONDS)
            if self._unsent:
                await asyncio.sleep(self._retry)
                self._cursor, self._unsent = "", False

    async def deliver(self, wait_seconds: int = 0) -> int:
        """One stream: send and acknowledge what is due; how many were delivered."""
        request = pb.StreamOutboxRequest(
            tenant_id=self._tenant_id, cursor=self._cursor, wait_seconds=wait_seconds
        )
        delivered = 0
        async for item in self._agent.StreamOutbox(request, timeout=wait_seconds + 30):
            message = item.message
            if message.customer.channel == CHANNEL and await self._sent(message):
                await self._agent.AckOutbox(
                    pb.AckOutboxRequest(tenant_id=self._tenant_id, message_ids=[message.id]),
                    timeout=10,
                )
                delivered += 1
            self._cursor = item.cursor
        return delivered

    async def _sent(self, message: pb.OutboxMessage) -> bool:
        try:
            await self._graph.send(text_message(message.customer.external_id, message.text))
        except GraphError as error:
            log.warning(
                "outbox_message_not_sent",
                outbox_id=message.id,
                status=error.status,
                code=error.code,
            )
            self._unsent = True
            return False
        return True
