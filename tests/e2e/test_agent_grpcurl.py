"""Both services as processes; the agent service inspected and driven with the real grpcurl,
as an operator or a channel gateway would (reflection only, no proto files)."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from typing import Any

import pytest

from agent_service.cli.script import next_working_day
from tests.e2e.agent_processes import (
    AGENT_SERVICE,
    CALENDAR_SERVICE,
    CATALOG_SERVICE,
    SALON_ZONE,
    Ports,
    Services,
    call,
    local_day_range,
    running_services,
)
from tests.e2e.processes import grpcurl
from tests.process_clock import services_today

AGENT_TOKEN = "e2e-agent-token"
CALENDAR_TOKEN = "e2e-calendar-token-for-agent"


@pytest.fixture(scope="module")
def services(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Services]:
    data_dir = tmp_path_factory.mktemp("agent-e2e")
    settings = {
        "CALENDAR_AUTH_TOKENS": CALENDAR_TOKEN,
        "AGENT_AUTH_TOKENS": AGENT_TOKEN,
        "AGENT_CALENDAR_TOKEN": CALENDAR_TOKEN,
    }
    with running_services(data_dir, Ports.free(), **settings) as running:
        yield running


def agent(services: Services, rpc: str, body: dict[str, Any]) -> dict[str, Any]:
    return call(services.agent.address, f"{AGENT_SERVICE}/{rpc}", body, token=AGENT_TOKEN)


def catalog(services: Services, rpc: str, body: dict[str, Any]) -> dict[str, Any]:
    return call(services.agent.address, f"{CATALOG_SERVICE}/{rpc}", body, token=AGENT_TOKEN)


@pytest.fixture(scope="module")
def salon(services: Services) -> dict[str, str]:
    """A tenant, a service and a professional, created with grpcurl."""
    tenant = catalog(
        services,
        "CreateTenant",
        {
            "tenant": {
                "name": "Barbearia Grpcurl",
                "time_zone": "America/Sao_Paulo",
                "locale": "pt-BR",
            },
            "idempotency_key": "e2e-tenant",
        },
    )["tenant"]
    service = catalog(
        services,
        "CreateService",
        {
            "service": {
                "tenant_id": tenant["id"],
                "name": "Barba",
                "duration_minutes": 30,
                "price_minor": 4000,
                "currency": "BRL",
            },
        },
    )["service"]
    hours = [
        {"day_of_week": day, "start_time": "09:00", "end_time": "18:00"} for day in range(1, 7)
    ]
    professional = catalog(
        services,
        "CreateProfessional",
        {
            "professional": {
                "tenant_id": tenant["id"],
                "name": "Bruno Lima",
                "calendar_id": "e2e-bruno",
                "weekly_hours": hours,
                "service_ids": [service["id"]],
            },
        },
    )["professional"]
    return {
        "tenant_id": tenant["id"],
        "service_id": service["id"],
        "professional_id": professional["id"],
    }


def message(tenant_id: str, text: str, conversation_id: str = "") -> dict[str, Any]:
    return {
        "tenant_id": tenant_id,
        "customer": {"channel": "whatsapp", "external_id": "5511987654321"},
        "conversation_id": conversation_id,
        "message_id": uuid.uuid4().hex,
        "text": text,
    }


def test_both_services_run_on_uvloop_by_default(services: Services) -> None:
    for service in (services.calendar, services.agent):
        assert service.logged("server_started")["event_loop"] == "uvloop"


def test_reflection_lists_the_services(services: Services) -> None:
    result = grpcurl("-plaintext", services.agent.address, "list")
    assert result.returncode == 0, result.stderr
    assert {
        AGENT_SERVICE,
        CATALOG_SERVICE,
        "grpc.health.v1.Health",
        "grpc.reflection.v1alpha.ServerReflection",
    } <= set(result.stdout.split())


def test_describe_shows_every_rpc(services: Services) -> None:
    result = grpcurl("-plaintext", services.agent.address, "describe", AGENT_SERVICE)
    assert result.returncode == 0, result.stderr
    rpcs = (
        "SendMessage",
        "StreamMessage",
        "GetConversation",
        "HandOff",
        "HandBack",
        "EndConversation",
    )
    for rpc in rpcs:
        assert f"rpc {rpc}" in result.stdout, result.stdout
    assert "returns ( stream .agenda.agent.v1.StreamMessageResponse )" in result.stdout
    described = grpcurl(
        "-plaintext", services.agent.address, "describe", "agenda.agent.v1.SendMessageRequest"
    )
    assert "message_id" in described.stdout, described.stderr


@pytest.mark.parametrize("service", ["", AGENT_SERVICE, CATALOG_SERVICE])
def test_health_per_service_without_a_token(services: Services, service: str) -> None:
    result = grpcurl(
        "-plaintext",
        "-d",
        json.dumps({"service": service}),
        services.agent.address,
        "grpc.health.v1.Health/Check",
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == {"status": "SERVING"}


def test_unknown_service_health_is_not_found(services: Services) -> None:
    result = grpcurl(
        "-plaintext",
        "-d",
        json.dumps({"service": "nope.Service"}),
        services.agent.address,
        "grpc.health.v1.Health/Check",
    )
    assert result.returncode != 0 and "NotFound" in result.stderr


def test_send_message_answers_and_books(services: Services, salon: dict[str, str]) -> None:
    tenant_id = salon["tenant_id"]
    hello = agent(services, "SendMessage", message(tenant_id, "Quais serviços vocês têm?"))
    assert "Barba" in hello["reply"], hello
    assert hello["trace_id"] and hello["status"] == "CONVERSATION_STATUS_ACTIVE"
    conversation_id = hello["conversation_id"]

    day = next_working_day(services_today(SALON_ZONE))
    ask = f"Quero agendar uma barba com o Bruno dia {day:%d/%m} às 15:00"
    asked = agent(services, "SendMessage", message(tenant_id, ask, conversation_id))
    assert "Confirma" in asked["reply"], asked
    done = agent(services, "SendMessage", message(tenant_id, "sim", conversation_id))
    assert "Agendado" in done["reply"], done
    (action,) = done["actions"]
    assert action["kind"] == "ACTION_KIND_APPOINTMENT_BOOKED"
    assert action["appointment"]["professional_id"] == salon["professional_id"]
    events = call(
        services.calendar.address,
        f"{CALENDAR_SERVICE}/ListEvents",
        {"calendar_id": "e2e-bruno", "range": local_day_range(day)},
        token=CALENDAR_TOKEN,
    )
    assert [e["event_id"] for e in events["events"]] == [action["appointment"]["external_event_id"]]

    stored = agent(
        services, "GetConversation", {"tenant_id": tenant_id, "conversation_id": conversation_id}
    )
    texts = [m["text"] for m in stored["conversation"]["messages"]]
    assert texts[0] == "Quais serviços vocês têm?" and texts[-1] == done["reply"]


def test_without_token_is_unauthenticated(services: Services, salon: dict[str, str]) -> None:
    result = grpcurl(
        "-plaintext",
        "-d",
        json.dumps(message(salon["tenant_id"], "Olá")),
        services.agent.address,
        f"{AGENT_SERVICE}/SendMessage",
    )
    assert result.returncode != 0
    assert "Unauthenticated" in result.stderr, result.stderr
    wrong = grpcurl(
        "-plaintext",
        "-H",
        "authorization: Bearer wrong",
        "-d",
        "{}",
        services.agent.address,
        f"{CATALOG_SERVICE}/ListTenants",
    )
    assert wrong.returncode != 0 and "Unauthenticated" in wrong.stderr, wrong.stderr


def test_bad_input_is_invalid_argument_naming_the_field(
    services: Services, salon: dict[str, str]
) -> None:
    body = message(salon["tenant_id"], "x" * 4001)
    result = grpcurl(
        "-plaintext",
        "-H",
        f"authorization: Bearer {AGENT_TOKEN}",
        "-d",
        json.dumps(body),
        services.agent.address,
        f"{AGENT_SERVICE}/SendMessage",
    )
    assert result.returncode != 0
    assert "InvalidArgument" in result.stderr and "text" in result.stderr, result.stderr


def test_faq_answers_per_language_with_grpcurl(services: Services, salon: dict[str, str]) -> None:
    """An operator adds a FAQ entry with an English version; an English customer reads it,
    a Portuguese one the default; a bad language code is InvalidArgument naming the field."""
    tenant_id = salon["tenant_id"]
    entry = {
        "tenant_id": tenant_id,
        "question": "Posso levar meu cachorro?",
        "answer": "Infelizmente não aceitamos animais.",
        "tags": ["cachorro", "dog", "pet"],
        "localized": [{"language": "en", "question": "Can I bring my dog?", "answer": "No pets."}],
    }
    created = catalog(services, "CreateFaqEntry", {"entry": entry})["entry"]
    assert created["localized"] == entry["localized"], created
    listed = catalog(services, "ListFaqEntries", {"tenant_id": tenant_id})["entries"]
    assert [e["localized"] for e in listed if e["id"] == created["id"]] == [entry["localized"]]
    asked = message(tenant_id, "can I bring my dog?")
    asked["customer"]["external_id"] = "5511900000042"  # a conversation of its own
    english = agent(services, "SendMessage", asked)
    assert english["reply"] == "No pets.", english
    bad = {**entry, "localized": [{"language": "english!", "answer": "No pets."}]}
    result = grpcurl(
        "-plaintext",
        "-H",
        f"authorization: Bearer {AGENT_TOKEN}",
        "-d",
        json.dumps({"entry": bad}),
        services.agent.address,
        f"{CATALOG_SERVICE}/CreateFaqEntry",
    )
    assert result.returncode != 0
    assert "InvalidArgument" in result.stderr, result.stderr
    assert "entry.localized[0].language" in result.stderr, result.stderr


def _model_usage_lines(services: Services) -> int:
    """The agent's own "model_usage" log lines so far (one per specialist run that asked)."""
    return services.agent.log_path.read_text(errors="replace").count('"model_usage"')


def test_a_tapped_confirm_books_in_code_with_no_model_request(
    services: Services, salon: dict[str, str]
) -> None:
    """Issue 21: propose → structured confirm (the PendingAction id, as grpcurl sends it) →
    booked, and the confirm turn makes no model request; the same id again runs nothing and is
    told, in code, that it is already booked."""
    tenant_id = salon["tenant_id"]
    day = next_working_day(services_today(SALON_ZONE))
    ask = f"Quero agendar uma barba com o Bruno dia {day:%d/%m} às 17:00"
    asked = agent(services, "SendMessage", message(tenant_id, ask))
    pending = asked["pending"]
    assert pending["id"] and asked["reply"].endswith(pending["question"]), asked
    choices = {r["choice"] for r in pending["quick_replies"]}
    assert choices == {"QUICK_REPLY_CHOICE_CONFIRM", "QUICK_REPLY_CHOICE_DECLINE"}, pending
    before = _model_usage_lines(services)
    assert before > 0, "the proposal's run is logged with its model usage"
    tap = message(tenant_id, "", asked["conversation_id"])
    tap["confirm_pending_id"] = pending["id"]
    done = agent(services, "SendMessage", tap)
    assert done["decision"] == "DECISION_RESULT_CONFIRMED", done
    (action,) = done["actions"]
    assert action["kind"] == "ACTION_KIND_APPOINTMENT_BOOKED", done
    assert _model_usage_lines(services) == before, "the confirm turn asked a model"
    again = message(tenant_id, "", asked["conversation_id"])
    again["confirm_pending_id"] = pending["id"]
    repeated = agent(services, "SendMessage", again)
    assert repeated["decision"] == "DECISION_RESULT_ALREADY_DONE", repeated  # its receipt
    assert not repeated.get("actions"), repeated
    assert "Já está agendado" in repeated["reply"], repeated
    assert _model_usage_lines(services) == before, "the repeated confirm asked a model"
