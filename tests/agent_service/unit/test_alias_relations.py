"""A service's other words (its aliases, in any language) are mentions of it: a sentence that
gives one with another service's price is refused like one that gives its name ("The haircut is
R$ 40,00" when R$ 40,00 is the beard trim's), and one with its own price is told. The lexicon's
kind identifiers a listing carries for the model ("haircut") are no words a tool told."""

from __future__ import annotations

import itertools

import pytest
from pydantic_ai.messages import ModelMessage, ModelResponse, TextPart, ToolCallPart
from pydantic_ai.models.function import AgentInfo, FunctionModel

from tests.agent_service.conversation_fixtures import Assistant, seed_salon

ALIASES = {"Corte feminino": "haircut", "Barba": "beard trim"}


def _saying(text: str) -> FunctionModel:
    def respond(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        if len(messages) == 1:
            return ModelResponse(parts=[ToolCallPart("list_services", {})])
        return ModelResponse(parts=[TextPart(text)])

    return FunctionModel(respond, model_name="hostile")


async def _reply(text: str, aliases: bool) -> str:
    assistant = Assistant(model=_saying(text))
    salon = await seed_salon(assistant.repos)
    if aliases:
        for service in (salon.cut, salon.beard):
            named = service.model_copy(update={"aliases": (ALIASES[service.name],)})
            await assistant.repos.services.update(named)
    handled = await assistant.say(salon.tenant.id, "what services do you have?")
    return handled.result.reply


@pytest.mark.parametrize(("said", "priced"), list(itertools.product(ALIASES, ALIASES)))
async def test_an_alias_is_told_with_its_own_price_only(said: str, priced: str) -> None:
    prices = {"Corte feminino": "R$ 80,00", "Barba": "R$ 40,00"}
    text = f"The {ALIASES[said]} is {prices[priced]}."
    reply = await _reply(text, aliases=True)
    assert (text in reply) is (said == priced), reply


async def test_a_kind_identifier_is_no_told_word() -> None:
    text = "The haircut is R$ 80,00."
    assert text not in await _reply(text, aliases=False)
