"""The deterministic reading of a new task routes only clear ones in code; the rest go to the
router. The words are the language data's (``language/grammar/asks``), in every language."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from dataclasses import replace

import pytest
from pydantic_ai.messages import ModelMessage, ModelResponse
from pydantic_ai.models.function import AgentInfo, FunctionModel

from agent_service.infrastructure.agent.intent import clear_route
from agent_service.infrastructure.agent.offline.model import offline_model_function
from agent_service.infrastructure.agent.specialists import (
    SPECIALISTS,
    by_name,
    enabled_specialists,
)
from agent_service.infrastructure.language.packs import language_data
from tests.agent_service.conversation_fixtures import Assistant, seed_salon
from tests.data_phrases import phrase


@pytest.mark.parametrize(
    ("message", "specialist"),
    [
        ("Quero marcar um corte amanhã às 10", "booking"),
        ("I want to book a haircut", "booking"),
        ("Quero desmarcar meu horário", "appointments"),
        ("reschedule my appointment please", "appointments"),
        ("Qual o ENDEREÇO de vocês?", "faq"),
        ("qual a política de cancelamento?", "faq"),  # "cancelamento" is no cancel request
        ("até quando posso cancelar?", "faq"),  # about the rules: no cancel request
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
        "Can I book? How much is it?",
        "I saw you on facebook",  # word boundaries: no phrase inside another word
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


@pytest.mark.parametrize(
    "message", ["Oi", "Olá, bom dia!", "Oi, tudo bem?", "Hello, good morning", "hi there"]
)
def test_a_bare_greeting_goes_to_discovery_in_code(message: str) -> None:
    assert clear_route(message, SPECIALISTS, []) == "discovery"
    assert clear_route(message, SPECIALISTS, ["discovery"]) == ""


@pytest.mark.parametrize("message", ["oi, quero saber uma coisa", "hi, one question", "Oi Ana"])
def test_a_greeting_with_more_is_not_a_bare_greeting(message: str) -> None:
    assert clear_route(message, SPECIALISTS, []) == ""


# Each [intents] table and the specialist a phrase of it alone asks for (language/grammar/asks).
TABLES = {
    "discovery": "discovery",
    "booking": "booking",
    "times_question": "booking",
    "appointments": "appointments",
    "cancel_other": "appointments",
    "faq": "faq",
    "policy_question": "faq",
    "complaint": "handoff",
}
JOBS = ("discovery", "booking", "appointments", "faq")


@pytest.mark.parametrize("language", ["pt", "en", "es"])
def test_a_phrase_of_one_job_is_routed_to_it_or_to_the_router_never_elsewhere(
    language: str,
) -> None:
    """Generated from the language's own data: every phrase of every table, in the
    conversation's language, routes to its specialist in code or leaves the choice to the
    router; none is routed to another specialist, and nearly all are routed in code."""
    rng = random.Random(language)
    tables = language_data(language)["intents"]
    verdicts: Counter[str] = Counter()
    for table, specialist in TABLES.items():
        for pattern in tables.get(table, []):
            for _ in range(3):
                message = phrase(pattern, rng)
                got = clear_route(message, SPECIALISTS, [], language)
                assert got in (specialist, ""), (message, table, got)
                verdicts[got or "router"] += 1
    assert verdicts["router"] <= 0.05 * sum(verdicts.values()), verdicts


@pytest.mark.parametrize("language", ["pt", "en", "es"])
def test_two_jobs_in_one_message_go_to_the_router(language: str) -> None:
    """A phrase of one job and one of another, generated from the data, are never routed in
    code to either: the model router decides."""
    rng = random.Random(language)
    tables = language_data(language)["intents"]
    for first, second in itertools.permutations(JOBS, 2):
        for _ in range(25):
            one = phrase(rng.choice(tables[first]), rng)
            other = phrase(rng.choice(tables[second]), rng)
            message = f"{one}, {other}"
            assert clear_route(message, SPECIALISTS, [], language) == "", message


@pytest.mark.parametrize(
    ("message", "language", "specialist"),
    [
        ("¿cuánto cuesta la barba?", "es", "discovery"),
        ("quiero reprogramar mi cita", "es", "appointments"),
        ("¿dónde están ubicados?", "es", "faq"),
        ("¡Hola, buenas tardes!", "es", "discovery"),  # a bare greeting
    ],
)
def test_spanish_is_routed_in_code_from_its_data(
    message: str, language: str, specialist: str
) -> None:
    assert clear_route(message, SPECIALISTS, [], language) == specialist


@pytest.mark.parametrize("language", ["pt", "en", "es"])
def test_the_words_naming_ones_own_appointment_are_no_booking_words(language: str) -> None:
    """ "cancelar meu agendamento", "cancel my appointment for Friday": a phrase of the
    ``appointments`` table, then a possessive and an appointment noun of ``[listing]``
    (generated from the data), is about the customer's own appointment only."""
    rng = random.Random(language)
    data = language_data(language)
    for pattern in data["intents"]["appointments"]:
        for possessive, noun in itertools.product(
            data["listing"]["possessives"], data["listing"]["appointment_nouns"]
        ):
            message = f"{phrase(pattern, rng)} {possessive} {noun}"
            assert clear_route(message, SPECIALISTS, [], language) == "appointments", message


def test_a_new_specialist_is_asked_for_by_its_own_intents_table() -> None:
    """A kind the grammar does not read itself is the ``[intents]`` table of that name (here an
    existing table, ``policy_question``, for a specialist of its own)."""
    policies = replace(by_name(SPECIALISTS)["faq"], name="policies", asks="policy_question")
    others = [spec for spec in SPECIALISTS if spec.name != "faq"]
    asked = "com quanto tempo de antecedência preciso avisar?"
    assert clear_route(asked, [*others, policies], [], "pt") == "policies"
    assert clear_route("where are you?", [*others, policies], [], "en") == ""
