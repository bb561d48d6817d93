"""A question no FAQ entry answers that names a kind of service is answered from the catalog
(``tools/faq._catalog_answer``): the services of that kind with duration and price, and who
does them; a kind the business does not offer gets no such answer. Questions are generated
from every language's ``[services]`` words (the salon offers "Barba": the beard kind)."""

from __future__ import annotations

import pytest

from agent_service.infrastructure.language.packs import language_data
from tests.agent_service.conversation_fixtures import Assistant, seed_salon

LANGUAGES = ("pt", "en", "es")
ASKED = [(code, word) for code in LANGUAGES for word in language_data(code)["services"]["beard"]]
NOT_OFFERED = [
    (code, word) for code in LANGUAGES for word in language_data(code)["services"]["pedicure"]
]


async def _asked(code: str, word: str) -> str:
    assistant = Assistant()
    salon = await seed_salon(assistant.repos)
    return (await assistant.say(salon.tenant.id, f"e {word}?", customer=code)).result.reply


@pytest.mark.parametrize(("code", "word"), ASKED)
async def test_a_question_naming_an_offered_kind_gets_its_service_and_who_does_it(
    code: str, word: str
) -> None:
    reply = await _asked(code, word)
    assert "Barba" in reply and "40,00" in reply and "Bruno Lima" in reply, (word, reply)


@pytest.mark.parametrize(("code", "word"), NOT_OFFERED)
async def test_a_question_naming_a_kind_not_offered_gets_no_catalog_answer(
    code: str, word: str
) -> None:
    assert "R$" not in (reply := await _asked(code, word)), (word, reply)
