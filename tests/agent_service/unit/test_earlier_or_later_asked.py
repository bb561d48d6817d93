"""A change of time asked after a proposal with no time of its own — "mais cedo?", "anything
later?", "¿se puede adelantar?", "o mais cedo possível?", "the latest you have?" — is a new
proposal that way (the nearest free time before or after the proposed one; the day's first or
last), and a yes books that one; the old terms are never booked (blind batch 14: "nothing
earlier that morning?" re-proposed the same terms, which the gate refused, and the yes after
it asked "which day and time?"; "the latest you have?" was answered as an FAQ aside and the
yes booked the old time).

Generated over every language's ``[times]`` earlier/later words and verbs and ``[ranges]``
earliest/latest phrases, each asked as a question after a proposal: the old terms are never
booked, a booking is that way, and an earlier or later word always gets one.
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
    "pt": "hidratação com a Júlia amanhã às 14h",
    "en": "hair treatment with Júlia tomorrow at 2pm",
    "es": "hidratación con Júlia mañana a las 14",
}
YES = {"pt": "sim", "en": "yes", "es": "sí"}
OLD = local(TUE, time(14))
WAYS = {
    ("times", "earlier"): -1, ("times", "earlier_verbs"): -1, ("ranges", "earliest"): -1,
    ("times", "later"): 1, ("times", "later_verbs"): 1, ("ranges", "latest"): 1,
}  # fmt: skip


def _asked(code: str) -> list[tuple[str, int, bool]]:
    """Each phrase asked, its way, and whether a new proposal is owed: an earlier or later
    word is always a time that way; "the first opening?" may as well be the first of the
    coming days (listed), so only the old terms are ruled out."""
    return [
        (f"{phrase}?", way, table == "times")
        for (table, key), way in WAYS.items()
        for phrase in word_list(code, table, key)
    ]


@pytest.mark.parametrize("code", sorted(PROPOSE))
async def test_earlier_or_later_asked_after_a_proposal_is_proposed_that_way(code: str) -> None:
    wrong = []
    for said, way, owed in _asked(code):
        harness = Harness(FunctionModel(offline_model_function, model_name="offline"))
        transcript = await harness.play([PROPOSE[code], said, YES[code]], [])
        booked = [(a.professional, a.start) for a in transcript.appointments]
        that_way = [
            at for who, at in booked if who == "Júlia Prado" and at.date() == OLD.date() and
            (at < OLD if way < 0 else at > OLD)
        ]  # fmt: skip
        if len(booked) != len(that_way) or len(booked) > 1 or (owed and not booked):
            wrong.append((said, [f"{who} {at:%a %H:%M}" for who, at in booked]))
    assert not wrong, wrong
