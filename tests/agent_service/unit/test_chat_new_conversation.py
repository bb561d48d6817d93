"""``make run``'s chat: ``--new`` starts a fresh conversation for the SAME customer (it ends
the one the terminal last used); scripted and piped runs are a fresh customer each time."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any, cast

import pytest

from agenda.agent.v1 import agent_service_pb2 as pb
from agent_service.cli import chat
from agent_service.cli.chat import Session, _customer, remember, remembered


@pytest.fixture(autouse=True)
def _no_tokens(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(chat, "agent_metadata", lambda principal: (("authorization", "x"),))


class FakeStub:
    """Records what the chat asks of the agent service."""

    def __init__(self) -> None:
        self.ended: list[str] = []
        self.sent: list[pb.SendMessageRequest] = []

    async def SendMessage(self, request: pb.SendMessageRequest, **_: Any) -> Any:  # noqa: N802
        self.sent.append(request)
        return pb.SendMessageResponse(conversation_id=request.conversation_id or "c-1", reply="ok")

    async def EndConversation(  # noqa: N802
        self, request: pb.EndConversationRequest, **_: Any
    ) -> pb.EndConversationResponse:
        self.ended.append(request.conversation_id)
        return pb.EndConversationResponse()


def test_new_keeps_the_customer_and_scripts_get_a_fresh_one() -> None:
    args = argparse.Namespace(customer="maria", new=True)
    assert _customer(args, fresh=False) == "maria"
    first, second = _customer(args, fresh=True), _customer(args, fresh=True)
    assert first.startswith("maria-") and second.startswith("maria-") and first != second


async def test_new_ends_the_customers_last_conversation(tmp_path: Path) -> None:
    memory = tmp_path / "chat_conversations.json"
    stub = FakeStub()
    talk = Session(cast(Any, stub), "tenant-1", "maria", memory)
    await talk.say("oi")
    assert remembered(memory) == {"tenant-1/maria": "c-1"}
    again = Session(cast(Any, stub), "tenant-1", "maria", memory)
    await again.start_fresh()
    assert stub.ended == ["c-1"]
    await again.say("oi de novo")
    assert stub.sent[-1].customer.external_id == "maria"  # the same customer
    assert stub.sent[-1].conversation_id == ""  # the service opens a new conversation


async def test_new_with_nothing_remembered_ends_nothing(tmp_path: Path) -> None:
    stub = FakeStub()
    remember(tmp_path / "m.json", "tenant-1", "joao", "c-9")
    await Session(cast(Any, stub), "tenant-1", "maria", tmp_path / "m.json").start_fresh()
    await Session(cast(Any, stub), "tenant-1", "maria", None).start_fresh()
    (tmp_path / "bad.json").write_text("not json")
    await Session(cast(Any, stub), "tenant-1", "maria", tmp_path / "bad.json").start_fresh()
    assert stub.ended == []
