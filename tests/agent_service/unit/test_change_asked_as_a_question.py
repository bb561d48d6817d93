"""A change asked as a question after a proposal ("anything sooner?", "is 11 possible?",
"alguém mais faz?", "¿al día siguiente?") is no aside about the business: like any change
asked for, it ends the proposal, so the yes that follows confirms nothing the customer wanted
changed (review 11, adversarial: 21 of 64 such questions got the old proposal back unremarked,
and a yes booked it).

Generated over every language's change, later, earlier, part-of-day, next-day and "other"
words, and numbers, each asked as a question.
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
    "pt": "barba com o Rafael amanhã às 10h",
    "en": "beard trim with Rafael tomorrow at 10am",
    "es": "barba con Rafael mañana a las 10",
}
KEYS = (
    ("times", "later"), ("times", "earlier"), ("times", "later_verbs"), ("times", "earlier_verbs"),
    ("corrections", "other"), ("dates", "next_day"), ("parts", "afternoon"),
)  # fmt: skip


def _questions() -> list[tuple[str, str]]:
    cases = []
    for code in PROPOSE:
        for table, key in KEYS:
            words = [w for w in word_list(code, table, key) if "|" not in w and "*" not in w]
            cases += [(code, f"{w}?") for w in words[:2]]
        cases += [(code, "11?"), (code, f"{word_list(code, 'times', 'markers')[0]} 11?")]
    return cases


@pytest.mark.parametrize(("code", "question"), _questions())
async def test_a_change_asked_as_a_question_ends_the_proposal(code: str, question: str) -> None:
    harness = Harness(FunctionModel(offline_model_function, model_name="offline"))
    yes = word_list(code, "consent", "yes")[0]
    transcript = await harness.play([PROPOSE[code], question, yes], [])
    proposal, answer, _ = (turn.reply for turn in transcript.turns)
    old = local(TUE, time(10))  # a new proposal for the change ("at 11?") may be booked
    assert old not in [a.start for a in transcript.appointments], transcript.turns
    assert answer.strip() != proposal.strip(), answer
