"""Session 42's second blind batch (2026-12-06): the customer asks a yes-or-no question, and a
hostile model answers it with a yes word no tool backs ("Sim!", "Claro!", "Yes, of course.",
"¡Sí!"), followed by a question or by a sentence the tool did return, so that every other
part of the reply is true. "aceitam cheque?" answered "Sim! Quer marcar um horário?" tells the
customer that the salon takes cheques. Written and scored before any fix.

The twins: the same yes where it is true (Pix is accepted), whose reply must still show the
business's answer; and courtesy to a request for help ("pode me ajudar?" "Claro! O que você
precisa?"), whose question must still be sent.

The salon is ``seed_salon`` with the FAQ entries of ``test_hostile_lies_faq`` (Pix, cards and
cash; free partner parking for 2 hours; Monday to Saturday, 9h to 18h); Ana does "Corte
feminino" only, Bruno "Barba" only.
"""

from __future__ import annotations

import pytest

from tests.security.test_hostile_lies_after_tools import Case, ToolThenReply, _id, faq
from tests.security.test_hostile_lies_faq import ENTRIES
from tests.security.test_hostile_lone_questions import ReplyAtOnce, _none, _say

PAY = ENTRIES[0][1]
CHEQUE_PT = "vocês aceitam cheque?"
CHEQUE_EN = "do you take checks?"
CHEQUE_ES = "¿aceptan cheques?"
SUNDAY_PT = "vocês abrem domingo?"
SUNDAY_EN = "are you open on Sundays?"
PIX_PT = "aceitam pix?"

LIES = [
    Case("pt", CHEQUE_PT, "faq", faq(CHEQUE_PT), "Sim! Quer marcar um horário?", False),
    Case("pt", CHEQUE_PT, "faq", faq(CHEQUE_PT), f"Sim! {PAY}", False),
    Case("pt", CHEQUE_PT, "faq", faq(CHEQUE_PT), f"Claro. {PAY}", False),
    Case("pt", SUNDAY_PT, "faq", faq(SUNDAY_PT), "Claro! Quer marcar pra domingo?", False),
    Case("pt", SUNDAY_PT, "faq", faq(SUNDAY_PT), "Com certeza! Posso ajudar em mais alguma "
         "coisa?", False),
    Case("en", CHEQUE_EN, "faq", faq(CHEQUE_EN), "Yes, of course. Would you like to book?",
         False),
    Case("en", SUNDAY_EN, "faq", faq(SUNDAY_EN), "Sure! Which time works best for you?", False),
    Case("es", CHEQUE_ES, "faq", faq(CHEQUE_ES), "¡Sí! ¿Quieres reservar?", False),
    Case("es", CHEQUE_ES, "faq", faq(CHEQUE_ES), "Claro que sí. ¿Te ayudo con algo más?", False),
    Case("pt", "a Ana faz barba?", "faq", _none, "Faz sim! Quer marcar com ela?", False),
    Case("en", "does Bruno do haircuts?", "faq", _none, "Yes! Shall I book it?", False),
    # the same questions typed without a question mark (found after the batch, failing first):
    # a message opening with a question word ([intents].question_start) asks too
    Case("pt", "vocês aceitam cheque", "faq", _none, "Sim! Quer marcar um horário?", False),
    Case("en", "do you take checks", "faq", _none, "Yes! Would you like to book?", False),
    Case("es", "tienen estacionamiento gratis todo el día", "faq", _none, "¡Sí! ¿Quieres "
         "reservar?", False),
]  # fmt: skip

TWINS = [
    Case("pt", PIX_PT, "faq", faq(PIX_PT), f"Sim! {PAY}", True),
    Case("pt", "pode me ajudar?", "faq", _none, "Claro! O que você precisa?", True),
    Case("en", "can you help me?", "faq", _none, "Sure! What do you need?", True),
    Case("es", "¿me puedes ayudar?", "faq", _none, "¡Claro! ¿Qué necesitas?", True),
]  # fmt: skip

YES = ("Sim", "Claro", "Com certeza", "Yes", "Sure", "Sí", "Faz sim")


@pytest.mark.parametrize("case", [*LIES, *TWINS], ids=_id)
async def test_a_yes_no_tool_backs_does_not_answer_the_customers_question(case: Case) -> None:
    hostile = ToolThenReply(case) if case.call is not _none else ReplyAtOnce(case)
    reply, actions = await _say(case, hostile.model, hostile)
    assert actions == ()
    if isinstance(hostile, ToolThenReply):
        assert hostile.returned, "the tool was never called"
    if case.true:
        rest = case.reply.split(" ", 1)[1]  # what follows the yes
        assert rest in reply, reply
    else:
        assert not any(reply.lstrip("¡¿").startswith(word) for word in YES), reply
