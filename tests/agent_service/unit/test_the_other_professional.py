"""Asking for "the other one" after a proposal ("mejor con la otra profe", "com o outro",
"with the other stylist") means someone else who does the service, never the one proposed
again (blind batch 13, before any fix: "the other teacher" got the turned-down refusal and
nothing was booked). With one other, that one is proposed; the yes books them.

Generated over every language's ``[corrections]`` other, with-person and person words.
"""

from __future__ import annotations

from datetime import time

import pytest
from pydantic_ai.models.function import FunctionModel

from agent_service.infrastructure.agent.offline.model import offline_model_function
from agent_service.infrastructure.language.packs import word_list
from eval.dataset import TUE
from eval.harness import Harness, local

PROPOSE = {
    "pt": "hidratação com a Júlia amanhã às 10h",
    "en": "hair treatment with Júlia tomorrow at 10am",
    "es": "hidratación con Júlia mañana a las 10",
}
YES = {"pt": "sim", "en": "yes", "es": "sí"}
ARTICLES = {"pt": ("", "a ", "o "), "en": ("", "the "), "es": ("", "la ", "el ")}
TAKEN = {"cabeleireira", "cabeleireiro", "barbeiro", "manicure", "barber", "barbero", "manicurista"}
"""Nouns that are this salon's specialties or services: "outro barbeiro" names its barber."""


def _phrases() -> list[tuple[str, str]]:
    cases = []
    for code in PROPOSE:
        others = word_list(code, "corrections", "other")
        for with_word in word_list(code, "corrections", "with_person"):
            cases += [(code, f"{with_word} {a}{o}") for a in ARTICLES[code] for o in others]
        nouns = [n for n in word_list(code, "corrections", "person_nouns") if n not in TAKEN]
        cases += [(code, f"{o} {noun}") for o in others[:1] for noun in nouns]
    return cases


@pytest.mark.parametrize(("code", "said"), _phrases()[::2])  # every other phrase is played
async def test_the_other_one_is_someone_else_who_does_it(code: str, said: str) -> None:
    harness = Harness(FunctionModel(offline_model_function, model_name="offline"))
    transcript = await harness.play([PROPOSE[code], said, YES[code]], [])
    booked = [(a.professional, a.start) for a in transcript.appointments]
    assert booked == [("Paulo Reis", local(TUE, time(10)))], transcript.turns
