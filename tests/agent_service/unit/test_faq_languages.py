"""FAQ answers in the conversation's language: the salon's own version when it wrote one, the
original quoted under a localized lead-in when it did not — never a bare sentence in the
other language (issue 12, "one language per conversation")."""

from __future__ import annotations

import pytest

from agent_service.domain.catalog import FaqEntry, LocalizedFaq
from agent_service.infrastructure.agent.tools.faq import answer_for, marked_quotation
from eval.evaluators import reply_problems
from tests.agent_service.conversation_fixtures import Assistant, seed_salon

PETS_PT = "Infelizmente não aceitamos animais no espaço."


async def _salon_with(assistant: Assistant, *entries: FaqEntry) -> object:
    salon = await seed_salon(assistant.repos)
    for entry in entries:
        await assistant.repos.faq.add(entry.model_copy(update={"tenant_id": salon.tenant.id}))
    return salon.tenant.id


def _pets(tenant_id: object = None, localized: tuple[LocalizedFaq, ...] = ()) -> FaqEntry:
    return FaqEntry.model_validate(
        {
            "tenant_id": tenant_id or "00000000-0000-0000-0000-000000000001",
            "question": "Posso levar meu cachorro?",
            "answer": PETS_PT,
            "tags": ("cachorro", "animal", "pet", "dog"),
            "localized": localized,
        }
    )


async def test_a_portuguese_only_answer_is_quoted_under_an_english_lead_in() -> None:
    assistant = Assistant()
    tenant_id = await _salon_with(assistant, _pets())
    reply = (await assistant.say(tenant_id, "can I bring my dog?")).result  # type: ignore[arg-type]
    assert reply.reply.startswith("The salon has this answer only in Portuguese:"), reply.reply
    assert f"“{PETS_PT}”" in reply.reply
    assert reply_problems(reply.reply, "en") == []
    assert [c.question for c in reply.citations] == ["Posso levar meu cachorro?"]


async def test_the_salons_english_answer_is_given_in_an_english_conversation() -> None:
    english = LocalizedFaq(
        language="en", question="Can I bring my dog?", answer="Sorry, we do not allow pets."
    )
    assistant = Assistant()
    tenant_id = await _salon_with(assistant, _pets(localized=(english,)))
    en = (await assistant.say(tenant_id, "can I bring my dog?")).result  # type: ignore[arg-type]
    assert en.reply == "Sorry, we do not allow pets.", en.reply
    assert [c.question for c in en.citations] == ["Can I bring my dog?"]
    pt = (
        await assistant.say(tenant_id, "posso levar meu cachorro?", customer="pt")  # type: ignore[arg-type]
    ).result
    assert pt.reply == PETS_PT, pt.reply


async def test_a_localized_question_alone_finds_the_entry() -> None:
    """Only the English version says "parking": it is indexed too."""
    parking = FaqEntry.model_validate(
        {
            "tenant_id": "00000000-0000-0000-0000-000000000001",
            "question": "Tem onde deixar o carro?",
            "answer": "Sim, temos vagas conveniadas ao lado.",
            "localized": (
                LocalizedFaq(language="en", question="Is there parking?", answer="Yes, next door."),
            ),
        }
    )
    assistant = Assistant()
    tenant_id = await _salon_with(assistant, parking)
    reply = (await assistant.say(tenant_id, "do you have parking?")).result  # type: ignore[arg-type]
    assert reply.reply == "Yes, next door.", reply.reply


def test_an_english_only_answer_is_quoted_in_a_portuguese_conversation() -> None:
    entry = FaqEntry.model_validate(
        {
            "tenant_id": "00000000-0000-0000-0000-000000000001",
            "question": "Do you have wifi?",
            "answer": "Yes, the password is on the wall.",
        }
    )
    shown = answer_for(entry, "pt")
    assert shown.quoted
    assert (
        shown.answer
        == "O salão tem esta resposta só em inglês: “Yes, the password is on the wall.”"
    )
    assert answer_for(entry, "en").answer == "Yes, the password is on the wall."


def test_a_regional_tag_counts_for_its_language_and_unclear_answers_are_not_quoted() -> None:
    entry = _pets(localized=(LocalizedFaq(language="en-us", answer="No pets, sorry."),))
    assert answer_for(entry, "en").answer == "No pets, sorry."
    short = FaqEntry.model_validate(
        {"tenant_id": entry.tenant_id, "question": "Pix?", "answer": "Pix, 3x."}
    )
    assert not answer_for(short, "en").quoted  # no evidence of another language


def test_the_eval_accepts_the_marked_quotation_and_nothing_else() -> None:
    marked = f"The salon has this answer only in Portuguese: “{PETS_PT}”"
    assert marked_quotation("en").fullmatch(marked)
    assert reply_problems(marked, "en") == []
    assert reply_problems(PETS_PT, "en")  # unmarked: still a sentence in the other language
    assert reply_problems(f"Here you go. “{PETS_PT}”", "en")  # another lead-in is not a mark
    assert reply_problems(f"{marked} Infelizmente não aceitamos gatos no espaço.", "en")


@pytest.mark.parametrize(
    ("localized", "message"),
    [
        (
            (LocalizedFaq(language="en", answer="a"), LocalizedFaq(language="EN", answer="b")),
            "one entry per language",
        ),
    ],
)
def test_one_version_per_language(localized: tuple[LocalizedFaq, ...], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        _pets(localized=localized)
