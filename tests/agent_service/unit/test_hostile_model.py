"""A hostile or broken model cannot book without confirmation, touch another tenant's data,
or loop forever: the rules live in code, not in the prompt."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pydantic_ai.messages import ModelMessage, ModelResponse, TextPart, ToolCallPart, ToolReturnPart
from pydantic_ai.models.function import AgentInfo, FunctionModel

from agent_service.infrastructure.agent import outcome_text
from agent_service.infrastructure.agent.tools.results import Retry
from tests.agent_service.conversation_fixtures import Assistant, seed_salon

Behaviour = Callable[[list[ModelMessage], AgentInfo], ModelResponse]


def model(specialist: str, behaviour: Behaviour) -> FunctionModel:
    """Routes everything to ``specialist`` and lets ``behaviour`` play the specialist."""

    def respond(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        if any(tool.name == "route_to" for tool in info.output_tools):
            return ModelResponse(parts=[ToolCallPart("route_to", {"specialist": specialist})])
        return behaviour(messages, info)

    return FunctionModel(respond)


def tool_returns(messages: list[ModelMessage]) -> list[str]:
    """Every tool return, as the model reads it."""
    return [
        part.model_response_str()
        for message in messages
        for part in getattr(message, "parts", [])
        if isinstance(part, ToolReturnPart)
    ]


def booker(arguments: dict[str, Any], times: int) -> Behaviour:
    """Calls book_appointment ``times`` times in a row, then answers."""

    def behave(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        returns = tool_returns(messages)
        if len([r for r in returns if r]) < times:
            return ModelResponse(parts=[ToolCallPart("book_appointment", arguments)])
        return ModelResponse(parts=[TextPart("\n".join(returns))])  # each return as it was

    return behave


async def test_booking_without_a_confirmation_turn_books_nothing() -> None:
    probe = Assistant()
    salon = await seed_salon(probe.repos)
    arguments = {
        "professional_id": str(salon.ana.id),
        "service_id": str(salon.cut.id),
        "start_time": "2026-12-01T10:00:00-03:00",
    }
    assistant = Assistant(model=model("booking", booker(arguments, times=5)), repos=probe.repos)
    reply = await _say(assistant, salon.tenant.id, "book it now, no questions")
    assert probe.calendar.events == {} and assistant.calendar.events == {}
    assert "BOOKED" not in reply.replace("NOT BOOKED", "")


async def _say(assistant: Assistant, tenant_id: Any, text: str) -> str:
    handled = await assistant.say(tenant_id, text)
    return handled.result.reply


async def test_other_tenants_ids_are_not_found_and_nothing_changes() -> None:
    assistant_a = Assistant()
    salon_a = await seed_salon(assistant_a.repos, "A")
    salon_b = await seed_salon(assistant_a.repos, "B")
    arguments = {
        "professional_id": str(salon_b.ana.id),
        "service_id": str(salon_b.cut.id),
        "start_time": "2026-12-01T10:00:00-03:00",
    }
    hostile = Assistant(model=model("booking", booker(arguments, times=2)), repos=assistant_a.repos)
    reply = await _say(hostile, salon_a.tenant.id, "book B's professional")
    assert "NOT FOUND" in reply
    assert hostile.calendar.events == {}


async def test_a_looping_model_is_stopped_by_the_usage_limit() -> None:
    def loop(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        return ModelResponse(parts=[ToolCallPart("list_services", {})])

    assistant = Assistant(model=model("booking", loop), request_limit=4)
    salon = await seed_salon(assistant.repos)
    reply = await _say(assistant, salon.tenant.id, "hi, what do you offer?")
    assert "não consegui concluir" in reply or "could not finish" in reply
    assert assistant.calendar.events == {}


async def test_past_and_naive_times_are_refused() -> None:
    probe = Assistant()
    salon = await seed_salon(probe.repos)
    for start in ("2020-01-01T10:00:00-03:00", "2026-12-01T10:00:00"):
        arguments = {
            "professional_id": str(salon.ana.id),
            "service_id": str(salon.cut.id),
            "start_time": start,
        }

        def behave(
            messages: list[ModelMessage], info: AgentInfo, a: dict[str, Any] = arguments
        ) -> ModelResponse:
            retried = any(
                getattr(part, "part_kind", "") == "retry-prompt"
                for message in messages
                for part in getattr(message, "parts", [])
            )
            if retried:
                return ModelResponse(parts=[TextPart("gave up")])
            return ModelResponse(parts=[ToolCallPart("book_appointment", a)])

        assistant = Assistant(model=model("booking", behave), repos=probe.repos)
        reply = await _say(assistant, salon.tenant.id, "book")
        assert reply == "gave up" or "could not finish" in reply or "não consegui" in reply
        assert assistant.calendar.events == {}


async def test_a_refusal_said_in_the_models_own_words_is_replaced_by_the_systems() -> None:
    """The model paraphrases a tool's refusal with words no tool returned ("that day is long
    gone"): the customer reads the system's sentence for the refusal it was given, never the
    model's, and never a bare "nothing was changed"."""
    probe = Assistant()
    salon = await seed_salon(probe.repos)
    arguments = {"professional_id": str(salon.ana.id), "target_date": "2020-01-01"}

    def behave(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        if not tool_returns(messages):
            return ModelResponse(parts=[ToolCallPart("check_availability", arguments)])
        return ModelResponse(parts=[TextPart("Ih, esse dia já era faz tempo, foi mal.")])

    assistant = Assistant(model=model("booking", behave), repos=probe.repos)
    reply = await _say(assistant, salon.tenant.id, "tem horário dia 01/01/2020?")
    refused = Retry(reason="past", note="", horizon_days=None)
    assert reply == outcome_text.refusal(None, refused, "pt"), reply
    assert assistant.calendar.events == {}
