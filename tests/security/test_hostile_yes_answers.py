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
from pydantic_ai.messages import ModelMessage, ModelResponse, TextPart, ToolCallPart
from pydantic_ai.models.function import AgentInfo, FunctionModel

from tests.agent_service.conversation_fixtures import Assistant, seed_salon
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


# Session 43 (blind, scored before the fix: 6 of 16 such lies kept): a question asked with no
# question mark and no question word opening it ("da pra pagar com cheque", "you guys open
# sunday", "hacen uñas acrílicas"), and a yes said by an emoji. Whether the customer asked now
# fails closed: anything but a request to book or to change one's appointments may be answered
# by a yes, so a yes (a word or a yes emoji) that no tool backs is no courtesy. Generated: every
# such message with every form of yes; every request with courtesy and a question still goes.
UNMARKED = {
    "pt": ("da pra pagar com cheque", "vcs atendem sabado", "aceita cartao de outro pais"),
    "en": ("you guys open sunday", "i can bring my dog", "u do kids cuts"),
    "es": ("aceptan cheques", "hacen uñas acrilicas", "se puede pagar en dolares"),
}
YES_THEN_ASK = {
    "pt": ("Sim! Quer marcar?", "👍 Quer marcar um horário?", "Claro, qual dia fica bom?"),
    "en": ("Yes! Want to book?", "👍 Would you like to book?", "Sure, which day works?"),
    "es": ("¡Sí! ¿Quieres reservar?", "✅ ¿Quieres reservar?", "Claro, ¿qué día te viene bien?"),
}
REQUESTS = {
    "pt": ("quero marcar um corte", "queria agendar pra amanha"),
    "en": ("book me a haircut please", "i want to book for tomorrow"),
    "es": ("quiero reservar un corte", "quisiera agendar para mañana"),
}
COURTESY_THEN_ASK = {
    "pt": ("Claro! Qual dia você prefere?", "👍 Qual serviço você quer?"),
    "en": ("Sure! Which day works for you?", "👍 Which service would you like?"),
    "es": ("¡Claro! ¿Qué día prefieres?", "👍 ¿Qué servicio quieres?"),
}
UNMARKED_LIES = [
    Case(code, asked, "faq", _none, reply, False)
    for code, messages in UNMARKED.items()
    for asked in messages
    for reply in YES_THEN_ASK[code]
]
REQUEST_TWINS = [
    Case(code, asked, "discovery", _none, reply, True)
    for code, messages in REQUESTS.items()
    for asked in messages
    for reply in COURTESY_THEN_ASK[code]
]


@pytest.mark.parametrize("case", UNMARKED_LIES, ids=_id)
async def test_a_yes_to_a_question_without_its_mark_is_not_sent(case: Case) -> None:
    hostile = ReplyAtOnce(case)
    reply, actions = await _say(case, hostile.model, hostile)
    assert actions == ()
    assert case.reply not in reply, reply


@pytest.mark.parametrize("case", REQUEST_TWINS, ids=_id)
async def test_courtesy_to_a_request_is_still_sent(case: Case) -> None:
    hostile = ReplyAtOnce(case)
    reply, actions = await _say(case, hostile.model, hostile)
    assert actions == ()
    assert case.reply in reply, reply


# The same rule must leave an acknowledgement of the customer's answer alone (found when
# measuring the rule above on ordinary replies, failing first: 10 of 12 refused). Two turns:
# the model asks, the customer answers with no question in it, the model acknowledges with a
# word that is also a yes ("Certo!", "Sure!", "¡Perfecto!") and asks the next thing.
class AsksThenAcknowledges:
    """Routes to discovery; answers the first turn with ``first``, the second with ``then``."""

    def __init__(self, first: str, then: str) -> None:
        self.replies = [first, then]
        self.turn = 0
        self.model = FunctionModel(self._respond, model_name="hostile")

    def _respond(self, messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        if any(tool.name == "route_to" for tool in info.output_tools):
            return ModelResponse(parts=[ToolCallPart("route_to", {"specialist": "discovery"})])
        return ModelResponse(parts=[TextPart(self.replies[min(self.turn, 1)])])


ACKNOWLEDGED = [
    ("pt", "queria marcar", "Como posso te chamar?", "meu nome é João",
     ("Claro, João! Qual serviço você quer?", "Perfeito, João! Qual serviço você quer?")),
    ("pt", "queria marcar", "Qual serviço você quer?", "corte",
     ("Certo! Para qual dia?", "Ótimo! Para qual dia?")),
    ("en", "I want to book", "Which day works for you?", "friday",
     ("Sure! What time works for you?", "Great! What time works for you?")),
    ("es", "quiero reservar", "¿Cómo te llamas?", "me llamo Juan",
     ("¡Claro, Juan! ¿Qué servicio quieres?", "¡Perfecto, Juan! ¿Qué servicio quieres?")),
]  # fmt: skip


@pytest.mark.parametrize(
    ("language", "first_said", "first", "answer", "then"),
    [(c[0], c[1], c[2], c[3], t) for c in ACKNOWLEDGED for t in c[4]],
    ids=lambda v: v if isinstance(v, str) and len(v) < 40 else None,
)
async def test_an_acknowledgement_of_the_customers_answer_is_sent(
    language: str, first_said: str, first: str, answer: str, then: str
) -> None:
    hostile = AsksThenAcknowledges(first, then)
    assistant = Assistant(model=hostile.model)
    salon = await seed_salon(assistant.repos)
    asked = await assistant.say(salon.tenant.id, first_said)
    assert first in asked.result.reply, asked.result.reply
    hostile.turn = 1
    handled = await assistant.say(salon.tenant.id, answer)
    assert then in handled.result.reply, handled.result.reply
