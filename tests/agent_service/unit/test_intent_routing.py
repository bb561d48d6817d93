"""The deterministic intent scorer routes only clear new tasks; the rest go to the router."""

from __future__ import annotations

import pytest
from pydantic_ai.messages import ModelMessage, ModelResponse
from pydantic_ai.models.function import AgentInfo, FunctionModel

from agent_service.infrastructure.agent.intent import clear_route, fold
from agent_service.infrastructure.agent.offline.model import offline_model_function
from agent_service.infrastructure.agent.specialists import (
    SPECIALISTS,
    by_name,
    enabled_specialists,
)
from tests.agent_service.conversation_fixtures import Assistant, seed_salon


@pytest.mark.parametrize(
    ("message", "specialist"),
    [
        ("Quero marcar um corte amanhã às 10", "booking"),
        ("I want to book a haircut", "booking"),
        ("Quero desmarcar meu horário", "appointments"),
        ("reschedule my appointment please", "appointments"),
        ("Qual o ENDEREÇO de vocês?", "faq"),
        ("Do you have parking?", "faq"),
        ("Quais serviços vocês têm?", "discovery"),
        ("How much is a haircut?", "discovery"),
        # an explicit request for a person is handed off in code before any routing
        # (tests/agent_service/unit/test_safety_policies.py); a complaint routes here
        ("Quero fazer uma reclamação", "handoff"),
        ("I want to cancel, and I have a complaint", "handoff"),  # handoff beats all
    ],
)
def test_a_clear_message_is_routed_in_code(message: str, specialist: str) -> None:
    assert clear_route(message, SPECIALISTS, []) == specialist


@pytest.mark.parametrize(
    "message",
    [
        "sim",
        "quero cancelar e marcar outro",  # two jobs
        "qual a política de cancelamento?",  # "cancelamento" is not a cancel request
        "Can I book? How much is it?",
        "bookings",  # word boundaries: no phrase inside another word
    ],
)
def test_an_unclear_message_goes_to_the_model_router(message: str) -> None:
    assert clear_route(message, SPECIALISTS, []) == ""


def test_escaped_and_disabled_specialists_are_never_chosen_in_code() -> None:
    assert clear_route("Qual o endereço?", SPECIALISTS, ["faq"]) == ""
    without_faq = enabled_specialists({"enable_faq": False})
    assert clear_route("Qual o endereço?", without_faq, []) == ""
    assert clear_route("quero cancelar e marcar outro", SPECIALISTS, ["appointments"]) == (
        "booking"
    )


def test_folding_removes_case_and_accents() -> None:
    assert fold("Endereço HORÁRIO") == "endereco horario"


async def test_a_follow_up_of_another_job_switches_in_code_without_a_transfer() -> None:
    requests: list[str] = []  # each request's instructions: who asked (a step may show
    # only some of a specialist's tools, see tools/steps.py)

    def counted(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        requests.append(info.instructions or "")
        return offline_model_function(messages, info)

    assistant = Assistant(model=FunctionModel(counted, model_name="offline"))
    salon = await seed_salon(assistant.repos)
    faq = await assistant.say(salon.tenant.id, "Qual é o endereço de vocês?")
    assert faq.result.specialist == "faq"
    requests.clear()
    booking = await assistant.say(salon.tenant.id, "Quero marcar um corte")
    assert booking.result.specialist == "booking"
    # Only the booking specialist's requests: the FAQ specialist never ran to transfer.
    assert requests, "the booking specialist answered"
    booking_rules = by_name(SPECIALISTS)["booking"].step_instructions
    assert all(text.startswith(booking_rules) for text in requests), requests


@pytest.mark.parametrize("message", ["Oi", "Olá, bom dia!", "Oi, tudo bem?", "Hello, good morning"])
def test_a_bare_greeting_goes_to_discovery_in_code(message: str) -> None:
    assert clear_route(message, SPECIALISTS, []) == "discovery"
    assert clear_route(message, SPECIALISTS, ["discovery"]) == ""


@pytest.mark.parametrize("message", ["oi, quero saber uma coisa", "hi there", "Oi Ana"])
def test_a_greeting_with_more_is_not_a_bare_greeting(message: str) -> None:
    assert clear_route(message, SPECIALISTS, []) == ""
