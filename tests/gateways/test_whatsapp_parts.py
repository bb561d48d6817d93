"""The reference gateway's rules one by one, with no server: the signature, Meta's webhook
shape, what is sent for an answer (and what a button stands for), retries of the agent's
retryable answers with the SAME message id, and a customer's order."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import grpc
import pytest
import structlog
from aiohttp import web
from google.protobuf import any_pb2, duration_pb2
from google.rpc import error_details_pb2, status_pb2
from grpc_status import rpc_status
from hypothesis import given, settings
from hypothesis import strategies as st

from agenda.agent.v1 import agent_service_pb2 as pb
from gateways.whatsapp.access_log import AccessLogger
from gateways.whatsapp.graph import MAX_TITLE, Button, buttons_message, fits, text_message
from gateways.whatsapp.inbound import Inbound, messages_of
from gateways.whatsapp.relay import Relay
from gateways.whatsapp.replies import (
    Decision,
    PendingChoice,
    QuickReply,
    button_id,
    buttons_for,
    decision_of,
    outgoing,
)
from gateways.whatsapp.signature import is_signed, signature_of
from tests.fakes.graph_api import RefusedError, check_message

PHONE = "106540352242922"


@settings(max_examples=50, deadline=None)
@given(
    body=st.binary(max_size=300), secret=st.text(min_size=1, max_size=40), flip=st.integers(0, 299)
)
def test_a_signature_holds_for_exactly_its_body_and_secret(
    body: bytes, secret: str, flip: int
) -> None:
    header = signature_of(body, secret)
    assert is_signed(body, header, secret)
    assert not is_signed(body, header, secret + "x")
    assert not is_signed(body, None, secret) and not is_signed(body, header[7:], secret)
    if body:
        changed = bytearray(body)
        changed[flip % len(body)] ^= 1
        assert not is_signed(bytes(changed), header, secret)


def webhook(messages: list[Any], phone: str = PHONE) -> dict[str, Any]:
    value = {
        "metadata": {"phone_number_id": phone},
        "contacts": [{"profile": {"name": "Maria"}, "wa_id": "5511"}],
        "messages": messages,
    }
    return {"entry": [{"changes": [{"field": "messages", "value": value}]}]}


def test_the_webhook_gives_texts_and_taps_and_skips_the_rest() -> None:
    tap = {
        "from": "5511",
        "id": "w2",
        "type": "interactive",
        "interactive": {
            "type": "button_reply",
            "button_reply": {"id": "agenda:confirm:p1", "title": "Sim"},
        },
        "context": {"id": "w-out"},
    }
    quick = {"from": "5511", "id": "w3", "type": "button", "button": {"payload": "p", "text": "Ok"}}
    payload = webhook(
        [
            {"from": "5511", "id": "w1", "type": "text", "text": {"body": "Oi"}},
            tap,
            quick,
            {"from": "5511", "id": "w4", "type": "image", "image": {"id": "media"}},
            {"from": "5511", "id": "w5", "type": "text", "text": {"body": "   "}},
            "not a message",
            {"id": "w6", "type": "text", "text": {"body": "no sender"}},
        ]
    )
    assert list(messages_of(payload, PHONE)) == [
        Inbound(wamid="w1", sender="5511", name="Maria", text="Oi"),
        Inbound(wamid="w2", sender="5511", name="Maria", text="Sim", button_id="agenda:confirm:p1"),
        Inbound(wamid="w3", sender="5511", name="Maria", text="Ok", button_id="p"),
    ]
    assert list(messages_of(payload, "another-number")) == []
    junks: list[Any] = [None, [], {"entry": "x"}, {"entry": [{"changes": [{"value": 3}]}]}]
    for junk in junks:
        assert list(messages_of(junk, PHONE)) == []


@settings(max_examples=50, deadline=None)
@given(
    choice=st.sampled_from(["confirm", "decline"]),
    pending=st.text(st.characters(min_codepoint=33, max_codepoint=126), min_size=1, max_size=200),
)
def test_a_button_stands_for_exactly_its_decision(choice: str, pending: str) -> None:
    decision = Decision(choice, pending)
    assert decision_of(button_id(decision)) == decision


@pytest.mark.parametrize(
    "tapped", ["", "Sim", "agenda:maybe:p1", "agenda:confirm:", "confirm:p1", "agenda:confirm:a b"]
)
def test_anything_else_tapped_is_no_decision(tapped: str) -> None:
    assert decision_of(tapped) is None


def test_quick_replies_become_buttons_meta_accepts() -> None:
    pending = PendingChoice(
        "p-7f3a", (QuickReply("confirm", "Sim, confirmar"), QuickReply("decline", "Não"))
    )
    buttons = buttons_for(pending)
    assert [decision_of(b.id) for b in buttons] == [
        Decision("confirm", "p-7f3a"),
        Decision("decline", "p-7f3a"),
    ]
    question = "Confirma o agendamento de Corte feminino com Ana?"
    assert fits(question, buttons)
    check_message(buttons_message("5511999990000", question, buttons, reply_to="w1"))
    too_long = [Button("agenda:confirm:p", "x" * (MAX_TITLE + 1))]
    assert not fits(question, too_long)
    with pytest.raises(RefusedError):
        check_message(buttons_message("5511999990000", question, too_long))
    assert not fits(question, [Button("a", "Sim"), Button("b", "Sim")])  # titles unique


def test_one_whatsapp_message_per_burst_and_none_while_a_human_answers() -> None:
    answer = pb.SendMessageResponse(reply="Qual serviço?", answered_message_ids=["w1", "w2"])
    sent = outgoing(answer, "5511999990000", "w2")
    assert sent == text_message("5511999990000", "Qual serviço?", "w2")
    check_message(sent)
    assert outgoing(pb.SendMessageResponse(covered_by_message_id="w2"), "5511", "w1") is None
    assert outgoing(pb.SendMessageResponse(reply=""), "5511", "w1") is None


def failure(code: grpc.StatusCode, delay_ms: int = 0, reason: str = "") -> grpc.aio.AioRpcError:
    """An RPC failure as the agent sends it (google.rpc details in the trailer)."""
    status = status_pb2.Status(code=code.value[0], message=reason or code.name)
    holder = any_pb2.Any()
    holder.Pack(error_details_pb2.ErrorInfo(reason=reason or code.name, domain="agent.agenda"))
    status.details.append(holder)
    if delay_ms:
        retry = any_pb2.Any()
        retry.Pack(
            error_details_pb2.RetryInfo(
                retry_delay=duration_pb2.Duration(
                    seconds=delay_ms // 1000, nanos=delay_ms % 1000 * 10**6
                )
            )
        )
        status.details.append(retry)
    converted = rpc_status.to_status(status)
    return grpc.aio.AioRpcError(
        code, grpc.aio.Metadata(), grpc.aio.Metadata(*converted.trailing_metadata), status.message
    )


class ScriptedAgent:
    """StreamMessage answering from a script of outcomes per message id; records calls."""

    def __init__(self, outcomes: dict[str, list[Any]]) -> None:
        self.outcomes = outcomes
        self.calls: list[str] = []
        self.accept: dict[str, asyncio.Event] = {}

    def StreamMessage(  # noqa: N802 - the stub's method name
        self, request: pb.StreamMessageRequest, **_: Any
    ) -> AsyncIterator[pb.StreamMessageResponse]:
        return self._stream(request.message)

    async def _stream(
        self, message: pb.SendMessageRequest
    ) -> AsyncIterator[pb.StreamMessageResponse]:
        self.calls.append(message.message_id)
        outcome = self.outcomes[message.message_id].pop(0)
        if isinstance(outcome, Exception):
            raise outcome
        gate = self.accept.get(message.message_id)
        if gate is not None:
            await gate.wait()
        yield pb.StreamMessageResponse(progress="accepted")
        yield pb.StreamMessageResponse(final=outcome)


class RecordingGraph:
    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []

    async def send(self, message: dict[str, Any]) -> str:
        check_message(message)
        self.sent.append(message)
        return "wamid.out"


def relay(
    agent: ScriptedAgent, graph: RecordingGraph, slept: list[float], budget: float = 60
) -> Relay:
    async def sleep(seconds: float) -> None:
        slept.append(seconds)

    return Relay(agent, graph, tenant_id="t", timeout=5, retry_budget=budget, sleep=sleep)  # type: ignore[arg-type]


def inbound(wamid: str, text: str = "oi") -> Inbound:
    return Inbound(wamid=wamid, sender="5511999990000", text=text)


async def test_a_retryable_answer_is_retried_with_the_same_id_after_its_retry_info() -> None:
    agent = ScriptedAgent(
        {
            "w1": [
                failure(grpc.StatusCode.UNAVAILABLE, 1500, "MODEL_UNAVAILABLE"),
                failure(grpc.StatusCode.UNAVAILABLE, 800, "MESSAGE_IN_PROGRESS"),
                pb.SendMessageResponse(reply="Olá!"),
            ]
        }
    )
    graph, slept = RecordingGraph(), list[float]()
    await relay(agent, graph, slept).handle(inbound("w1"))
    assert agent.calls == ["w1", "w1", "w1"] and slept == [1.5, 0.8]
    assert [m["text"]["body"] for m in graph.sent] == ["Olá!"]


async def test_other_errors_and_a_spent_budget_send_nothing() -> None:
    agent = ScriptedAgent(
        {
            "w1": [failure(grpc.StatusCode.ALREADY_EXISTS, reason="MESSAGE_ID_REUSED")],
            "w2": [failure(grpc.StatusCode.UNAVAILABLE, 5000, "MODEL_UNAVAILABLE")],
            "w3": [pb.SendMessageResponse(reply="de novo", duplicate=True)],
        }
    )
    graph, slept = RecordingGraph(), list[float]()
    gateway = relay(agent, graph, slept, budget=2)
    for wamid in ("w1", "w2", "w3"):
        await gateway.handle(inbound(wamid))
    assert agent.calls == ["w1", "w2", "w3"] and slept == [] and graph.sent == []


async def test_a_customers_next_message_goes_once_the_previous_has_its_place() -> None:
    agent = ScriptedAgent(
        {
            "w1": [pb.SendMessageResponse(covered_by_message_id="w2")],
            "w2": [pb.SendMessageResponse(reply="Uma resposta", answered_message_ids=["w1", "w2"])],
        }
    )
    agent.accept["w1"] = asyncio.Event()
    graph, slept = RecordingGraph(), list[float]()
    gateway = relay(agent, graph, slept)
    gateway.submit(inbound("w1"))
    gateway.submit(inbound("w2"))
    gateway.submit(inbound("w1"))  # Meta's redelivery of w1: dropped
    while not agent.calls:  # noqa: ASYNC110 - the first call starts
        await asyncio.sleep(0)
    for _ in range(5):
        await asyncio.sleep(0)
    assert agent.calls == ["w1"]  # w2 waits for w1's place
    agent.accept["w1"].set()
    await gateway.drain(5)
    assert agent.calls == ["w1", "w2"]
    assert [m["text"]["body"] for m in graph.sent] == ["Uma resposta"]


async def test_the_access_log_never_holds_a_query_string() -> None:
    async def handshake(request: web.Request) -> web.Response:
        return web.Response(text=request.query.get("hub.challenge", ""))

    app = web.Application()
    app.router.add_get("/webhook", handshake)
    runner = web.AppRunner(app, access_log_class=AccessLogger)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    url = f"http://127.0.0.1:{runner.addresses[0][1]}/webhook"
    try:
        with structlog.testing.capture_logs() as logs:
            async with aiohttp.ClientSession() as http:
                query = {"hub.verify_token": "verify-91ab", "hub.challenge": "7"}
                async with http.get(url, params=query) as reply:
                    assert await reply.text() == "7"
    finally:
        await runner.cleanup()
    (entry,) = [e for e in logs if e["event"] == "http_request"]
    assert (entry["method"], entry["path"], entry["status"]) == ("GET", "/webhook", 200)
    assert "verify-91ab" not in repr(logs)
