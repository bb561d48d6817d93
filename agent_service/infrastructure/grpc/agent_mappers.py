"""AgentService messages ↔ application commands and domain objects."""

from __future__ import annotations

from uuid import UUID

from agenda.agent.v1 import agent_service_pb2 as pb
from agenda.agent.v1 import types_pb2 as types
from agent_service.application.consent_policy import StructuredDecision
from agent_service.application.conversation import IncomingMessage
from agent_service.domain.appointments import Appointment
from agent_service.domain.conversations import (
    ActionKind,
    Conversation,
    ConversationStatus,
    DecisionResult,
    PendingConfirmation,
    ReplyChoice,
    TurnResult,
)
from agent_service.infrastructure.grpc.appointment_mappers import appointment_message
from agent_service.infrastructure.grpc.catalog_fields import parse_uuid, timestamp

_STATUS = {
    ConversationStatus.ACTIVE: types.CONVERSATION_STATUS_ACTIVE,
    ConversationStatus.HANDED_OFF: types.CONVERSATION_STATUS_HANDED_OFF,
    ConversationStatus.ENDED: types.CONVERSATION_STATUS_ENDED,
}
_ACTION = {
    ActionKind.APPOINTMENT_BOOKED: types.ACTION_KIND_APPOINTMENT_BOOKED,
    ActionKind.APPOINTMENT_CANCELLED: types.ACTION_KIND_APPOINTMENT_CANCELLED,
    ActionKind.APPOINTMENT_RESCHEDULED: types.ACTION_KIND_APPOINTMENT_RESCHEDULED,
    ActionKind.HANDED_OFF: types.ACTION_KIND_HANDED_OFF,
    ActionKind.APPOINTMENT_PENDING: types.ACTION_KIND_APPOINTMENT_PENDING,
    ActionKind.CHANGE_DECLINED: types.ACTION_KIND_CHANGE_DECLINED,
    ActionKind.CHANGE_FAILED: types.ACTION_KIND_CHANGE_FAILED,
}
_DECISION = {
    DecisionResult.NONE: types.DECISION_RESULT_UNSPECIFIED,
    DecisionResult.CONFIRMED: types.DECISION_RESULT_CONFIRMED,
    DecisionResult.DECLINED: types.DECISION_RESULT_DECLINED,
    DecisionResult.EXPIRED: types.DECISION_RESULT_EXPIRED,
    DecisionResult.NOT_PENDING: types.DECISION_RESULT_NOT_PENDING,
    DecisionResult.ALREADY_DONE: types.DECISION_RESULT_ALREADY_DONE,
}
_CHOICE = {
    ReplyChoice.CONFIRM: types.QUICK_REPLY_CHOICE_CONFIRM,
    ReplyChoice.DECLINE: types.QUICK_REPLY_CHOICE_DECLINE,
}


def to_incoming(request: pb.SendMessageRequest) -> IncomingMessage:
    customer = request.customer
    conversation_id = (
        parse_uuid("conversation_id", request.conversation_id) if request.conversation_id else None
    )
    return IncomingMessage(
        tenant_id=parse_uuid("tenant_id", request.tenant_id),
        channel=customer.channel,
        external_id=customer.external_id,
        display_name=customer.display_name,
        conversation_id=conversation_id,
        message_id=request.message_id,
        text=request.text,
        decision=decision_of(request),
    )


def decision_of(request: pb.SendMessageRequest) -> StructuredDecision | None:
    """The tapped quick reply the request carries (the ``decision`` oneof), if any."""
    which = request.WhichOneof("decision")
    if which == "confirm_pending_id":
        return StructuredDecision(ReplyChoice.CONFIRM, request.confirm_pending_id)
    if which == "decline_pending_id":
        return StructuredDecision(ReplyChoice.DECLINE, request.decline_pending_id)
    return None


def conversation_ids(tenant_id: str, conversation_id: str) -> tuple[UUID, UUID]:
    return parse_uuid("tenant_id", tenant_id), parse_uuid("conversation_id", conversation_id)


def turn_response(
    result: TurnResult, appointments: dict[UUID, Appointment], *, duplicate: bool
) -> pb.SendMessageResponse:
    actions = []
    for action in result.actions:
        message = types.Action(kind=_ACTION[action.kind], detail=action.detail)
        if action.appointment_id is not None and action.appointment_id in appointments:
            message.appointment.CopyFrom(appointment_message(appointments[action.appointment_id]))
        actions.append(message)
    response = pb.SendMessageResponse(
        conversation_id=str(result.conversation_id),
        reply=result.reply,
        actions=actions,
        trace_id=result.trace_id,
        specialist=result.specialist,
        duplicate=duplicate,
        status=_STATUS[result.status],
        decision=_DECISION[result.decision],
        language=result.language,
        covered_by_message_id=result.covered_by,
        answered_message_ids=list(result.answers),
    )
    if result.pending is not None:
        response.pending.CopyFrom(pending_message(result.pending))
    response.citations.extend(
        pb.Citation(faq_id=str(c.faq_id), question=c.question) for c in result.citations
    )
    return response


def pending_message(pending: PendingConfirmation) -> types.PendingAction:
    """The change waiting for the customer's yes, for gateways to render buttons."""
    message = types.PendingAction(
        kind=_ACTION[pending.kind],
        question=pending.question,
        service_name=pending.service_name,
        professional_name=pending.professional_name,
        price=pending.price,
        appointment_id=str(pending.appointment_id or ""),
        id=pending.id,
        quick_replies=[
            types.QuickReply(choice=_CHOICE[reply.choice], label=reply.label)
            for reply in pending.quick_replies
        ],
    )
    for name in ("start", "new_start", "expires_at"):
        value = getattr(pending, name)
        if value is not None:
            getattr(message, name).CopyFrom(timestamp(value))
    return message


def conversation_message(conversation: Conversation, limit: int = 100) -> types.Conversation:
    messages = [
        types.ConversationMessage(
            role=m.role.value,
            text=m.text,
            at=timestamp(m.at),
            message_id=m.message_id,
            specialist=m.specialist,
        )
        for m in conversation.messages[-limit:]
    ]
    return types.Conversation(
        id=str(conversation.id),
        tenant_id=str(conversation.tenant_id),
        customer_id=str(conversation.customer_id),
        channel=conversation.channel,
        status=_STATUS[conversation.status],
        active_specialist=conversation.active_specialist,
        messages=messages,
        summary=conversation.summary,
        created_at=timestamp(conversation.created_at),
        updated_at=timestamp(conversation.updated_at),
        handoff_reason=conversation.handoff_reason,
    )
