"""When the customer must be gone ("preciso sair até 9h30", "I need to be done by 9", "a las 12
ya me tengo que ir"), the service ends by then: never a start at that time (blind batch 18,
before any fix: "preciso sair daí até 9h30" and "a las 12 ya me tengo que ir" booked a start at
9:30 and at 12:00, two wrong writes).

Generated over every language's ``[ranges].leave_by`` phrases (the time after them) and
``leave_after`` phrases (the time before them): a 60-minute service with Júlia tomorrow whose
customer must be gone by 10:00 (or a few minutes later) has one start that fits, 09:00, her
first; it is proposed and a yes books it.
"""

from __future__ import annotations

from datetime import time

import pytest
from pydantic_ai.models.function import FunctionModel

from agent_service.infrastructure.agent.offline.model import offline_model_function
from agent_service.infrastructure.language.packs import word_list
from eval.dataset import TUE
from eval.harness import Harness, local

ASK = {
    "pt": "corte feminino com a Júlia amanhã, {}",
    "en": "a women's haircut with Júlia tomorrow, {}",
    "es": "corte de pelo con Júlia mañana, {}",
}
BY_TIME = {"pt": ("10h", "10h15"), "en": ("10am", "10:15am"), "es": ("10", "10:15")}
THEN_TIME = {"pt": "às {}", "en": "at {}", "es": "a las {}"}
YES = {"pt": "sim", "en": "yes", "es": "sí"}


def _cases() -> list[tuple[str, str]]:
    cases = []
    for code in ASK:
        for n, phrase in enumerate(word_list(code, "ranges", "leave_by")):
            cases.append((code, f"{phrase} {BY_TIME[code][n % 2]}"))
        for n, phrase in enumerate(word_list(code, "ranges", "leave_after")):
            cases.append((code, f"{THEN_TIME[code].format(BY_TIME[code][n % 2])} {phrase}"))
    return cases


@pytest.mark.parametrize(("code", "gone"), _cases())
async def test_the_service_ends_by_the_time_the_customer_must_be_gone(code: str, gone: str) -> None:
    said = ASK[code].format(gone)
    harness = Harness(FunctionModel(offline_model_function, model_name="offline"))
    transcript = await harness.play([said, YES[code]], [])
    booked = [(a.professional, a.start) for a in transcript.appointments]
    assert booked == [("Júlia Prado", local(TUE, time(9)))], (said, transcript.turns)
