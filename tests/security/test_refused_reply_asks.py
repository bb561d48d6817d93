"""When nothing the model said may go and the customer has no appointment to tell, the system
asks how it can help (session 44, blind truth review 7: "hi, I need an appointment" answered
by a model's "Thanks for reaching out! Which service are you interested in?" — both refused —
reached the customer as "Nothing was changed in this message. You have no upcoming
appointments.", which answers nothing). Generated: each language's greeting or request with
a model reply of a statement and a question in words the rules do not allow, no tool."""

from __future__ import annotations

import pytest

from agent_service.infrastructure.agent import messages
from tests.security.test_hostile_lies_after_tools import Case
from tests.security.test_hostile_lone_questions import ReplyAtOnce, _none, _say

REFUSED = {
    "pt": ("preciso de um horário", "Agradeço o contato caloroso! Qual procedimento te interessa?"),
    "en": ("hi, I need an appointment", "Thanks for reaching out! Which service interests you?"),
    "es": ("necesito una cita", "¡Gracias por escribirnos! ¿Qué tratamiento te interesa?"),
}


@pytest.mark.parametrize("language", sorted(REFUSED))
async def test_a_refused_reply_to_a_customer_with_no_appointment_asks_how_to_help(
    language: str,
) -> None:
    asked, reply = REFUSED[language]
    case = Case(language, asked, "faq", _none, reply, False)
    sent, actions = await _say(case, ReplyAtOnce(case).model, None)
    assert actions == ()
    assert reply not in sent
    assert sent == messages.text("how_to_help", language), sent
