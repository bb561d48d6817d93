"""Outbox messages and cursors ↔ protobuf."""

from __future__ import annotations

from agenda.agent.v1 import agent_service_pb2 as pb
from agent_service.domain.errors import InvalidInputError
from agent_service.domain.outbox import OutboxCursor, OutboxKind, OutboxMessage
from agent_service.infrastructure.grpc.catalog_fields import timestamp
from agent_service.infrastructure.mongo.paging import Cursor, decode_token, encode_token

_KIND = {
    OutboxKind.BOOKING_CONFIRMED: pb.OUTBOX_KIND_BOOKING_CONFIRMED,
    OutboxKind.BOOKING_FAILED: pb.OUTBOX_KIND_BOOKING_FAILED,
    OutboxKind.RESCHEDULE_CONFIRMED: pb.OUTBOX_KIND_RESCHEDULE_CONFIRMED,
    OutboxKind.RESCHEDULE_FAILED: pb.OUTBOX_KIND_RESCHEDULE_FAILED,
    OutboxKind.REMINDER: pb.OUTBOX_KIND_REMINDER,
}


def outbox_message(message: OutboxMessage) -> pb.OutboxMessage:
    return pb.OutboxMessage(
        id=str(message.id),
        tenant_id=str(message.tenant_id),
        kind=_KIND[message.kind],
        customer=pb.CustomerIdentity(channel=message.channel, external_id=message.external_id),
        text=message.text,
        appointment_id=str(message.appointment_id or ""),
        conversation_id=str(message.conversation_id or ""),
        deliver_at=timestamp(message.due_at),
        created_at=timestamp(message.written_at),
    )


def cursor_after(message: OutboxMessage) -> str:
    return encode_token(Cursor(message.due_at, message.id))


def parse_cursor(text: str) -> OutboxCursor | None:
    """Empty = from the oldest; anything ``cursor_after`` did not write is INVALID_ARGUMENT."""
    if not text:
        return None
    try:
        cursor = decode_token(text, keyed=True)
    except InvalidInputError:
        raise InvalidInputError("cursor", "is not a cursor this service gave") from None
    assert cursor.key is not None
    return OutboxCursor(cursor.key, cursor.id)
