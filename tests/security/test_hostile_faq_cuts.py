"""An FAQ answer is told in the salon's own sentences, whole: a reply that cuts one so that
its condition is lost ("Estacionamento conveniado ao lado, gratuito." of "... gratuito por 2
horas.", "Atendemos crianças." of "... a partir de 5 anos"), or rearranges its words
("Estacionamento: gratuito!"), is not sent (consent and truth review 3: all sent). Generated:
every cut of each answer at a word before its end, and its words rearranged; the whole answer
is sent as written (the true twin)."""

from __future__ import annotations

import re

import pytest
from pydantic_ai.messages import (
    ModelMessage,
    ModelRequest,
    ModelResponse,
    TextPart,
    ToolCallPart,
    ToolReturnPart,
)
from pydantic_ai.models.function import AgentInfo, FunctionModel

from agent_service.domain.catalog import FaqEntry
from tests.agent_service.conversation_fixtures import Assistant, seed_salon

ENTRIES = [  # (question, answer, what the customer asks)
    ("Tem estacionamento?", "Estacionamento conveniado ao lado, gratuito por 2 horas.",
     "tem estacionamento?"),
    ("Aceitam cães grandes?", "Aceitamos cães grandes somente com agendamento prévio.",
     "vocês aceitam cães grandes?"),
    ("Atendem crianças?", "Atendemos crianças a partir de 5 anos, acompanhadas de um adulto.",
     "vocês atendem crianças?"),
    ("Is parking free?", "Parking next door is free for the first 2 hours.", "is parking free?"),
]  # fmt: skip


def _lies(answer: str) -> list[str]:
    words = answer.rstrip(".").split()
    cuts = [" ".join(words[:n]).rstrip(",") + "." for n in range(2, len(words))]
    plain = [w.strip(",") for w in words]
    rearranged = [f"{plain[0]}: {plain[-3]}!", f"{plain[-3].capitalize()}, {plain[0].lower()}!"]
    return [*cuts, *rearranged]


CASES = [(entry, lie, False) for entry in ENTRIES for lie in _lies(entry[1])]
CASES += [(entry, entry[1], True) for entry in ENTRIES]


class FaqThenReply:
    def __init__(self, reply: str) -> None:
        self.reply = reply
        self.model = FunctionModel(self._respond, model_name="hostile")
        self.searched = False

    def _respond(self, messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        if any(tool.name == "route_to" for tool in info.output_tools):
            return ModelResponse(parts=[ToolCallPart("route_to", {"specialist": "faq"})])
        last = messages[-1]
        if isinstance(last, ModelRequest) and any(
            isinstance(p, ToolReturnPart) for p in last.parts
        ):
            self.searched = True
            return ModelResponse(parts=[TextPart(self.reply)])
        asked = next(
            p.content
            for m in messages
            for p in getattr(m, "parts", [])
            if p.part_kind == "user-prompt"
        )
        return ModelResponse(parts=[ToolCallPart("search_faq", {"query": str(asked)})])


@pytest.mark.parametrize(
    ("entry", "reply", "true"), CASES, ids=lambda v: re.sub(r"\W+", "-", str(v))[:40]
)
async def test_an_faq_answer_is_told_whole(
    entry: tuple[str, str, str], reply: str, true: bool
) -> None:
    question, answer, asked = entry
    model = FaqThenReply(reply)
    assistant = Assistant(model=model.model)
    salon = await seed_salon(assistant.repos)
    await assistant.repos.faq.add(
        FaqEntry(tenant_id=salon.tenant.id, question=question, answer=answer, tags=())
    )
    handled = await assistant.say(salon.tenant.id, asked)
    sent = handled.result.reply
    assert model.searched
    if true:
        assert reply in sent, sent
    else:
        assert reply not in sent, sent


SPLIT = [  # an answer whose condition is its own sentence, or a number with a decimal point
    ("Atendem crianças?", "Atendemos crianças. A partir de 5 anos, acompanhadas de um adulto.",
     "vocês atendem crianças?", "Atendemos crianças."),
    ("Aceitam cães grandes?", "Aceitamos cães grandes. Somente com agendamento prévio.",
     "vocês aceitam cães grandes?", "Aceitamos cães grandes."),
    ("Is parking free?", "Parking is free. Only for the first 2 hours.", "is parking free?",
     "Parking is free."),
    ("How much is parking?", "Parking next door costs $2.50 per hour.", "how much is parking?",
     "Parking next door costs $2."),
]  # fmt: skip


@pytest.mark.parametrize(("question", "answer", "asked", "cut"), SPLIT)
async def test_a_sentence_of_an_answer_goes_only_with_the_rest_of_it(
    question: str, answer: str, asked: str, cut: str
) -> None:
    """Review of the rule: a whole sentence passed even when the next one is its condition
    ("Atendemos crianças." of "Atendemos crianças. A partir de 5 anos."), and "$2." passed as
    a sentence of "$2.50 per hour". The customer reads the whole answer instead."""
    model = FaqThenReply(cut)
    assistant = Assistant(model=model.model)
    salon = await seed_salon(assistant.repos)
    await assistant.repos.faq.add(
        FaqEntry(tenant_id=salon.tenant.id, question=question, answer=answer, tags=())
    )
    sent = (await assistant.say(salon.tenant.id, asked)).result.reply
    assert model.searched and sent.strip() != cut and answer in sent, sent
