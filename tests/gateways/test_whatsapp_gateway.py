"""The reference WhatsApp gateway end to end, with no network: Meta's webhook calls (signed
with the app secret) → the gateway → the agent service (real gRPC, the calendar service, the
embedded MongoDB) → replies and outbox messages sent to a stand-in of the Graph API that
refuses any request Meta would refuse (``tests/fakes/graph_api``)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from uuid import UUID, uuid4

import aiohttp
import pytest
from aiohttp import web

from agenda.agent.v1 import catalog_service_pb2 as catalog_pb2
from agenda.agent.v1 import types_pb2
from agenda_kit.mongo import EmbeddedMongo
from agent_service.bootstrap import AgentApp, Overrides
from agent_service.domain.outbox import OutboxKind, OutboxMessage
from gateways.whatsapp.app import Secrets, build_app
from gateways.whatsapp.settings import WhatsAppSettings
from gateways.whatsapp.signature import HEADER, signature_of
from tests.agent_service.integration.agent_fixtures import (
    AGENT_TOKEN,
    AUTH,
    AgentStack,
    Gate,
    agent_stack,
    booking_day,
    booking_request_text,
    catalog_stub,
    channel_to,
    seed_demo_salon,
    until_waiting,
)
from tests.fakes.graph_api import FakeGraphApi, running_graph_api

pytest_plugins = ["tests.kit.mongo_fixtures"]
PHONE_NUMBER_ID = "106540352242922"
APP_SECRET = "app-secret-5f2c"
VERIFY_TOKEN = "verify-token-91ab"
ACCESS_TOKEN = "graph-token-77de"
MARIA = "5511999990000"


@dataclass
class Gateway:
    """A running gateway and what it talks to."""

    url: str
    graph: FakeGraphApi
    stack: AgentStack
    agent: AgentApp
    tenant_id: str
    http: aiohttp.ClientSession
    settings: WhatsAppSettings

    async def post(
        self, payload: Any, *, secret: str = APP_SECRET, body: bytes | None = None
    ) -> int:
        raw = json.dumps(payload).encode() if body is None else body
        headers = {HEADER: signature_of(raw, secret), "Content-Type": "application/json"}
        async with self.http.post(f"{self.url}/webhook", data=raw, headers=headers) as reply:
            return reply.status

    async def sent(self, count: int) -> list[dict[str, Any]]:
        """Until the Graph API stand-in has accepted ``count`` messages (the event waited
        for, polled, never a fixed time)."""
        while len(self.graph.sent) < count:  # noqa: ASYNC110 - the stand-in's state
            await asyncio.sleep(0.02)
        return self.graph.sent[:count]


def text(wamid: str, body: str, sender: str = MARIA) -> dict[str, Any]:
    return {
        "from": sender,
        "id": wamid,
        "timestamp": "1796164633",
        "type": "text",
        "text": {"body": body},
    }


def tap(wamid: str, button: dict[str, Any], sender: str = MARIA) -> dict[str, Any]:
    """A customer's tap on a reply ``button`` of a message we sent (Meta's shape)."""
    return {
        "from": sender,
        "id": wamid,
        "timestamp": "1796164633",
        "type": "interactive",
        "interactive": {
            "type": "button_reply",
            "button_reply": {"id": button["reply"]["id"], "title": button["reply"]["title"]},
        },
    }


def body_of(message: dict[str, Any]) -> str:
    """What the customer reads of a text or a reply-button message."""
    if message["type"] == "interactive":
        return str(message["interactive"]["body"]["text"])
    return str(message["text"]["body"])


def delivery(*messages: dict[str, Any], phone_number_id: str = PHONE_NUMBER_ID) -> dict[str, Any]:
    """A webhook delivery in Meta's shape."""
    return {
        "object": "whatsapp_business_account",
        "entry": [
            {
                "id": "WABA_ID",
                "changes": [
                    {
                        "field": "messages",
                        "value": {
                            "messaging_product": "whatsapp",
                            "metadata": {
                                "display_phone_number": "5511000000000",
                                "phone_number_id": phone_number_id,
                            },
                            "contacts": [{"profile": {"name": "Maria"}, "wa_id": MARIA}],
                            "messages": list(messages),
                        },
                    }
                ],
            }
        ],
    }


def secrets_dir(tmp_path: Path) -> dict[str, Path]:
    files = {}
    for name, value in (
        ("verify_token_file", VERIFY_TOKEN),
        ("app_secret_file", APP_SECRET),
        ("access_token_file", ACCESS_TOKEN),
        ("agent_token_file", AGENT_TOKEN),
    ):
        files[name] = tmp_path / name
        files[name].write_text(value + "\n")
    return files


@pytest.fixture
def gate() -> Gate:
    return Gate()


@pytest.fixture
async def gateway(
    embedded_mongo: EmbeddedMongo, tmp_path: Path, gate: Gate
) -> AsyncIterator[Gateway]:
    async with (
        running_graph_api(phone_number_id=PHONE_NUMBER_ID, token=ACCESS_TOKEN) as graph,
        agent_stack(embedded_mongo, tmp_path / "stack", replicas=0) as stack,
    ):
        agent = await stack.start_replica(Overrides(model=gate.model()))
        async with channel_to(agent.port) as channel:
            tenant_id = await seed_demo_salon(channel)
        files = secrets_dir(tmp_path)
        settings = WhatsAppSettings(
            verify_token_file=files["verify_token_file"],
            app_secret_file=files["app_secret_file"],
            access_token_file=files["access_token_file"],
            agent_token_file=files["agent_token_file"],
            phone_number_id=PHONE_NUMBER_ID,
            graph_api_base=graph.base,
            tenant_id=tenant_id,
            agent_addr=f"127.0.0.1:{agent.port}",
            outbox_wait_seconds=1,
            outbox_retry_seconds=0.05,
        )
        secrets = Secrets(VERIFY_TOKEN, APP_SECRET, ACCESS_TOKEN, AGENT_TOKEN)
        runner = web.AppRunner(build_app(settings, secrets))
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        url = f"http://127.0.0.1:{runner.addresses[0][1]}"
        try:
            async with aiohttp.ClientSession() as http:
                yield Gateway(url, graph, stack, agent, tenant_id, http, settings)
        finally:
            await runner.cleanup()


async def test_the_verification_handshake_answers_only_our_token(gateway: Gateway) -> None:
    query = {
        "hub.mode": "subscribe",
        "hub.challenge": "1158201444",
        "hub.verify_token": VERIFY_TOKEN,
    }
    async with gateway.http.get(f"{gateway.url}/webhook", params=query) as reply:
        assert (reply.status, await reply.text()) == (200, "1158201444")
    for wrong in ({"hub.verify_token": "guess"}, {"hub.mode": "unsubscribe"}):
        async with gateway.http.get(f"{gateway.url}/webhook", params=query | wrong) as reply:
            assert reply.status == 403


async def test_unsigned_or_wrongly_signed_deliveries_are_refused_and_reach_nothing(
    gateway: Gateway,
) -> None:
    payload = delivery(text("wamid.HBgN1", "Qual é o endereço?"))
    raw = json.dumps(payload).encode()
    assert await gateway.post(payload, secret="another-app-secret") == 401
    signed_other = json.dumps(delivery(text("wamid.HBgN1", "Oi"))).encode()
    headers = {HEADER: signature_of(signed_other, APP_SECRET)}  # a signature of other bytes
    async with gateway.http.post(f"{gateway.url}/webhook", data=raw, headers=headers) as reply:
        assert reply.status == 401
    async with gateway.http.post(f"{gateway.url}/webhook", data=raw) as reply:  # no signature
        assert reply.status == 401
    assert await gateway.post(None, body=b"{not json") == 400  # signed, but not JSON
    # Only a correctly signed delivery is handled: its reply is the first message sent.
    assert await gateway.post(payload) == 200
    (reply_sent,) = await gateway.sent(1)
    assert "Rua das Flores" in reply_sent["text"]["body"]


async def test_a_booking_through_whatsapp_and_its_outbox_message(gateway: Gateway) -> None:
    day = booking_day()
    assert await gateway.post(delivery(text("wamid.A1", booking_request_text(day, "10:00")))) == 200
    (question,) = await gateway.sent(1)
    assert question["to"] == MARIA and question["context"] == {"message_id": "wamid.A1"}
    assert "Confirma" in body_of(question)
    # Meta redelivers the same wamid (it thought the first delivery failed): nothing twice.
    assert await gateway.post(delivery(text("wamid.A1", booking_request_text(day, "10:00")))) == 200
    assert await gateway.post(delivery(text("wamid.A2", "sim"))) == 200
    _, receipt = await gateway.sent(2)
    assert "Agendado" in body_of(receipt), receipt
    assert receipt["context"] == {"message_id": "wamid.A2"}
    # A proactive message (a booking settled after its turn) reaches WhatsApp and is acked.
    tenant = UUID(gateway.tenant_id)
    notice = outbox_message(tenant, "Seu horário foi confirmado.")
    await gateway.agent.repos.outbox.add(notice)
    _, _, proactive = await gateway.sent(3)
    assert proactive == {
        "messaging_product": "whatsapp",
        "recipient_type": "individual",
        "to": MARIA,
        "type": "text",
        "text": {"preview_url": False, "body": "Seu horário foi confirmado."},
    }
    await until(lambda: _acked(gateway, tenant))
    assert len(gateway.graph.sent) == 3


async def test_a_tap_confirms_exactly_the_proposal_its_button_was_sent_with(
    gateway: Gateway,
) -> None:
    if "quick_replies" not in types_pb2.PendingAction.DESCRIPTOR.fields_by_name:
        pytest.skip("the agent's PendingAction has no quick replies yet (consent, issue 21)")
    day = booking_day()
    assert await gateway.post(delivery(text("wamid.C1", booking_request_text(day, "11:00")))) == 200
    (first,) = await gateway.sent(1)
    # The customer asks for another time before answering: a new question, new buttons.
    assert await gateway.post(delivery(text("wamid.C2", booking_request_text(day, "14:00")))) == 200
    _, second = await gateway.sent(2)
    for question in (first, second):
        assert question["type"] == "interactive" and "Confirma" in body_of(question), question
    stale, current = (_confirm_button(question) for question in (first, second))
    assert stale["reply"]["id"] != current["reply"]["id"]
    # The first question's button is stale: the tap books nothing (a tap read as its title,
    # a typed yes, would have confirmed the open 14:00 proposal instead).
    assert await gateway.post(delivery(tap("wamid.C3", stale))) == 200
    _, _, refused = await gateway.sent(3)
    assert refused["context"] == {"message_id": "wamid.C3"}
    assert await _decision(gateway, "wamid.C3") == "not_pending"
    assert await _appointments(gateway) == []
    # The current button books its proposal; the receipt answers the tap.
    await gateway.post(delivery(text("wamid.C4", booking_request_text(day, "14:00"))))
    *_, asked = await gateway.sent(4)
    assert await gateway.post(delivery(tap("wamid.C5", _confirm_button(asked)))) == 200
    *_, receipt = await gateway.sent(5)
    assert "Agendado" in body_of(receipt) and receipt["context"] == {"message_id": "wamid.C5"}
    assert await _decision(gateway, "wamid.C5") == "confirmed"
    assert len(await _appointments(gateway)) == 1


def _confirm_button(question: dict[str, Any]) -> dict[str, Any]:
    buttons: list[dict[str, Any]] = question["interactive"]["action"]["buttons"]
    (confirm,) = [b for b in buttons if b["reply"]["id"].startswith("agenda:confirm:")]
    return confirm


async def _decision(gateway: Gateway, wamid: str) -> str:
    result = await gateway.agent.repos.turns.result(UUID(gateway.tenant_id), "whatsapp", wamid)
    return str(getattr(result, "decision", ""))  # consent's TurnResult.decision


async def _appointments(gateway: Gateway) -> list[Any]:
    async with channel_to(gateway.agent.port) as channel:
        listed = await catalog_stub(channel).ListAppointments(
            catalog_pb2.ListAppointmentsRequest(tenant_id=gateway.tenant_id), metadata=AUTH
        )
    return list(listed.appointments)


def outbox_message(tenant: UUID, body: str) -> OutboxMessage:
    return OutboxMessage(
        id=uuid4(),
        tenant_id=tenant,
        kind=OutboxKind.BOOKING_CONFIRMED,
        customer_id=uuid4(),
        channel="whatsapp",
        external_id=MARIA,
        text=body,
    )


async def _acked(gateway: Gateway, tenant: UUID) -> bool:
    return not await gateway.agent.repos.outbox.due(tenant, None, 10)


async def until(condition: Callable[[], Any]) -> None:
    while not await condition():  # noqa: ASYNC110 - the store's state
        await asyncio.sleep(0.05)


async def test_a_burst_in_one_delivery_gets_one_whatsapp_reply(
    gateway: Gateway, gate: Gate
) -> None:
    day = booking_day()
    gate.close()
    burst = [
        text("wamid.B1", "Quero agendar"),
        text("wamid.B2", "corte feminino"),
        text("wamid.B3", f"com a Ana dia {day:%d/%m} às 16:00"),
    ]
    assert await gateway.post(delivery(*burst)) == 200
    await gate.entered.wait()
    await until_waiting(gateway.agent, gateway.tenant_id, MARIA, 3)
    gate.opened.set()
    (reply,) = await gateway.sent(1)
    assert reply["context"] == {"message_id": "wamid.B3"}
    assert "Confirma" in body_of(reply) and "16:00" in body_of(reply)
    # every id is answered (the other two are covered by this reply): nothing else is sent
    await until(lambda: _all_answered(gateway, [m["id"] for m in burst]))
    assert len(gateway.graph.sent) == 1


async def _all_answered(gateway: Gateway, wamids: list[str]) -> bool:
    tenant = UUID(gateway.tenant_id)
    turns = gateway.agent.repos.turns
    return all([await turns.result(tenant, "whatsapp", wamid) is not None for wamid in wamids])


async def test_an_outbox_message_meta_refuses_stays_for_a_later_delivery(gateway: Gateway) -> None:
    tenant = UUID(gateway.tenant_id)
    gateway.graph.refuse(131047)  # the customer's 24-hour window closed: Meta refuses once
    await gateway.agent.repos.outbox.add(outbox_message(tenant, "Lembrete: amanhã às 10:00."))
    (sent,) = await gateway.sent(1)  # a later pass delivered it
    assert gateway.graph.refused == ["Message failed to send"]
    assert sent["text"]["body"] == "Lembrete: amanhã às 10:00."
    await until(lambda: _acked(gateway, tenant))  # acknowledged only once Meta accepted it
