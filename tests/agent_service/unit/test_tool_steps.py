"""What each model request carries: compact tool schemas, and only the tools the task's step
can use (tools/steps.py) — every gate opening as soon as the customer could need the tool."""

from __future__ import annotations

from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any, cast

from pydantic_ai.messages import (
    ModelMessage,
    ModelRequest,
    ModelResponse,
    ToolReturnPart,
    UserPromptPart,
)
from pydantic_ai.models.function import AgentInfo, FunctionModel

from agent_service.domain.conversations import ActionKind
from agent_service.infrastructure.agent.deps import PendingAction
from agent_service.infrastructure.agent.offline.model import offline_model_function
from agent_service.infrastructure.agent.specialists import ESCAPE_RULE
from agent_service.infrastructure.agent.tools.results import NotAvailable, Proposed
from agent_service.infrastructure.agent.tools.schemas import compact_schema
from agent_service.infrastructure.agent.tools.steps import proposed
from tests.agent_service.conversation_fixtures import Assistant, seed_salon


@dataclass
class Seen:
    """Per model request: the function tools sent and how many messages."""

    requests: list[tuple[tuple[str, ...], int]] = field(default_factory=list)
    called: list[tuple[str, ...]] = field(default_factory=list)
    """Per model request: the tools the model's answer called."""

    def __call__(self, messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        names = tuple(sorted(tool.name for tool in info.function_tools))
        self.requests.append((names, len(messages)))
        answer = offline_model_function(messages, info)
        self.called.append(tuple(getattr(part, "tool_name", "") for part in answer.parts))
        return answer

    def take(self) -> list[tuple[tuple[str, ...], int]]:
        taken, self.requests = self.requests, []
        return taken


async def test_a_confirmed_booking_runs_in_code_with_no_model_request() -> None:
    seen = Seen()
    assistant = Assistant(model=FunctionModel(seen))
    salon = await seed_salon(assistant.repos)
    await assistant.say(salon.tenant.id, "Quero agendar um corte feminino com a Ana amanhã às 10h")
    assert all("book_appointment" in names for names, _ in seen.take())

    booked = await assistant.say(salon.tenant.id, "sim")
    assert booked.result.actions[0].kind is ActionKind.APPOINTMENT_BOOKED
    assert seen.take() == []  # decided and run in code; the receipt is the system's
    assert booked.result.reply.startswith("✅ Agendado:"), booked.result.reply


@dataclass
class Steps:
    """Per model request: the function tools, the output tools and the instructions sent."""

    requests: list[tuple[tuple[str, ...], tuple[str, ...], str]] = field(default_factory=list)

    def __call__(self, messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        self.requests.append(
            (
                tuple(sorted(tool.name for tool in info.function_tools)),
                tuple(sorted(tool.name for tool in info.output_tools)),
                info.instructions or "",
            )
        )
        return offline_model_function(messages, info)


async def test_a_proposal_ends_the_run_and_the_confirmation_makes_no_request() -> None:
    steps = Steps()
    assistant = Assistant(model=FunctionModel(steps))
    salon = await seed_salon(assistant.repos)
    asked = await assistant.say(
        salon.tenant.id, "Quero agendar um corte feminino com a Ana amanhã às 10h"
    )
    assert asked.result.pending is not None, asked.result.reply
    choosing = steps.requests
    assert all("book_appointment" in tools and ESCAPE_RULE in text for tools, _, text in choosing)
    # every request of the run is sent the same tools in the same order (a provider's prompt
    # cache serves the prefix only while they are identical)
    assert len(choosing[0][0]) == 5 and all(t == choosing[0][0] for t, _, _ in choosing), choosing
    # the last request is the one that proposed: no request follows for a reply, which is
    # the system's question alone
    assert asked.result.reply == asked.result.pending.question, asked.result.reply
    steps.requests.clear()

    booked = await assistant.say(salon.tenant.id, "sim")
    assert booked.result.actions[0].kind is ActionKind.APPOINTMENT_BOOKED
    assert steps.requests == []


def _run(pending: PendingAction | None, *results: Any) -> Any:
    turn = SimpleNamespace(pending=pending, actions=[])
    messages: list[ModelMessage] = [ModelRequest(parts=[UserPromptPart("quero às 10h")])]
    messages += [
        ModelRequest(parts=[ToolReturnPart("book_appointment", result, tool_call_id=f"c{n}")])
        for n, result in enumerate(results)
    ]
    return cast(Any, SimpleNamespace(deps=SimpleNamespace(turn=turn), messages=messages))


def test_only_a_proposal_made_in_this_run_is_a_proposed_step() -> None:
    earlier = PendingAction("book_appointment", {"start_time": "x"}, "Corte com Ana")
    names = {"book_appointment"}
    asked = Proposed(summary="Corte com Ana")
    taken = NotAvailable(reason="taken", asked="10:00", service="Corte", professional="Ana",
                         nearest=[])  # fmt: skip
    assert proposed(_run(earlier, asked), names) == "book_appointment"
    # an earlier turn's proposal, and this run's call that was refused: every tool stays
    assert proposed(_run(earlier), names) is None
    assert proposed(_run(earlier, asked, taken), names) is None
    assert proposed(_run(None, asked), names) is None
    assert proposed(_run(earlier, asked), {"cancel_appointment"}) is None


async def test_a_confirmed_booking_that_was_not_made_says_so_then_every_tool_is_back() -> None:
    seen = Seen()
    assistant = Assistant(model=FunctionModel(seen))
    salon = await seed_salon(assistant.repos)
    wanted = "Quero agendar um corte feminino com a Ana amanhã às 10h"
    await assistant.say(salon.tenant.id, wanted)
    await assistant.say(salon.tenant.id, wanted, customer="5511888880000")  # someone else
    first = await assistant.say(salon.tenant.id, "sim", customer="5511888880000")
    assert first.result.actions[0].kind is ActionKind.APPOINTMENT_BOOKED
    seen.take()
    taken = await assistant.say(salon.tenant.id, "sim")
    assert [a.kind for a in taken.result.actions] == [ActionKind.CHANGE_FAILED], taken.result
    assert "❌ Não foi feito" in taken.result.reply and seen.take() == []
    await assistant.say(salon.tenant.id, "e às 11h?")
    after = seen.take()
    assert after and "check_availability" in after[0][0], after  # to offer other times


async def test_a_declined_proposal_keeps_every_tool_and_the_task_messages() -> None:
    seen = Seen()
    assistant = Assistant(model=FunctionModel(seen))
    salon = await seed_salon(assistant.repos)
    await assistant.say(salon.tenant.id, "Quero agendar um corte feminino com a Ana amanhã às 10h")
    seen.take()
    other = await assistant.say(salon.tenant.id, "não, melhor às 15h")
    assert other.result.pending is not None, other.result.reply
    first, *_ = seen.take()
    assert "check_availability" in first[0] and first[1] > 1, first


async def test_cancel_and_move_are_sent_only_to_a_customer_with_an_appointment() -> None:
    seen = Seen()
    assistant = Assistant(model=FunctionModel(seen))
    salon = await seed_salon(assistant.repos)
    none = await assistant.say(salon.tenant.id, "Quero cancelar meu agendamento")
    assert none.result.actions == (), none.result.reply
    assert {names for names, _ in seen.take()} == {("list_my_appointments",)}

    await assistant.say(salon.tenant.id, "Quero agendar um corte feminino com a Ana amanhã às 10h")
    await assistant.say(salon.tenant.id, "sim")
    seen.take()
    asked = await assistant.say(salon.tenant.id, "Quero cancelar meu agendamento")
    assert "cancelamento" in asked.result.reply, asked.result.reply
    first, *later = seen.take()
    assert {"cancel_appointment", "reschedule_appointment"} <= set(first[0]), first
    # the same tools, in the same order, on every request of the run (a stable cached prefix)
    assert later and all(names == first[0] for names, _ in later), later


def test_a_compact_schema_keeps_every_argument_and_what_is_required() -> None:
    schema = {
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "day": {"type": "string", "format": "date", "description": "The day,\n  local."},
            "who": {"type": "string", "format": "uuid", "title": "Who"},
            "end": {
                "anyOf": [{"type": "string", "format": "date"}, {"type": "null"}],
                "default": None,
                "description": "Optional end.",
            },
            "show": {"type": "boolean", "default": False, "description": "A flag."},
            "loud": {"type": "boolean", "default": True},
        },
        "required": ["day", "who"],
    }
    assert compact_schema(schema) == {
        "type": "object",
        "properties": {
            "day": {"type": "string", "format": "date", "description": "The day, local."},
            "who": {"type": "string"},
            "end": {"description": "Optional end.", "type": "string", "format": "date"},
            "show": {"type": "boolean", "description": "A flag."},  # off unless sent
            "loud": {"type": "boolean", "default": True},  # a default that says something
        },
        "required": ["day", "who"],
    }
    nested = {"type": "object", "$defs": {"X": {}}, "properties": {}}
    assert compact_schema(nested) is nested  # what it cannot shorten safely stays as it is


async def test_the_catalog_is_looked_up_once_per_task_not_on_every_turn() -> None:
    seen = Seen()
    assistant = Assistant(model=FunctionModel(seen))
    salon = await seed_salon(assistant.repos)
    await assistant.say(salon.tenant.id, "Quero marcar uma barba com o Bruno")
    assert ("list_services", "list_professionals") in seen.called, seen.called
    seen.called.clear()
    # the ids it returned are in the task's history: the next turns go straight on
    asked = await assistant.say(salon.tenant.id, "amanhã às 14h")
    assert asked.result.pending is not None, asked.result.reply
    assert all("list_services" not in called for called in seen.called), seen.called
