"""The demo chat shows a question's quick replies as numbered choices; typing a shown number
sends that tap as the structured decision (the pending id), anything else as text."""

from __future__ import annotations

from typing import Any

import pytest

from agenda.agent.v1 import agent_service_pb2 as pb
from agenda.agent.v1 import types_pb2 as types
from agent_service.cli import chat
from agent_service.cli.chat import Session

PENDING = types.PendingAction(
    id="p-123",
    question="Confirma?",
    quick_replies=[
        types.QuickReply(choice=types.QUICK_REPLY_CHOICE_CONFIRM, label="Sim, confirmar"),
        types.QuickReply(choice=types.QUICK_REPLY_CHOICE_DECLINE, label="Não"),
    ],
)


class Stub:
    def __init__(self) -> None:
        self.sent: list[pb.SendMessageRequest] = []

    async def SendMessage(self, request: pb.SendMessageRequest, **_: Any) -> Any:  # noqa: N802
        self.sent.append(request)
        response = pb.SendMessageResponse(conversation_id="c", reply="ok")
        if len(self.sent) == 1:
            response.pending.CopyFrom(PENDING)
        return response


async def test_numbers_of_shown_choices_are_taps_and_other_text_is_text(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(chat, "agent_metadata", lambda principal: (("authorization", "x"),))
    stub = Stub()
    session = Session(stub, "t", "cli-customer")  # type: ignore[arg-type]
    await session.say("quero um corte")
    assert session.choices() == ["1) Sim, confirmar", "2) Não"]
    await session.say("3")  # no such choice: plain text
    assert stub.sent[-1].WhichOneof("decision") is None and session.choices() == []
    session.pending = PENDING
    await session.say("1")
    assert stub.sent[-1].confirm_pending_id == "p-123"
    assert stub.sent[-1].text == "Sim, confirmar"
    session.pending = PENDING
    await session.say("2")
    assert stub.sent[-1].decline_pending_id == "p-123"
