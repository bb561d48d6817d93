"""Moving one's appointment by an amount of time with no move verb ("can we do my Wednesday
Barba 30 min earlier?", "dá pra fazer minha Barba de quarta 1 hora mais tarde?") proposes the
appointment at that amount from its time (batch 12, blind: it listed the appointments and asked
nothing). Generated from the language data: every later and earlier word of ``[times]``, an
amount in minutes and in hours, in every language."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from agent_service.infrastructure.language.packs import word_list
from tests.agent_service.conversation_fixtures import Assistant, seed_salon

BOOK = {"pt": "Quero agendar Barba com o Bruno quarta às 14h",
        "en": "I'd like to book a Barba with Bruno on Wednesday at 2pm",
        "es": "Quiero reservar una Barba con Bruno el miércoles a las 14"}  # fmt: skip
YES = {"pt": "sim", "en": "yes", "es": "sí"}
ASK = {"pt": "dá pra fazer minha Barba de quarta {shift}?",
       "en": "can we do my Barba on Wednesday {shift}?",
       "es": "¿podemos hacer mi Barba del miércoles {shift}?"}  # fmt: skip
BOOKED = datetime(2026, 12, 2, 14, 0)


def _cases() -> list[tuple[str, str, datetime]]:
    cases = []
    for code in ASK:
        for key, sign in (("later", 1), ("earlier", -1)):
            for direction in word_list(code, "times", key)[:1]:
                for amount, minutes in (
                    (f"30 {word_list(code, 'times', 'minute_units')[-1]}", 30),
                    (f"1 {word_list(code, 'times', 'hour_units')[1]}", 60),
                ):
                    moved = BOOKED + timedelta(minutes=sign * minutes)
                    cases.append((code, f"{amount} {direction}", moved))
    return cases


@pytest.mark.parametrize(("code", "shift", "moved"), _cases())
async def test_an_amount_earlier_or_later_moves_the_appointment(
    code: str, shift: str, moved: datetime
) -> None:
    assistant = Assistant()
    salon = await seed_salon(assistant.repos)
    await assistant.say(salon.tenant.id, BOOK[code])
    booked = await assistant.say(salon.tenant.id, YES[code])
    assert booked.result.actions, booked.result.reply
    asked = await assistant.say(salon.tenant.id, ASK[code].format(shift=shift))
    assert asked.result.pending is not None, asked.result.reply
    assert f"{moved:%H:%M}" in asked.result.reply, asked.result.reply
