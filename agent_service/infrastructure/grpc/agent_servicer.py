"""``agenda.agent.v1.AgentService``: what channel gateways call."""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator
from uuid import UUID

from agenda.agent.v1 import agent_service_pb2 as pb
from agenda.agent.v1 import agent_service_pb2_grpc as pb_grpc
from agenda_kit.grpc.handlers import Context
from agent_service.application.conversation import HandledMessage, HandleMessage
from agent_service.application.engine import ProgressEvent
from agent_service.application.handoff import ConversationControl
from agent_service.application.outbox import OutboxFeed
from agent_service.application.turn_appointments import GetTurnAppointments
from agent_service.domain.errors import InvalidInputError
from agent_service.infrastructure.grpc import agent_mappers as mappers
from agent_service.infrastructure.grpc import outbox_mappers
from agent_service.infrastructure.grpc.catalog_fields import parse_uuid

_CHUNK = re.compile(r"\s*\S+\s*")


class AgentServicer(pb_grpc.AgentServiceServicer):
    """Thin: request → use case → response; errors go through the agent error table."""

    def __init__(
        self,
        handle: HandleMessage,
        control: ConversationControl,
        appointments: GetTurnAppointments,
        outbox: OutboxFeed,
    ) -> None:
        self._handle = handle
        self._control = control
        self._appointments = appointments
        self._outbox = outbox
        self._unfinished: set[asyncio.Task[HandledMessage]] = set()

    async def SendMessage(
        self, request: pb.SendMessageRequest, context: Context
    ) -> pb.SendMessageResponse:
        incoming = mappers.to_incoming(request)
        handled = await self._handle.execute(incoming)
        return await self._response(handled, incoming.tenant_id)

    async def StreamMessage(
        self, request: pb.StreamMessageRequest, context: Context
    ) -> AsyncIterator[pb.StreamMessageResponse]:
        """Progress and the model's checked text while the turn runs (streaming.py), then
        the rest of the final reply, then the final response: the text deltas of a stream
        always add up to ``final.reply`` (the reply begins with what was streamed)."""
        incoming = mappers.to_incoming(request.message)
        queue: asyncio.Queue[ProgressEvent] = asyncio.Queue()
        turn = asyncio.create_task(self._handle.execute(incoming, queue.put))
        streamed = ""
        try:
            while not turn.done() or not queue.empty():
                getter = asyncio.ensure_future(queue.get())
                await asyncio.wait({getter, turn}, return_when=asyncio.FIRST_COMPLETED)
                if not getter.done():
                    getter.cancel()
                elif event := getter.result():
                    if event.text:
                        streamed += event.text
                        yield pb.StreamMessageResponse(text_delta=event.text)
                    else:
                        yield pb.StreamMessageResponse(progress=event.progress)
            handled = turn.result()
        finally:
            if not turn.done():  # the caller went away: finish the turn so its reply is stored
                self._unfinished.add(turn)
                turn.add_done_callback(self._unfinished.discard)
        reply = handled.result.reply
        rest = reply[len(streamed) :] if reply.startswith(streamed) else ""
        for chunk in _CHUNK.findall(rest):
            yield pb.StreamMessageResponse(text_delta=chunk)
        yield pb.StreamMessageResponse(final=await self._response(handled, incoming.tenant_id))

    async def GetConversation(
        self, request: pb.GetConversationRequest, context: Context
    ) -> pb.GetConversationResponse:
        if not 0 <= request.message_limit <= 1000:
            raise InvalidInputError("message_limit", "must be between 0 and 1000")
        conversation = await self._control.get(
            *mappers.conversation_ids(request.tenant_id, request.conversation_id)
        )
        return pb.GetConversationResponse(
            conversation=mappers.conversation_message(conversation, request.message_limit or 100)
        )

    async def HandOff(self, request: pb.HandOffRequest, context: Context) -> pb.HandOffResponse:
        ids = mappers.conversation_ids(request.tenant_id, request.conversation_id)
        conversation = await self._control.hand_off(*ids, request.reason or "operator")
        return pb.HandOffResponse(conversation=mappers.conversation_message(conversation))

    async def HandBack(self, request: pb.HandBackRequest, context: Context) -> pb.HandBackResponse:
        ids = mappers.conversation_ids(request.tenant_id, request.conversation_id)
        conversation = await self._control.hand_back(*ids, request.note)
        return pb.HandBackResponse(conversation=mappers.conversation_message(conversation))

    async def EndConversation(
        self, request: pb.EndConversationRequest, context: Context
    ) -> pb.EndConversationResponse:
        ids = mappers.conversation_ids(request.tenant_id, request.conversation_id)
        conversation = await self._control.end(*ids)
        return pb.EndConversationResponse(conversation=mappers.conversation_message(conversation))

    async def _response(self, handled: HandledMessage, tenant_id: UUID) -> pb.SendMessageResponse:
        appointments = await self._appointments.execute(tenant_id, handled.result)
        return mappers.turn_response(handled.result, appointments, duplicate=handled.duplicate)

    async def StreamOutbox(
        self, request: pb.StreamOutboxRequest, context: Context
    ) -> AsyncIterator[pb.StreamOutboxResponse]:
        # The tenant is the one the request names; which tenants a gateway may name is
        # checked by the authorization layer before this method runs.
        tenant_id = parse_uuid("tenant_id", request.tenant_id)
        after = outbox_mappers.parse_cursor(request.cursor)
        stream = self._outbox.stream(tenant_id, after, wait_seconds=request.wait_seconds)
        async for message in stream:
            yield pb.StreamOutboxResponse(
                message=outbox_mappers.outbox_message(message),
                cursor=outbox_mappers.cursor_after(message),
            )

    async def AckOutbox(
        self, request: pb.AckOutboxRequest, context: Context
    ) -> pb.AckOutboxResponse:
        tenant_id = parse_uuid("tenant_id", request.tenant_id)
        ids = [parse_uuid("message_ids", text) for text in request.message_ids]
        return pb.AckOutboxResponse(acknowledged=await self._outbox.ack(tenant_id, ids))
