"""The context block's memory line never repeats what the pending action line already shows."""

from __future__ import annotations

from pydantic_ai.messages import ModelMessage, ModelResponse
from pydantic_ai.models.function import AgentInfo, FunctionModel

from agent_service.infrastructure.agent.deps import PendingAction
from agent_service.infrastructure.agent.memory import memory_text
from agent_service.infrastructure.agent.offline.model import offline_model_function
from tests.agent_service.conversation_fixtures import Assistant, seed_salon

PROPOSED = "Corte feminino com Ana Souza em terça-feira 01/12/2026 10:00 (R$ 80,00)"


def test_a_confirmed_write_is_named_once_and_an_unconfirmed_one_stays_in_the_summary() -> None:
    memory = {"name": "", "summary": f"last topic: booking; awaiting confirmation: {PROPOSED}"}
    confirmed = PendingAction("book_appointment", {}, PROPOSED, confirmed=True)
    assert memory_text(memory, confirmed) == "summary: last topic: booking"
    assert (
        memory_text(memory, None)
        == f"summary: last topic: booking; awaiting confirmation: {PROPOSED}"
    )
    other = PendingAction("book_appointment", {}, "Barba com Bruno", confirmed=True)
    assert "awaiting confirmation" in memory_text(memory, other)


async def test_a_changed_answer_shows_the_proposal_only_as_the_pending_action() -> None:
    seen: list[str] = []

    def model(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        seen.append(info.instructions or "")
        return offline_model_function(messages, info)

    assistant = Assistant(model=FunctionModel(model))
    salon = await seed_salon(assistant.repos)
    await assistant.say(salon.tenant.id, "Quero agendar um corte feminino com a Ana amanhã às 10h")
    seen.clear()
    await assistant.say(salon.tenant.id, "sim")  # a plain yes: confirmed in code
    assert seen == []
    await assistant.say(salon.tenant.id, "Quero agendar uma barba com o Bruno amanhã às 10h")
    seen.clear()
    await assistant.say(salon.tenant.id, "sim, mas às 11h")  # not a yes: the model goes on
    assert seen
    for instructions in seen:
        assert "awaiting confirmation" not in instructions
    assert "Pending action:" in seen[0] and "Barba com Bruno" in seen[0]
