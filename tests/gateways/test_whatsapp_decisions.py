"""A pending action's quick replies as WhatsApp buttons and a tap back as the structured
decision, against the consent issue's fields (PendingAction.id = 10, quick_replies = 11;
SendMessageRequest.confirm_pending_id = 6 / decline_pending_id = 7, a oneof ``decision``).

Those fields live in the consent branch's proto; the gateway reads and sets them by name, so
these tests run it over a mirror of exactly those fields (built here with the protobuf
runtime) and over this branch's real messages (with or without them)."""

from __future__ import annotations

from typing import Any, cast

from google.protobuf import descriptor_pb2, descriptor_pool, message_factory
from google.protobuf.message import Message
from hypothesis import given, settings
from hypothesis import strategies as st

from agenda.agent.v1 import agent_service_pb2 as pb
from gateways.whatsapp.inbound import Inbound, messages_of
from gateways.whatsapp.relay import Relay
from gateways.whatsapp.replies import (
    Decision,
    PendingChoice,
    QuickReply,
    button_id,
    outgoing,
    pending_choice,
    with_decision,
)
from tests.fakes.graph_api import check_message

PHONE = "106540352242922"
MARIA = "5511999990000"
_FIELD = descriptor_pb2.FieldDescriptorProto
_STRING, _MESSAGE, _ENUM = _FIELD.TYPE_STRING, _FIELD.TYPE_MESSAGE, _FIELD.TYPE_ENUM
_PACKAGE = "mirror.consent"


def _mirror() -> dict[str, type[Message]]:
    """The consent issue's messages (names, numbers and types as in its proto)."""
    file = descriptor_pb2.FileDescriptorProto(
        name="mirror/consent.proto", package=_PACKAGE, syntax="proto3"
    )
    choice = file.enum_type.add(name="QuickReplyChoice")
    for number, name in enumerate(("UNSPECIFIED", "CONFIRM", "DECLINE")):
        choice.value.add(name=f"QUICK_REPLY_CHOICE_{name}", number=number)

    def message(name: str, *fields: tuple[str, int, int, str, bool]) -> Any:
        built = file.message_type.add(name=name)
        for field_name, number, kind, type_name, repeated in fields:
            field = built.field.add(
                name=field_name,
                number=number,
                type=kind,
                label=_FIELD.LABEL_REPEATED if repeated else _FIELD.LABEL_OPTIONAL,
            )
            if type_name:
                field.type_name = type_name
        return built

    message(
        "QuickReply",
        ("choice", 1, _ENUM, f".{_PACKAGE}.QuickReplyChoice", False),
        ("label", 2, _STRING, "", False),
    )
    message(
        "PendingAction",
        ("question", 2, _STRING, "", False),
        ("id", 10, _STRING, "", False),
        ("quick_replies", 11, _MESSAGE, f".{_PACKAGE}.QuickReply", True),
    )
    message(
        "SendMessageResponse",
        ("reply", 2, _STRING, "", False),
        ("pending", 8, _MESSAGE, f".{_PACKAGE}.PendingAction", False),
        ("covered_by_message_id", 20, _STRING, "", False),
    )
    request = message(
        "SendMessageRequest",
        ("message_id", 4, _STRING, "", False),
        ("text", 5, _STRING, "", False),
        ("confirm_pending_id", 6, _STRING, "", False),
        ("decline_pending_id", 7, _STRING, "", False),
    )
    request.oneof_decl.add(name="decision")
    for field in request.field:
        if field.name.endswith("_pending_id"):
            field.oneof_index = 0
    pool = descriptor_pool.DescriptorPool()
    pool.Add(file)
    return {
        name: message_factory.GetMessageClass(pool.FindMessageTypeByName(f"{_PACKAGE}.{name}"))
        for name in ("QuickReply", "PendingAction", "SendMessageResponse", "SendMessageRequest")
    }


MIRROR = _mirror()
CONFIRM, DECLINE = 1, 2


def proposal(pending_id: str, question: str = "Confirma o corte com Ana às 16:00?") -> Message:
    replies = [
        MIRROR["QuickReply"](choice=CONFIRM, label="Sim, confirmar"),
        MIRROR["QuickReply"](choice=DECLINE, label="Não"),
    ]
    pending = MIRROR["PendingAction"](question=question, id=pending_id, quick_replies=replies)
    return MIRROR["SendMessageResponse"](
        reply=f"Corte feminino, R$ 80,00. {question}", pending=pending
    )


def tap(wamid: str, button: dict[str, Any]) -> dict[str, Any]:
    """Meta's webhook delivery of a tap on ``button`` (a reply button we sent)."""
    reply = {"id": button["reply"]["id"], "title": button["reply"]["title"]}
    message = {
        "from": MARIA,
        "id": wamid,
        "timestamp": "1796164633",
        "type": "interactive",
        "interactive": {"type": "button_reply", "button_reply": reply},
        "context": {"from": "5511000000000", "id": "wamid.OUT"},
    }
    value = {"metadata": {"phone_number_id": PHONE}, "messages": [message]}
    return {"entry": [{"changes": [{"field": "messages", "value": value}]}]}


@settings(max_examples=40, deadline=None)
@given(
    pending_id=st.text(
        st.characters(min_codepoint=33, max_codepoint=126), min_size=1, max_size=241
    ),
    pressed=st.sampled_from([0, 1]),
)
def test_a_tapped_button_comes_back_as_the_decision_on_its_pending_id(
    pending_id: str, pressed: int
) -> None:
    sent = outgoing(cast(pb.SendMessageResponse, proposal(pending_id)), MARIA, "wamid.IN")
    assert sent is not None and sent["type"] == "interactive"
    check_message(sent)  # Meta accepts it
    buttons = sent["interactive"]["action"]["buttons"]
    assert [b["reply"]["title"] for b in buttons] == ["Sim, confirmar", "Não"]
    (inbound,) = messages_of(tap("wamid.TAP", buttons[pressed]), PHONE)
    request = MIRROR["SendMessageRequest"](message_id=inbound.wamid, text=inbound.text)
    assert with_decision(request, inbound.button_id)
    field = ("confirm_pending_id", "decline_pending_id")[pressed]
    assert request.WhichOneof("decision") == field
    assert getattr(request, field) == pending_id
    assert getattr(request, "text") == buttons[pressed]["reply"]["title"]  # noqa: B009 - the transcript line


def test_a_pending_id_too_long_for_a_button_goes_as_text() -> None:
    sent = outgoing(cast(pb.SendMessageResponse, proposal("p" * 242)), MARIA, "wamid.IN")
    assert sent is not None and sent["type"] == "text"
    assert sent["text"]["body"].endswith("Confirma o corte com Ana às 16:00?")


def test_no_pending_id_or_no_quick_replies_is_no_buttons() -> None:
    assert pending_choice(proposal("")) is None
    assert pending_choice(MIRROR["SendMessageResponse"](reply="Olá!")) is None
    bare = MIRROR["SendMessageResponse"](
        reply="Confirma?", pending=MIRROR["PendingAction"](id="p1")
    )
    assert pending_choice(bare) == PendingChoice("p1", ())
    sent = outgoing(cast(pb.SendMessageResponse, bare), MARIA, "w1")
    assert sent is not None and sent["type"] == "text"
    odd = MIRROR["PendingAction"](id="p1", quick_replies=[MIRROR["QuickReply"](label="Talvez")])
    assert pending_choice(MIRROR["SendMessageResponse"](pending=odd)) == PendingChoice("p1", ())


def test_a_tap_that_is_not_ours_sets_no_decision() -> None:
    for tapped in ("", "Sim", "agenda:maybe:p1", "template-payload-7"):
        request = MIRROR["SendMessageRequest"](message_id="w1", text="Sim")
        assert not with_decision(request, tapped)
        assert request.WhichOneof("decision") is None


def test_the_agents_own_request_carries_the_decision_when_its_proto_has_it() -> None:
    """On this branch's generated code with or without the consent fields: the title is the
    text; the decision is set exactly when SendMessageRequest has the field."""
    gateway = Relay(None, None, tenant_id="t", timeout=5, retry_budget=5)  # type: ignore[arg-type]
    tapped = Inbound(
        wamid="wamid.TAP",
        sender=MARIA,
        text="Sim, confirmar",
        button_id=button_id(Decision("confirm", "p-7f3a")),
    )
    request = gateway.request_for(tapped)
    assert request.text == "Sim, confirmar" and request.message_id == "wamid.TAP"
    if "confirm_pending_id" in pb.SendMessageRequest.DESCRIPTOR.fields_by_name:
        assert getattr(request, "confirm_pending_id") == "p-7f3a"  # noqa: B009
    else:
        assert not any(name.endswith("_pending_id") for name in _set_fields(request))
    typed = gateway.request_for(Inbound(wamid="wamid.T", sender=MARIA, text="sim"))
    assert not any(name.endswith("_pending_id") for name in _set_fields(typed))


def _set_fields(message: Message) -> list[str]:
    return [field.name for field, _ in message.ListFields()]


def test_quick_reply_choices_are_read_by_their_names() -> None:
    choice = PendingChoice(
        "p-1", (QuickReply("confirm", "Sim, confirmar"), QuickReply("decline", "Não"))
    )
    assert pending_choice(proposal("p-1")) == choice
