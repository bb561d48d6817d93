"""The whole graph through ``openai-chat:`` against an OpenAI-compatible server: the requests
the router and specialists send, token accounting, and provider faults."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from datetime import datetime
from typing import Any

import aiohttp
import pytest
from prometheus_client import REGISTRY
from pydantic_ai.models import Model
from structlog.testing import capture_logs

from agent_service.domain.appointments import AppointmentStatus
from agent_service.domain.conversations import ActionKind
from agent_service.domain.errors import ModelUnavailableError
from agent_service.infrastructure.agent.models import build_model
from agent_service.infrastructure.agent.specialists import SPECIALISTS, enabled_specialists
from tests.agent_service.conversation_fixtures import Assistant, Salon, seed_salon
from tests.fakes.openai_server import (
    FakeOpenAI,
    Fault,
    RecordedRequest,
    running_openai_server,
    salon_script,
)

API_KEY = "test-key-5c1e0a7d"
BOOK = "Quero agendar um corte feminino com a Ana amanhã às 10h"
LIMIT_REPLY = "Desculpe, não consegui concluir isso agora"
BOOKING_TOOLS = {
    "list_services",
    "list_professionals",
    "check_availability",
    "list_my_appointments",
    "book_appointment",
    "transfer_to_router",
}


@pytest.fixture
async def server() -> AsyncIterator[FakeOpenAI]:
    async with running_openai_server(salon_script, api_key=API_KEY) as fake:
        yield fake
    assert fake.script_errors == []


def model_for(server: FakeOpenAI, api_key: str = API_KEY) -> Model:
    return build_model(
        "openai-chat:fake-model", openai_base_url=server.base_url, openai_api_key=api_key
    )


async def assistant_for(
    server: FakeOpenAI, flags: dict[str, bool] | None = None
) -> tuple[Assistant, Salon]:
    assistant = Assistant(model=model_for(server), flags=flags)
    return assistant, await seed_salon(assistant.repos)


def router_requests(server: FakeOpenAI) -> list[RecordedRequest]:
    return [r for r in server.requests if "route_to" in r.tool_names]


def specialist_enum(request: RecordedRequest) -> list[str]:
    parameters: dict[str, Any] = request.tools["route_to"]["parameters"]
    enum: list[str] = parameters["properties"]["specialist"]["enum"]
    return enum


def tokens() -> dict[tuple[str, str], float]:
    """``agenda_model_tokens_total`` by (specialist, direction), as Prometheus exposes it."""
    values: dict[tuple[str, str], float] = {}
    for metric in REGISTRY.collect():
        for sample in metric.samples:
            if sample.name == "agenda_model_tokens_total":
                key = (sample.labels["specialist"], sample.labels["direction"])
                values[key] = sample.value
    return values


def server_tokens(requests: list[RecordedRequest]) -> tuple[int, int]:
    usages = [r.usage for r in requests if r.usage is not None]
    return sum(u["prompt_tokens"] for u in usages), sum(u["completion_tokens"] for u in usages)


async def test_books_in_portuguese_over_chat_completions(server: FakeOpenAI) -> None:
    assistant, salon = await assistant_for(server)
    before = tokens()

    first = await assistant.say(salon.tenant.id, BOOK)
    assert "Confirma" in first.result.reply, first.result.reply
    assert "Corte feminino com Ana Souza" in first.result.reply
    assert first.result.actions == () and assistant.calendar.events == {}
    first_turn = len(server.requests)

    second = await assistant.say(salon.tenant.id, "sim")
    assert "Agendado" in second.result.reply, second.result.reply
    (action,) = second.result.actions
    assert action.kind is ActionKind.APPOINTMENT_BOOKED and action.appointment_id is not None
    appointment = await assistant.repos.appointments.get(salon.tenant.id, action.appointment_id)
    assert appointment.status is AppointmentStatus.CONFIRMED
    assert appointment.start == datetime.fromisoformat("2026-12-01T10:00:00-03:00")
    assert len(assistant.calendar.events) == 1

    assert all(r.authorized and r.status == 200 for r in server.requests)
    assert [r.called for r in server.requests] == [
        # a clear booking request is routed in code: no router request
        ["list_services", "list_professionals"],
        ["check_availability"],
        ["book_appointment"],  # the proposal ends the run: no request for a final text
        # "sim" is run in code (the stored proposal's own tool): no model request at all
    ]
    assert first_turn == len(server.requests)
    assert router_requests(server) == []
    booking = server.requests
    # every request of the run is sent the same tools (a stable prefix for the prompt cache)
    assert all(r.tool_names == BOOKING_TOOLS for r in booking[:first_turn])
    assert "You book appointments." in booking[0].system_text
    assert "You route" not in booking[0].system_text

    after = tokens()
    for specialist, requests in (("booking", booking),):
        prompt, completion = server_tokens(requests)
        assert prompt > 0 and completion > 0
        assert after[(specialist, "input")] - before.get((specialist, "input"), 0) == prompt
        assert after[(specialist, "output")] - before.get((specialist, "output"), 0) == completion


async def test_an_ambiguous_message_goes_to_the_model_router(server: FakeOpenAI) -> None:
    """Two jobs in one message (cancel and book): the router decides, and is metered."""
    assistant, salon = await assistant_for(server)
    before = tokens()
    await assistant.say(salon.tenant.id, "Quero cancelar e marcar outro horário")
    (router,) = router_requests(server)
    assert router.tool_names == {"route_to"}
    assert router.body["tool_choice"] == "required"
    assert specialist_enum(router) == [s.name for s in enabled_specialists({})]
    assert server.requests[0] is router and len(server.requests) > 1
    prompt, completion = server_tokens([router])
    after = tokens()
    assert prompt > 0 and completion > 0
    assert after[("router", "input")] - before.get(("router", "input"), 0) == prompt
    assert after[("router", "output")] - before.get(("router", "output"), 0) == completion


async def test_a_disabled_specialist_is_not_in_the_router_request(server: FakeOpenAI) -> None:
    assistant, salon = await assistant_for(server, flags={"enable_faq": False})
    reply = await assistant.say(salon.tenant.id, "Qual é o endereço de vocês?")
    (router,) = router_requests(server)
    assert specialist_enum(router) == ["discovery", "booking", "appointments", "handoff"]
    assert "faq" not in router.system_text.lower()
    assert "- booking:" in router.system_text
    # With no FAQ route the script falls back to discovery, which lists the services.
    assert router.called == ["route_to"]
    discovery = server.requests[1]
    assert discovery.tool_names == {
        "list_services",
        "list_professionals",
        "check_availability",
        "transfer_to_router",
    }
    assert "Corte feminino" in reply.result.reply


@pytest.mark.parametrize(
    ("message", "specialist", "reply"),
    [
        ("Quero cancelar meu horário", "appointments", "no upcoming appointments"),
        ("Qual é o endereço?", "faq", "Rua das Flores"),
        ("Quais serviços vocês têm?", "discovery", "Corte feminino"),
    ],
)
async def test_each_specialist_is_offered_only_its_own_tools(
    server: FakeOpenAI, message: str, specialist: str, reply: str
) -> None:
    assistant, salon = await assistant_for(server)
    handled = await assistant.say(salon.tenant.id, message)
    assert handled.result.specialist == specialist
    assert reply.lower() in handled.result.reply.lower(), handled.result.reply
    (spec,) = [s for s in SPECIALISTS if s.name == specialist]
    runs = server.requests
    assert router_requests(server) == [] and runs  # clear messages are routed in code
    # a customer with no appointment is sent only the listing (tools/steps.py)
    tools = (
        {"list_my_appointments"}
        if specialist == "appointments"
        else {t.__name__ for t in spec.tools}
    )
    for request in runs:
        assert request.tool_names == tools | {"transfer_to_router"}
        assert spec.step_instructions in request.system_text


@pytest.mark.parametrize(
    ("fault", "attempts", "cause"),
    [
        (Fault.server_error(times=3), 3, "server_error"),  # the SDK's two retries, then 500
        (Fault.rate_limited(times=3), 3, "rate_limited"),
        (Fault.malformed_json(), 1, "bad_response"),  # a 200 is not retried: ModelAPIError
    ],
    ids=["500", "429", "malformed-json"],
)
async def test_a_provider_outage_fails_the_turn_retryably_and_stores_nothing(
    server: FakeOpenAI, fault: Fault, attempts: int, cause: str
) -> None:
    """The model gave no answer: the turn fails with ``ModelUnavailableError`` (UNAVAILABLE
    with a retry hint at the edge), the model's health says so, nothing is stored that the
    retry of the same message id would replay; the retry gets the real answer."""
    assistant, salon = await assistant_for(server)
    server.inject(fault)
    with pytest.raises(ModelUnavailableError) as failed:
        await assistant.say(salon.tenant.id, BOOK, message_id="m-outage")
    assert failed.value.cause == cause and failed.value.retry_after_seconds > 0
    assert [r.status for r in server.requests] == [fault.status] * attempts
    assert assistant.calendar.events == {} and not assistant.model_health.serving
    stored = await assistant.repos.turns.stored(salon.tenant.id, "whatsapp", "m-outage")
    assert stored is not None and stored.result is None and stored.failure is not None
    assert stored.failure.reason == "MODEL_UNAVAILABLE"
    # The provider is back: the same message id runs again and gets the real answer.
    retried = await assistant.say(salon.tenant.id, BOOK, message_id="m-outage")
    assert "Confirma" in retried.result.reply and not retried.duplicate, retried.result.reply
    assert assistant.model_health.serving


async def test_a_completion_without_choices_becomes_a_clean_reply(server: FakeOpenAI) -> None:
    assistant, salon = await assistant_for(server)
    server.inject(Fault.empty_choices())
    reply = await assistant.say(salon.tenant.id, BOOK)
    # The specialists stream (agent/streaming.py): an empty stream is sent back to the model,
    # whose next answer is the real one; a whole empty completion ends in the limit reply.
    assert LIMIT_REPLY in reply.result.reply or "Confirma" in reply.result.reply
    assert server.requests[-1].status == 200


async def test_a_rate_limit_honours_retry_after_and_recovers(server: FakeOpenAI) -> None:
    assistant, salon = await assistant_for(server)
    server.inject(Fault.rate_limited(retry_after=0.2, after=1))
    reply = await assistant.say(salon.tenant.id, BOOK)
    assert "Confirma" in reply.result.reply, reply.result.reply
    router, limited, retried, *_ = server.requests
    assert [router.status, limited.status, retried.status] == [200, 429, 200]
    assert limited.body == retried.body
    assert retried.received_at - limited.received_at >= 0.19  # retry-after-ms: 200


async def test_a_provider_outage_after_the_proposal_still_confirms_in_code(
    server: FakeOpenAI,
) -> None:
    """The yes needs no model: a provider failing on every request after the proposal does
    not stop the confirmed booking (and no request is made for it)."""
    assistant, salon = await assistant_for(server)
    await assistant.say(salon.tenant.id, BOOK)
    asked = len(server.requests)
    server.inject(Fault.server_error(times=3))
    reply = await assistant.say(salon.tenant.id, "sim")
    assert "✅ Agendado:" in reply.result.reply, reply.result.reply
    assert len(reply.result.actions) == 1 and len(assistant.calendar.events) == 1
    assert len(server.requests) == asked


async def test_an_explicit_request_for_a_person_hands_off_with_no_model_request(
    server: FakeOpenAI,
) -> None:
    assistant, salon = await assistant_for(server)
    handled = await assistant.say(salon.tenant.id, "Quero falar com um atendente")
    assert handled.result.specialist == "handoff"
    assert [a.kind for a in handled.result.actions] == [ActionKind.HANDED_OFF]
    assert server.requests == []


async def test_the_api_key_never_reaches_the_logs(
    server: FakeOpenAI, caplog: pytest.LogCaptureFixture, capfd: pytest.CaptureFixture[str]
) -> None:
    caplog.set_level(logging.DEBUG)
    for name in ("openai", "httpx2", "httpcore2", "pydantic_ai"):
        caplog.set_level(logging.DEBUG, logger=name)
    with capture_logs() as events:
        assistant, salon = await assistant_for(server)
        server.inject(Fault.server_error(times=3))
        with pytest.raises(ModelUnavailableError):
            await assistant.say(salon.tenant.id, BOOK)
        await assistant.say(salon.tenant.id, BOOK)
        await assistant.say(salon.tenant.id, "sim")
        wrong_key = Assistant(model=model_for(server, api_key="sk-wrong"), repos=assistant.repos)
        with pytest.raises(ModelUnavailableError) as refused:
            await wrong_key.say(salon.tenant.id, BOOK, customer="5511888880000")
    assert refused.value.cause == "credentials_rejected"
    assert server.requests[-1].status == 401 and not server.requests[-1].authorized
    out, err = capfd.readouterr()
    logged = "\n".join([caplog.text, repr(events), out, err])
    # The check is not vacuous: the HTTP client's and the model guard's logs were captured.
    assert "HTTP Request: POST" in caplog.text
    failures = [e for e in events if e["event"] == "model_request_failed"]
    assert [(e["cause"], e["status"]) for e in failures] == [
        ("server_error", 500),
        ("credentials_rejected", 401),
    ]
    # one line per failure, at warning level, with no traceback
    assert all(e["log_level"] == "warning" and "exc_info" not in e for e in failures)
    assert API_KEY not in logged
    assert "sk-wrong" not in logged


async def test_the_fake_refuses_what_the_api_refuses(server: FakeOpenAI) -> None:
    url = f"{server.base_url}/chat/completions"
    user = {"role": "user", "content": "oi"}
    orphan_tool = {"role": "tool", "tool_call_id": "call_1", "content": "x"}
    not_object = {"type": "function", "function": {"name": "f", "parameters": {"type": "string"}}}
    cases: list[tuple[str, dict[str, Any], int]] = [
        ("sk-wrong", {"model": "m", "messages": [user]}, 401),
        (API_KEY, {"model": "m", "messages": []}, 400),
        (API_KEY, {"model": "m", "messages": [user, orphan_tool]}, 400),
        (API_KEY, {"model": "m", "messages": [user], "tools": [not_object]}, 400),
        (
            API_KEY,
            {"model": "m", "messages": [user], "stream_options": {"include_usage": True}},
            400,
        ),
        (API_KEY, {"model": "m", "messages": [{"role": "robot", "content": "x"}]}, 400),
    ]
    async with aiohttp.ClientSession() as session:
        for key, body, status in cases:
            headers = {"Authorization": f"Bearer {key}"}
            async with session.post(url, json=body, headers=headers) as response:
                assert response.status == status, (body, await response.text())
                error = (await response.json())["error"]
                assert set(error) == {"message", "type", "param", "code"}
                assert key not in error["message"]
    assert server.completions == []
