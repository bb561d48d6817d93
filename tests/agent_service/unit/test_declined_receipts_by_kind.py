"""A change the customer declined or left without a yes is told by its kind: a booking "was
not booked", a cancellation or a move leaves the appointment "as it was / still booked" (review
14's S1 and review 15: "Nada foi alterado: Manicure com Carla … não foi feito" after a declined
cancellation read as if the appointment itself had not happened).

Generated over every write tool, every language and both ways a proposal ends (declined,
dropped): each has its own receipt in every locale, and none says "{what} … not done".
"""

from __future__ import annotations

import pytest

from agent_service.domain.conversations import ActionKind, TurnAction
from agent_service.infrastructure.agent import messages
from agent_service.infrastructure.agent.truth import DECLINED_KINDS, _receipt

CODES = ("pt", "en", "es")
NOT_DONE = {"pt": "não foi feito", "en": "was not done", "es": "no se hizo"}
WHAT = "Manicure com Carla Mendes em sexta-feira 04/12/2026 10:00"


@pytest.mark.parametrize("code", CODES)
@pytest.mark.parametrize("tool", sorted(DECLINED_KINDS))
def test_a_declined_change_is_told_by_its_kind(code: str, tool: str) -> None:
    kind = DECLINED_KINDS[tool]
    for key in (f"declined_{kind}", f"dropped_{kind}"):
        assert key in messages.CATALOG[code], key
        told = messages.text(key, code, what=WHAT)
        assert WHAT in told and NOT_DONE[code] not in told, told
    action = TurnAction(kind=ActionKind.CHANGE_DECLINED, detail=WHAT)
    told = _receipt(action, code, (tool, {}))
    assert told == messages.text(f"declined_{kind}", code, what=WHAT)
