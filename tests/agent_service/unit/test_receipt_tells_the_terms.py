"""A receipt tells the proposal's own terms, never the notes its question added (review 12:
after "yeah right" to a booking asked as "one more appointment: you already have Consulta …
Thursday", the receipt read "Nothing was changed: Consulta … Friday — one more appointment: you
already have Consulta … Thursday was not done", as if the Thursday one had not been done).

Generated over every language's ``[consent]`` unsure phrases (each leaves the proposal undone
and is told so), for a customer who already holds the same service.
"""

from __future__ import annotations

from datetime import time

import pytest
from pydantic_ai.models.function import FunctionModel

from agent_service.infrastructure.agent import messages
from agent_service.infrastructure.agent.offline.model import offline_model_function
from agent_service.infrastructure.language.packs import word_list
from eval.dataset import THU
from eval.harness import Booked, Harness, local

PROPOSE = {
    "pt": "hidratação com a Júlia amanhã às 14h",
    "en": "hair treatment with Júlia tomorrow at 2pm",
    "es": "hidratación con Júlia mañana a las 14",
}
HELD = Booked("hidratacao", "ana", local(THU, time(10)))  # Júlia Prado's


@pytest.mark.parametrize("code", sorted(PROPOSE))
async def test_an_undone_receipt_tells_the_terms_without_the_questions_notes(code: str) -> None:
    note = messages.text("also_held", code, appointments="").strip(" —:").split(":")[0]
    wrong = []
    for said in word_list(code, "consent", "unsure")[::3]:  # every third: 4-6 a language
        harness = Harness(FunctionModel(offline_model_function, model_name="offline"))
        transcript = await harness.play([PROPOSE[code], said], [HELD])
        asked, answered = transcript.turns[0].reply, transcript.turns[1].reply
        assert note in asked, asked  # the question names the appointment held
        if note in answered or transcript.appointments[1:]:
            wrong.append((said, answered))
    assert not wrong, wrong
